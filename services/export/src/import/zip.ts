import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { AppError } from '@noted/api';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { basename, isImagePath, isMarkdownPath, normalizePath } from './paths.js';

/**
 * One file of an import: its normalised path and its bytes, or, for a file read into a folder
 * on disk (the images of a zip, which are only uploaded), where it is and how large.
 */
export type ImportFile =
  { path: string; bytes: Uint8Array } | { path: string; file: string; size: number };

export const sizeOf = (file: ImportFile): number =>
  'bytes' in file ? file.bytes.byteLength : file.size;

export const bytesOf = async (file: ImportFile): Promise<Uint8Array> =>
  'bytes' in file ? file.bytes : readFile(file.file);

/** How much one archive may hold; past any of them it is refused as a whole. */
export interface ZipLimits {
  /** Entries in the archive's directory, read or not. */
  maxEntries: number;
  /** Bytes inflated, all files taken together (those of nested archives included). */
  maxTotalBytes: number;
  /** Bytes of one file taken; a file said to be larger is passed over unread (`TOO_LARGE`). */
  maxFileBytes: number;
  /** An entry inflating past 1 MB to more than this many times its compressed size is a bomb. */
  maxRatio: number;
  /** Bytes of the files held in memory (the texts: Markdown, CSV), all together. */
  maxMemoryBytes: number;
}

export const ZIP_LIMITS: ZipLimits = {
  maxEntries: 20_000,
  maxTotalBytes: 256 * 1024 * 1024,
  maxFileBytes: 16 * 1024 * 1024,
  maxRatio: 200,
  maxMemoryBytes: 64 * 1024 * 1024,
};

/** Bytes an entry inflates to before its ratio is looked at: small files compress as they like. */
const RATIO_FROM_BYTES = 1024 * 1024;

/** Why an entry was passed over (the archive is still read). */
export type IgnoredReason = 'UNSAFE_PATH' | 'ENCRYPTED' | 'NOT_TAKEN' | 'TOO_LARGE';

export interface ZipContent {
  files: ImportFile[];
  ignored: { path: string; reason: IgnoredReason }[];
}

/** Codes in `details.reason` of the AppErrors a refused archive throws. */
export type ZipRefusal =
  | 'ZIP_TOO_MANY_ENTRIES'
  | 'ZIP_TOO_LARGE'
  | 'ZIP_ENTRY_TOO_LARGE'
  | 'ZIP_INFLATE_RATIO'
  | 'ZIP_TEXT_TOO_LARGE'
  | 'ZIP_INVALID';

const refused = (reason: ZipRefusal, message: string, limit?: number) =>
  new AppError(
    reason === 'ZIP_INVALID' ? 'ZIP_INVALID' : 'IMPORT_TOO_LARGE',
    message,
    limit === undefined ? { reason } : { reason, limit },
  );

/** What the result lists for an entry passed over: the plan's reasons where it has one. */
export const skipReasonOf = (entry: {
  path: string;
  reason: IgnoredReason;
}): 'NOT_MARKDOWN' | 'NOTE_TOO_LONG' | 'IMAGE_TOO_LARGE' | Exclude<IgnoredReason, 'NOT_TAKEN'> => {
  if (entry.reason === 'NOT_TAKEN') return 'NOT_MARKDOWN';
  if (entry.reason !== 'TOO_LARGE') return entry.reason;
  if (isMarkdownPath(entry.path)) return 'NOTE_TOO_LONG';
  return isImagePath(entry.path) ? 'IMAGE_TOO_LARGE' : 'TOO_LARGE';
};

/** The files an import reads: Markdown, images, Notion's CSV, and zips nested in an export. */
export const takeImportFile = (path: string): boolean =>
  isMarkdownPath(path) || isImagePath(path) || /\.(csv|zip)$/i.test(path);

/** Files an archiver or a desktop adds that are nobody's content. */
const isNoise = (path: string) =>
  path.startsWith('__MACOSX/') || basename(path) === '.DS_Store' || basename(path).startsWith('._');

