import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import {
  mkdir,
  open,
  readFile,
  readdir,
  rename,
  rm,
  rmdir,
  stat,
  writeFile,
} from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { AppError } from '@noted/api';
import { assertKey, assertPrefix } from './keys.js';
import type { ObjectInfo, ObjectStore, StoredObject } from './store.js';

export interface FsStoreOptions {
  /** Directory holding the objects (created if missing). */
  root: string;
}

interface Meta {
  contentType: string;
}

const defaultContentType = 'application/octet-stream';

const isMissing = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/**
 * Objects as files: `<root>/data/<key>` holds the bytes, `<root>/meta/<key>.json` the content
 * type. Each file is written to `<root>/tmp` and renamed into place, so a reader sees the old
 * or the new bytes, never part of them.
 */
export const createFsStore = (options: FsStoreOptions): ObjectStore => {
  const dataRoot = join(options.root, 'data');
  const metaRoot = join(options.root, 'meta');
  const tmpRoot = join(options.root, 'tmp');
  const dataPath = (key: string) => join(dataRoot, ...key.split('/'));
  const metaPath = (key: string) => `${join(metaRoot, ...key.split('/'))}.json`;

  const readMeta = async (key: string): Promise<Meta> => {
    try {
      const parsed = JSON.parse(await readFile(metaPath(key), 'utf8')) as Partial<Meta>;
      return { contentType: parsed.contentType ?? defaultContentType };
    } catch {
      return { contentType: defaultContentType };
    }
  };

  const placeFile = async (key: string, tmp: string, target: string) => {
    try {
      await mkdir(dirname(target), { recursive: true });
      await rename(tmp, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Files cannot be both an object and a folder of objects, as S3 keys can.
      if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') {
        throw new AppError(
          'CONFLICT',
          `object key ${JSON.stringify(key)} overlaps another object's path`,
        );
      }
      throw error;
    }
  };

  // Empty directories left by deletes are removed up to (not including) the tree's root.
  const pruneDirs = async (from: string, root: string) => {
    let dir = from;
    while (dir.startsWith(root + sep)) {
      try {
        await rmdir(dir);
      } catch {
        return;
      }
      dir = dirname(dir);
    }
  };

  const walk = async (dir: string, out: string[]) => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path, out);
      else if (entry.isFile()) out.push(path);
    }
  };

  const info = async (key: string): Promise<ObjectInfo | undefined> => {
    try {
      const file = await stat(dataPath(key));
      if (!file.isFile()) return undefined;
      return { key, size: file.size, contentType: (await readMeta(key)).contentType };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  };

  return {
    async put(key, body, putOptions) {
      assertKey(key);
      await mkdir(tmpRoot, { recursive: true });
      const tmpData = join(tmpRoot, `${randomUUID()}.data`);
      const tmpMeta = join(tmpRoot, `${randomUUID()}.meta`);
      try {
        if (Buffer.isBuffer(body)) await writeFile(tmpData, body);
        else await pipeline(body, createWriteStream(tmpData));
        const meta: Meta = { contentType: putOptions.contentType };
        await writeFile(tmpMeta, JSON.stringify(meta));
        await placeFile(key, tmpMeta, metaPath(key));
        await placeFile(key, tmpData, dataPath(key));
      } finally {
        await Promise.all([rm(tmpData, { force: true }), rm(tmpMeta, { force: true })]);
      }
    },

    async get(key): Promise<StoredObject | undefined> {
      assertKey(key);
      let handle;
      try {
        handle = await open(dataPath(key), 'r');
      } catch (error) {
        if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'EISDIR')
          return undefined;
        throw error;
      }
      // Size and bytes come from the same open file, even if the key is replaced meanwhile.
      const file = await handle.stat();
      if (!file.isFile()) {
        await handle.close();
        return undefined;
      }
      const { contentType } = await readMeta(key);
      return { body: handle.createReadStream(), contentType, size: file.size };
    },

    async stat(key) {
      assertKey(key);
      return info(key);
    },

    async delete(key) {
      assertKey(key);
      await Promise.all([rm(dataPath(key), { force: true }), rm(metaPath(key), { force: true })]);
      await Promise.all([
        pruneDirs(dirname(dataPath(key)), dataRoot),
        pruneDirs(dirname(metaPath(key)), metaRoot),
      ]);
    },

    async list(prefix) {
      assertPrefix(prefix);
      const slash = prefix.lastIndexOf('/');
      const start = slash < 0 ? dataRoot : join(dataRoot, ...prefix.slice(0, slash).split('/'));
      const files: string[] = [];
      await walk(start, files);
      const keys = files
        .map((file) => relative(dataRoot, file).split(sep).join('/'))
        .filter((key) => key.startsWith(prefix))
        .sort();
      const found = await Promise.all(keys.map((key) => info(key)));
      return found.filter((item): item is ObjectInfo => item !== undefined);
    },

    async healthy() {
      try {
        await mkdir(options.root, { recursive: true });
        return (await stat(options.root)).isDirectory();
      } catch {
        return false;
      }
    },

    async close() {},
  };
};
