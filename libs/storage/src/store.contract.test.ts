import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { AppError } from '@noted/api';
import { infraS3 } from '@noted/testing';
import { Client } from 'minio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsStore } from './fs.js';
import { createS3Store, type S3StoreOptions } from './s3.js';
import type { ObjectStore } from './store.js';

const s3 = infraS3();
const run = randomUUID().slice(0, 8);
const s3Options: S3StoreOptions = {
  endpoint: '',
  accessKey: '',
  secretKey: '',
  ...s3,
  bucket: `noted-contract-${run}`,
};

interface Adapter {
  name: string;
  skip: boolean;
  setup(): Promise<{ store: ObjectStore; root?: string; cleanup(): Promise<void> }>;
}

const adapters: Adapter[] = [
  {
    name: 'fs',
    skip: false,
    async setup() {
      const root = await mkdtemp(join(tmpdir(), 'noted-store-contract-'));
      return {
        store: createFsStore({ root }),
        root,
        cleanup: () => rm(root, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 's3',
    skip: !s3,
    async setup() {
      const store = await createS3Store(s3Options);
      return {
        store,
        async cleanup() {
          for (const item of await store.list('')) await store.delete(item.key);
          const url = new URL(
            s3Options.endpoint.includes('://')
              ? s3Options.endpoint
              : `http://${s3Options.endpoint}`,
          );
          const client = new Client({
            endPoint: url.hostname,
            port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
            useSSL: url.protocol === 'https:',
            accessKey: s3Options.accessKey,
            secretKey: s3Options.secretKey,
            pathStyle: true,
          });
          await client.removeBucket(s3Options.bucket);
        },
      };
    },
  },
];

describe.each(adapters)('object store contract: $name', (adapter) => {
  describe.skipIf(adapter.skip)(
    adapter.skip ? 'skipped: TEST_S3_ENDPOINT is not set' : 'behaviour',
    () => {
      let harness: Awaited<ReturnType<Adapter['setup']>>;
      let store: ObjectStore;
      // Keys are unique per test so tests do not see each other's objects.
      const owner = () => `user-${randomUUID().slice(0, 8)}`;

      beforeAll(async () => {
        harness = await adapter.setup();
        store = harness.store;
      });

      afterAll(async () => {
        await harness?.store.close();
        await harness?.cleanup();
      });

      it('round-trips a buffer with its content type and size', async () => {
        const key = `${owner()}/images/cat.png`;
        const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
        await store.put(key, bytes, { contentType: 'image/png' });
        const got = await store.get(key);
        expect(got).toBeDefined();
        expect(got!.contentType).toBe('image/png');
        expect(got!.size).toBe(bytes.length);
        const chunks: Buffer[] = [];
        for await (const chunk of got!.body) chunks.push(Buffer.from(chunk as Uint8Array));
        expect(Buffer.concat(chunks)).toEqual(bytes);
        expect(await store.stat(key)).toEqual({
          key,
          size: bytes.length,
          contentType: 'image/png',
        });
      });

      it('stores a stream, with or without its size', async () => {
        const prefix = owner();
        const body = 'line\n'.repeat(10_000);
        await store.put(`${prefix}/sized.txt`, Readable.from([body]), {
          contentType: 'text/plain',
          size: body.length,
        });
        await store.put(
          `${prefix}/unsized.txt`,
          Readable.from(
            body
              .split('\n')
              .map((l) => `${l}\n`)
              .slice(0, 10_000),
          ),
          {
            contentType: 'text/plain',
          },
        );
        for (const name of ['sized.txt', 'unsized.txt']) {
          const got = await store.get(`${prefix}/${name}`);
          expect(got?.size).toBe(body.length);
          expect(await text(got!.body)).toBe(body);
        }
      });

      it('stores a stream of unknown size larger than one upload part (20 MiB)', async () => {
        // Over the S3 adapter's 16 MiB part size, so S3 takes it as a multipart upload.
        const key = `${owner()}/audio/long.bin`;
        const chunk = 1024 * 1024;
        const total = 20 * chunk;
        const sent = createHash('sha256');
        async function* source() {
          for (let offset = 0; offset < total; offset += chunk) {
            const bytes = randomBytes(chunk);
            sent.update(bytes);
            yield bytes;
          }
        }
        await store.put(key, Readable.from(source()), { contentType: 'audio/mpeg' });
        const got = await store.get(key);
        expect(got?.size).toBe(total);
        expect(got?.contentType).toBe('audio/mpeg');
        const received = createHash('sha256');
        let length = 0;
        for await (const part of got!.body) {
          received.update(part as Uint8Array);
          length += (part as Uint8Array).length;
        }
        expect(length).toBe(total);
        expect(received.digest('hex')).toBe(sent.digest('hex'));
      });

      it('replaces an object put again under the same key', async () => {
        const key = `${owner()}/note.md`;
        await store.put(key, Buffer.from('old'), { contentType: 'text/plain' });
        await store.put(key, Buffer.from('new text'), { contentType: 'text/markdown' });
        const got = await store.get(key);
        expect(got?.contentType).toBe('text/markdown');
        expect(await text(got!.body)).toBe('new text');
      });

      it('answers undefined for a missing key, and deletes idempotently', async () => {
        const key = `${owner()}/gone.bin`;
        expect(await store.get(key)).toBeUndefined();
        expect(await store.stat(key)).toBeUndefined();
        await store.delete(key);
        await store.put(key, Buffer.from('x'), { contentType: 'application/octet-stream' });
        await store.delete(key);
        expect(await store.get(key)).toBeUndefined();
        await store.delete(key);
      });

      it('lists by prefix, sorted by key, and only what is under the prefix', async () => {
        const a = owner();
        const b = owner();
        await store.put(`${a}/2.png`, Buffer.from('22'), { contentType: 'image/png' });
        await store.put(`${a}/1.jpg`, Buffer.from('1'), { contentType: 'image/jpeg' });
        await store.put(`${a}/sub/3.webp`, Buffer.from('333'), { contentType: 'image/webp' });
        await store.put(`${a}x/other.png`, Buffer.from('o'), { contentType: 'image/png' });
        await store.put(`${b}/4.png`, Buffer.from('4444'), { contentType: 'image/png' });
        expect(await store.list(`${a}/`)).toEqual([
          { key: `${a}/1.jpg`, size: 1, contentType: 'image/jpeg' },
          { key: `${a}/2.png`, size: 2, contentType: 'image/png' },
          { key: `${a}/sub/3.webp`, size: 3, contentType: 'image/webp' },
        ]);
        expect((await store.list(a)).map((item) => item.key)).toEqual([
          `${a}/1.jpg`,
          `${a}/2.png`,
          `${a}/sub/3.webp`,
          `${a}x/other.png`,
        ]);
        expect(await store.list(`${owner()}/`)).toEqual([]);
        await store.delete(`${a}/sub/3.webp`);
        expect((await store.list(`${a}/sub/`)).length).toBe(0);
      });

      it('refuses keys that could escape or are malformed, with BAD_REQUEST', async () => {
        const bad = [
          '../etc/passwd',
          'a/../../b',
          '/abs/path',
          'a//b',
          'a/./b',
          '',
          'a/',
          'a\\b',
          'a/\u0000b',
        ];
        for (const key of bad) {
          const failure = await store
            .put(key, Buffer.from('x'), { contentType: 'text/plain' })
            .catch((e: unknown) => e);
          expect(failure, key).toBeInstanceOf(AppError);
          expect((failure as AppError).code).toBe('BAD_REQUEST');
          await expect(store.get(key)).rejects.toBeInstanceOf(AppError);
          await expect(store.delete(key)).rejects.toBeInstanceOf(AppError);
        }
        await expect(store.list('../')).rejects.toBeInstanceOf(AppError);
      });

      it('keeps the previous object when a streamed put fails midway', async () => {
        const key = `${owner()}/doc.txt`;
        await store.put(key, Buffer.from('complete'), { contentType: 'text/plain' });
        const failing = new Readable({
          read() {
            this.push('partial');
            this.destroy(new Error('client went away'));
          },
        });
        await expect(store.put(key, failing, { contentType: 'text/plain' })).rejects.toThrow(
          'client went away',
        );
        const got = await store.get(key);
        expect(await text(got!.body)).toBe('complete');
      });

      it('reports health', async () => {
        expect(await store.healthy()).toBe(true);
      });

      if (adapter.name === 'fs') {
        it('writes nothing outside its root and leaves no temporary files', async () => {
          const root = harness.root!;
          await store.put(`${owner()}/a.txt`, Buffer.from('a'), { contentType: 'text/plain' });
          await store
            .put('../outside.txt', Buffer.from('x'), { contentType: 'text/plain' })
            .catch(() => undefined);
          expect((await readdir(join(root, '..'))).includes('outside.txt')).toBe(false);
          expect(await readdir(join(root, 'tmp'))).toEqual([]);
        });
      }
    },
  );
});

describe.skipIf(!s3)('s3 signed uploads', () => {
  let store: ObjectStore;
  let plain: ObjectStore;
  const options = { ...s3Options, bucket: `noted-upload-${run}` };

  beforeAll(async () => {
    store = await createS3Store({ ...options, publicEndpoint: options.endpoint });
    plain = await createS3Store(options);
  });
  afterAll(async () => {
    for (const item of await store.list('')) await store.delete(item.key);
  });

  const post = (target: { url: string; fields: Record<string, string> }, body: Blob) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(target.fields)) form.append(name, value);
    form.append('file', body, 'talk.webm');
    return fetch(target.url, { method: 'POST', body: form });
  };
  const soon = () => new Date(Date.now() + 60_000);

  it('takes a file posted to the signed address, into that key only', async () => {
    const key = `${randomUUID()}/uploads/${randomUUID()}`;
    const target = await store.uploadTarget!(key, { maxBytes: 1024, expiresAt: soon() });
    expect(target.fields.key).toBe(key);
    const answer = await post(target, new Blob([Buffer.from('sound')]));
    expect(answer.status).toBe(204);
    expect(await text((await store.get(key))!.body)).toBe('sound');

    const elsewhere = { ...target, fields: { ...target.fields, key: `${key}-other` } };
    expect((await post(elsewhere, new Blob([Buffer.from('x')]))).status).toBe(403);
    expect(await store.stat(`${key}-other`)).toBeUndefined();
  });

  it('refuses a file over the size it was signed for, and an expired signature', async () => {
    const key = `${randomUUID()}/uploads/${randomUUID()}`;
    const target = await store.uploadTarget!(key, { maxBytes: 10, expiresAt: soon() });
    const tooLarge = await post(target, new Blob([Buffer.alloc(11)]));
    expect(tooLarge.status).toBe(400);
    expect(await tooLarge.text()).toContain('EntityTooLarge');

    const expired = await store.uploadTarget!(key, {
      maxBytes: 10,
      expiresAt: new Date(Date.now() - 1000),
    });
    expect((await post(expired, new Blob([Buffer.from('x')]))).status).toBe(403);
    expect(await store.stat(key)).toBeUndefined();
  });

  it('offers no signed address without a public endpoint', () => {
    expect(plain.uploadTarget).toBeUndefined();
  });
});