const open = (source: string | Buffer): Promise<ZipFile> =>
  new Promise((resolve, reject) => {
    // Names are decoded here rather than by yauzl: it fails the whole archive on one unsafe
    // name, where an unsafe entry should only be passed over. Sizes are checked here too:
    // yauzl 2's check stops the stream without ever emitting its error (the read would hang).
    const options = { lazyEntries: true, decodeStrings: false, validateEntrySizes: false };
    const done = (error: Error | null, zip?: ZipFile) =>
      error || !zip ? reject(error ?? new Error('no zip')) : resolve(zip);
    if (typeof source === 'string') yauzl.open(source, options, done);
    else yauzl.fromBuffer(source, options, done);
  });

const openStream = (zip: ZipFile, entry: Entry): Promise<Readable> =>
  new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
  );

const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * An entry's name: UTF-8 when the archive says so (flag bit 11, or Info-ZIP's Unicode path
 * field), else UTF-8 when the bytes are valid UTF-8 (Info-ZIP and macOS write it unflagged),
 * else the format's default, code page 437.
 */
export const entryName = (
  raw: Buffer,
  flags: number,
  extraFields: readonly { id: number; data: Buffer }[],
): string => {
  if (flags & 0x800) return raw.toString('utf8');
  const unicodePath = extraFields.find((field) => field.id === 0x7075 && field.data[0] === 1);
  if (unicodePath && unicodePath.data.length > 5)
    return unicodePath.data.subarray(5).toString('utf8');
  try {
    return utf8.decode(raw);
  } catch {
    return [...raw]
      .map((byte) => (byte < 0x80 ? String.fromCharCode(byte) : CP437_HIGH[byte - 0x80]))
      .join('');
  }
};

/** Absolute (`/etc`, `C:`), or climbing out (`..`): never a file of the import. */
const isUnsafe = (name: string) => {
  const path = name.replace(/\\/g, '/');
  return /^([a-zA-Z]:|\/)/.test(path) || path.split('/').includes('..');
};

export interface ReadZipOptions {
  limits?: Partial<ZipLimits>;
  /** Which files are read; the others are passed over as `NOT_TAKEN`. */
  take?: (path: string) => boolean;
  /**
   * The most one file may hold (a Markdown file past what a note holds is never inflated);
   * `maxFileBytes` unless said.
   */
  maxBytesOf?: (path: string) => number;
  /** Files for which `when` is true are written to new files in `dir`, not held in memory. */
  store?: { dir: string; when: (path: string) => boolean };
  /** Bytes already taken from the same import (by the archive holding this one). */
  used?: number;
}

/**
 * Reads a `.zip` (a path on disk, or bytes) one entry at a time, streaming, keeping the files
 * `take` accepts. Bounded: more than `maxEntries` entries, all files past `maxTotalBytes`, a
 * file inflating past what its header says or past `maxRatio` times its compressed size
 * (counted as it inflates, whatever the headers claim) refuse the archive with
 * IMPORT_TOO_LARGE and `details.reason` (ZipRefusal); a damaged archive (cut short, a wrong
 * checksum) is ZIP_INVALID. A file said to be larger than it may be is passed over unread
 * (`TOO_LARGE`), as are entries whose names climb out (`../`, `/abs`, `C:`), encrypted ones and
 * the files not taken, all listed in `ignored`.
 */
