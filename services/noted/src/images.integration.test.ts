import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, Note, NoteImageUploaded, ShareResult } from '@noted/api';
import { createFsStore, type ObjectStore } from '@noted/storage';
import { getTestApp, json, type TestApp, infraLabel } from './test/app.js';

describe(`note images (${infraLabel})`, () => {
  let app: TestApp;
  let store: ObjectStore;
  let ada: string;
  let bob: string;
  let photo: Buffer;
  let translucent: Buffer;
  let bomb: Buffer;

  const create = async (token: string, title: string) =>
    json<Note>(app.api(token, 'POST', '/api/note/create/direct', { title }));
  const upload = (token: string, noteId: string, bytes: Buffer, filename: string, type: string) => {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(bytes)], { type }), filename);
    return fetch(`${app.url}/api/notes/${noteId}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
  };
  const read = (token: string | undefined, url: string) =>
    fetch(`${app.url}${url}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  const stored = async (noteId: string) =>
    (await store.list('')).filter((object) => object.key.split('/')[1] === noteId);
  const imagesOf = async (token: string, noteId: string) =>
    (await json<Note>(app.api(token, 'GET', `/api/notes/${noteId}`))).images;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'noted-images-'));
    app = await getTestApp({ env: { NOTED_DATA_DIR: dataDir } });
    store = createFsStore({ root: path.join(dataDir, 'notes', 'objects') });
    ada = await app.tokenFor(`ada-${randomUUID()}@example.com`);
    bob = await app.tokenFor(`bob-${randomUUID()}@example.com`);
    photo = await sharp({
      create: { width: 3000, height: 2000, channels: 3, background: '#3a7bd5' },
    })
      .jpeg()
      .toBuffer();
    translucent = await sharp({
      create: {
        width: 300,
        height: 200,
        channels: 4,
        background: { r: 9, g: 9, b: 9, alpha: 0.5 },
      },
    })
      .png()
      .toBuffer();
    // 100 megapixels of one colour: a few hundred KB that would decode to 300 MB.
    bomb = await sharp({
      limitInputPixels: false,
      create: { width: 10_000, height: 10_000, channels: 3, background: '#ffffff' },
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  it('stores an upload bounded to 1920 px as WebP, readable by its owner only', async () => {
    const note = await create(ada, 'Trip');
    const response = await upload(ada, note.id, photo, 'beach.jpg', 'image/jpeg');
    expect(response.status).toBe(201);
    const { image, note: changed } = await json<NoteImageUploaded>(response);
    expect(image).toMatchObject({ width: 1920, height: 1280 });
    expect(image.url).toMatch(new RegExp(`^/api/notes/${note.id}/images/[\\w-]{22}\\.webp$`));
    expect(changed.images).toEqual([image.url]);

    const served = await read(ada, image.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.length).toBe(image.bytes);
    expect(await sharp(bytes).metadata()).toMatchObject({
      format: 'webp',
      width: 1920,
      height: 1280,
    });

    expect((await read(bob, image.url)).status).toBe(404);
    expect((await read(undefined, image.url)).status).toBe(401);
    expect(await stored(note.id)).toHaveLength(1);
  });

  it('applies the EXIF orientation and keeps no metadata', async () => {
    const note = await create(ada, 'Rotated');
    const sideways = await sharp({
      create: { width: 300, height: 200, channels: 3, background: '#aa0000' },
    })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const { image } = await json<NoteImageUploaded>(
      upload(ada, note.id, sideways, 'p.jpg', 'image/jpeg'),
    );
    expect(image).toMatchObject({ width: 200, height: 300 });
    const meta = await sharp(
      Buffer.from(await (await read(ada, image.url)).arrayBuffer()),
    ).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
  });

  it('keeps a small image with alpha at its size', async () => {
    const note = await create(ada, 'Logo');
    const { image } = await json<NoteImageUploaded>(
      upload(ada, note.id, translucent, 'logo.png', 'image/png'),
    );
    expect(image).toMatchObject({ width: 300, height: 200 });
    const meta = await sharp(
      Buffer.from(await (await read(ada, image.url)).arrayBuffer()),
    ).metadata();
    expect(meta.hasAlpha).toBe(true);
  });

  it('judges the content, not the name: a JPEG named x.txt is an image', async () => {
    const note = await create(ada, 'Misnamed');
    const response = await upload(ada, note.id, photo, 'x.txt', 'text/plain');
    expect(response.status).toBe(201);
    expect(await imagesOf(ada, note.id)).toHaveLength(1);
  });

  describe('refuses, and stores nothing', () => {
    const html = Buffer.from('<!doctype html><script>alert(1)</script>');
    const cases: [string, () => Buffer, string, string, number, string, RegExp][] = [
      [
        'text',
        () => Buffer.from('just words'),
        'a.txt',
        'text/plain',
        422,
        'NOT_AN_IMAGE',
        /^The file given is not an image$/,
      ],
      [
        'HTML named .png',
        () => html,
        'evil.png',
        'image/png',
        422,
        'NOT_AN_IMAGE',
        /^The file given is not an image$/,
      ],
      [
        'a PNG signature over garbage',
        () => Buffer.concat([translucent.subarray(0, 8), Buffer.alloc(64, 7)]),
        'x.png',
        'image/png',
        422,
        'NOT_AN_IMAGE',
        /^The file given is not an image$/,
      ],
      [
        '11 MB',
        () => Buffer.concat([photo.subarray(0, 3), Buffer.alloc(11 * 1024 * 1024)]),
        'big.jpg',
        'image/jpeg',
        413,
        'PAYLOAD_TOO_LARGE',
        /10 MB/,
      ],
      [
        'a decompression bomb',
        () => bomb,
        'bomb.png',
        'image/png',
        422,
        'UNPROCESSABLE',
        /^The image is too large \(100,000,000 pixels; at most 40,000,000\)$/,
      ],
    ];
    it.each(cases)('%s', async (_name, bytes, filename, type, status, code, message) => {
      const note = await create(ada, 'Target');
      const response = await upload(ada, note.id, bytes(), filename, type);
      expect(response.status).toBe(status);
      const { error } = await json<ErrorBody>(response);
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
      expect(await imagesOf(ada, note.id)).toEqual([]);
      expect(await stored(note.id)).toEqual([]);
    });

    it("another user's note, or none", async () => {
      const note = await create(ada, 'Private');
      for (const noteId of [note.id, randomUUID()]) {
        const response = await upload(bob, noteId, photo, 'p.jpg', 'image/jpeg');
        expect(response.status).toBe(404);
        expect(await stored(noteId)).toEqual([]);
      }
      expect(await imagesOf(ada, note.id)).toEqual([]);
    });
  });

  it('serves the images of a note publicly only while it is shared', async () => {
    const note = await create(ada, 'Shared');
    const { image } = await json<NoteImageUploaded>(
      upload(ada, note.id, translucent, 'a.png', 'image/png'),
    );
    const name = image.url.split('/').pop() ?? '';
    const { publicId } = await json<ShareResult>(
      app.api(ada, 'POST', '/api/note/share', { noteId: note.id }),
    );
    const publicUrl = `/public/note/${publicId}/images/${name}`;
    const publicNote = await json<{ images: string[] }>(
      fetch(`${app.url}/public/note/${publicId}`),
    );
    expect(publicNote.images).toEqual([publicUrl]);
    const shared = await read(undefined, publicUrl);
    expect(shared.status).toBe(200);
    expect(shared.headers.get('content-type')).toBe('image/webp');
    expect(shared.headers.get('cache-control')).toBe('no-store');
    expect(
      (await read(undefined, `/public/note/${publicId}/images/${'A'.repeat(22)}.webp`)).status,
    ).toBe(404);

    await app.api(ada, 'POST', '/api/note/unshare', { noteId: note.id });
    expect((await read(undefined, publicUrl)).status).toBe(404);
  });

  it('removes an image from the note and from the store', async () => {
    const note = await create(ada, 'Album');
    const first = await json<NoteImageUploaded>(
      upload(ada, note.id, translucent, 'a.png', 'image/png'),
    );
    const second = await json<NoteImageUploaded>(
      upload(ada, note.id, translucent, 'b.png', 'image/png'),
    );
    expect(await stored(note.id)).toHaveLength(2);

    const remove = (token: string, imageUrl: string) =>
      app.api(token, 'DELETE', `/api/notes/${note.id}/images`, { imageUrl });
    expect((await remove(bob, first.image.url)).status).toBe(404);
    expect(await stored(note.id)).toHaveLength(2);

    const removed = await remove(ada, first.image.url);
    expect(removed.status).toBe(200);
    expect((await json<Note>(removed)).images).toEqual([second.image.url]);
    expect(await stored(note.id)).toHaveLength(1);
    expect((await read(ada, first.image.url)).status).toBe(404);
    expect((await remove(ada, first.image.url)).status).toBe(404);
  });

  it('an update that leaves images out removes them from the store', async () => {
    const note = await create(ada, 'Trimmed');
    const first = await json<NoteImageUploaded>(
      upload(ada, note.id, translucent, 'a.png', 'image/png'),
    );
    const second = await json<NoteImageUploaded>(
      upload(ada, note.id, translucent, 'b.png', 'image/png'),
    );
    const put = await app.api(ada, 'PUT', `/api/notes/${note.id}`, {
      images: [second.image.url],
    });
    expect(put.status).toBe(200);
    expect(await imagesOf(ada, note.id)).toEqual([second.image.url]);
    expect(await stored(note.id)).toHaveLength(1);
    expect((await read(ada, first.image.url)).status).toBe(404);
    expect((await read(ada, second.image.url)).status).toBe(200);
    // A title-only update leaves the images alone.
    await app.api(ada, 'PUT', `/api/notes/${note.id}`, { title: 'Renamed' });
    expect(await stored(note.id)).toHaveLength(1);
  });

  it('deleting a note deletes its images', async () => {
    const note = await create(ada, 'Doomed');
    await upload(ada, note.id, translucent, 'a.png', 'image/png');
    await upload(ada, note.id, translucent, 'b.png', 'image/png');
    expect(await stored(note.id)).toHaveLength(2);
    expect((await app.api(ada, 'DELETE', `/api/notes/${note.id}`)).status).toBe(204);
    expect(await stored(note.id)).toEqual([]);
  });
});