export const readZip = async (
  source: string | Buffer,
  options: ReadZipOptions = {},
): Promise<ZipContent & { used: number }> => {
  const limits = { ...ZIP_LIMITS, ...options.limits };
  const take = options.take ?? takeImportFile;
  const maxBytesOf = options.maxBytesOf ?? (() => limits.maxFileBytes);
  let zip: ZipFile;
  try {
    zip = await open(source);
  } catch {
    throw refused('ZIP_INVALID', 'The file is not a zip archive that can be read');
  }
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw refused(
      'ZIP_TOO_MANY_ENTRIES',
      `The archive has ${zip.entryCount} entries; at most ${limits.maxEntries} are read`,
      limits.maxEntries,
    );
  }

  const content: ZipContent = { files: [], ignored: [] };
  let total = options.used ?? 0;
  let inMemory = 0;
  let stored = 0;

  const readEntry = async (entry: Entry, path: string): Promise<ImportFile> => {
    const stream = await openStream(zip, entry);
    const storeDir = options.store?.when(path) ? options.store.dir : undefined;
    const file = storeDir ? join(storeDir, `${String(stored++).padStart(6, '0')}`) : undefined;
    const out = file ? createWriteStream(file, { flags: 'wx' }) : undefined;
    // Events, not `for await`: yauzl's own destroy() never emits 'close', which the async
    // iterator would wait for after an error.
    return new Promise<ImportFile>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let crc = 0;
      let failed = false;
      const fail = (error: AppError) => {
        if (failed) return;
        failed = true;
        stream.removeAllListeners('data');
        stream.destroy();
        out?.destroy();
        reject(error);
      };
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        total += chunk.length;
        if (!out) inMemory += chunk.length;
        if (size > entry.uncompressedSize) {
          fail(
            refused(
              'ZIP_INVALID',
              `The zip archive is damaged: ${path} holds more than its header says`,
            ),
          );
        } else if (total > limits.maxTotalBytes) {
          fail(
            refused(
              'ZIP_TOO_LARGE',
              `The archive holds more than ${limits.maxTotalBytes} bytes`,
              limits.maxTotalBytes,
            ),
          );
        } else if (inMemory > limits.maxMemoryBytes) {
          fail(
            refused(
              'ZIP_TEXT_TOO_LARGE',
              `The archive holds more than ${limits.maxMemoryBytes} bytes of text`,
              limits.maxMemoryBytes,
            ),
          );
        } else if (size > RATIO_FROM_BYTES && size > limits.maxRatio * entry.compressedSize) {
          fail(
            refused(
              'ZIP_INFLATE_RATIO',
              `${path} inflates to more than ${limits.maxRatio} times its compressed size`,
              limits.maxRatio,
            ),
          );
        } else {
          crc = crc32(chunk, crc);
          if (out) {
            // Backpressure: the archive is read no faster than the disk takes it.
            if (!out.write(chunk)) {
              stream.pause();
              out.once('drain', () => stream.resume());
            }
          } else chunks.push(chunk);
        }
      });
      stream.on('error', () =>
        fail(refused('ZIP_INVALID', `The zip archive is damaged: ${path} cannot be read`)),
      );
      out?.on('error', () => fail(refused('ZIP_INVALID', `${path} could not be unpacked`)));
      stream.on('end', () => {
        if (size !== entry.uncompressedSize) {
          fail(refused('ZIP_INVALID', `The zip archive is damaged: ${path} is cut short`));
        } else if (crc >>> 0 !== entry.crc32 >>> 0) {
          fail(refused('ZIP_INVALID', `The zip archive is damaged: ${path} fails its checksum`));
        } else if (out && file) {
          out.end(() => resolve({ path, file, size }));
        } else resolve({ path, bytes: Buffer.concat(chunks) });
      });
    });
  };

  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', () => reject(refused('ZIP_INVALID', 'The zip archive is damaged')));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: Entry) => {
        void (async () => {
          const raw = entry.fileName as unknown as Buffer;
          const name = entryName(raw, entry.generalPurposeBitFlag, entry.extraFields);
          if (name.endsWith('/')) return;
          const path = isUnsafe(name) ? undefined : normalizePath(name);
          if (path === undefined) {
            content.ignored.push({ path: name, reason: 'UNSAFE_PATH' });
          } else if (isNoise(path)) {
            // Not listed: nobody put them there on purpose.
          } else if (!take(path)) {
            content.ignored.push({ path, reason: 'NOT_TAKEN' });
          } else if (entry.isEncrypted()) {
            content.ignored.push({ path, reason: 'ENCRYPTED' });
          } else if (entry.uncompressedSize > maxBytesOf(path)) {
            content.ignored.push({ path, reason: 'TOO_LARGE' });
          } else {
            content.files.push(await readEntry(entry, path));
          }
        })().then(
          () => zip.readEntry(),
          (error: unknown) =>
            reject(
              error instanceof AppError
                ? error
                : refused('ZIP_INVALID', 'The zip archive is damaged: an entry cannot be read'),
            ),
        );
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return { ...content, used: total };
};
