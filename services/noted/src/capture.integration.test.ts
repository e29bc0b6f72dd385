import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, Note, NotePage, UploadTarget, UserUsage } from '@noted/api';
import { infraS3, pdfWithText, startFakeOpenAi, wavTone, type FakeOpenAi } from '@noted/testing';
import { getTestApp, infraLabel, json, type TestApp } from './test/app.js';

/** A PNG of dark text on white, as a photographed page or a screenshot would be. */
const textImage = async (lines: string[]) => {
  const height = 80 + lines.length * 60;
  const text = lines
    .map((line, index) => `<text x="40" y="${80 + index * 60}">${line}</text>`)
    .join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="${height}">` +
    `<rect width="100%" height="100%" fill="white"/>` +
    `<g font-family="DejaVu Sans" font-size="40" fill="#111">${text}</g></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
};

const ARTICLE = `<!doctype html><html lang="en"><head><title>Tidal energy | Example News</title>
<meta property="og:site_name" content="Example News"></head><body>
<nav><a href="/">Home</a> <a href="/sports">Sports</a> Subscribe now!</nav>
<main><article><h1>Tidal energy comes of age</h1>
<p>Engineers in the Orkney islands have run a floating tidal turbine for five years without a
major repair, feeding enough electricity for two thousand homes into the local grid.</p>
<h2>Why tides</h2><p>Unlike wind, the tides are predictable decades ahead, which makes tidal
power easy to plan around. The turbine sits in a channel where the current reaches four metres
per second.</p><ul><li>Predictable output</li><li>Little visual impact</li></ul>
<p>Read the <a href="/reports/tidal.pdf">full report</a>.</p></article></main>
<footer>Copyright Example News. Cookie settings.</footer></body></html>`;

/** With MinIO at hand, files go to it, and large uploads straight to it through signed addresses. */
const minio = infraS3();
const s3 = minio?.endpoint;
const s3Env: Record<string, string> = minio
  ? {
      S3_ENDPOINT: minio.endpoint,
      S3_PUBLIC_ENDPOINT: minio.endpoint,
      S3_ACCESS_KEY: minio.accessKey,
      S3_SECRET_KEY: minio.secretKey,
      S3_BUCKET: `noted-capture-${randomUUID().slice(0, 8)}`,
    }
  : {};

describe(`notes captured from images, audio, links and PDFs (${infraLabel}${s3 ? ', MinIO' : ''})`, () => {
  let app: TestApp;
  let site: Server;
  let siteUrl: string;
  let fake: FakeOpenAi;
  let token: string;
  let other: string;

  const upload = (as: string, route: string, field: string, data: Buffer, name: string) => {
    const form = new FormData();
    form.append(field, new Blob([data]), name);
    return fetch(`${app.url}${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${as}` },
      body: form,
    });
  };
  const note = (as: string, id: string) => json<Note>(app.api(as, 'GET', `/api/notes/${id}`));
  /** The note once its reading is done (ready, failed or waiting). */
  const settled = async (as: string, id: string) => {
    const deadline = Date.now() + 45_000;
    for (;;) {
      const current = await note(as, id);
      if (current.capture?.status !== 'processing' || Date.now() > deadline) return current;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  };
  const usage = (as: string) => json<UserUsage>(app.api(as, 'GET', '/user/usage'));

  beforeAll(async () => {
    site = createServer((req, res) => {
      if (req.url === '/article') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(ARTICLE);
      } else if (req.url === '/redirect') {
        // A public-looking page sending the fetch on to a private address.
        const { port } = site.address() as AddressInfo;
        res.writeHead(302, { location: `http://127.0.0.2:${port}/article` }).end();
      } else if (req.url === '/memo.wav') {
        res.writeHead(200, { 'content-type': 'audio/wav' });
        res.end(wavTone(2));
      } else if (req.url === '/long.wav') {
        res.writeHead(200, { 'content-type': 'audio/wav' });
        res.end(wavTone(5));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    fake = await startFakeOpenAi();
    fake.transcribe((file) => `Notes from the ${file.fileName} recording. Buy oat milk tomorrow.`);
    app = await getTestApp({
      env: {
        // The test's web server stands in for a public one; nothing else private is fetched.
        CAPTURE_FETCH_ALLOW_ADDRESSES: '127.0.0.1',
        FREE_RECORDING_TIME_LIMIT: '4',
        OPENAI_BASE_URL: fake.url,
        OPENAI_TRANSCRIPTION_MODEL: 'whisper-test',
        ...s3Env,
      },
    });
    token = await app.tokenFor(`capture-${randomUUID()}@example.com`);
    other = await app.tokenFor(`other-${randomUUID()}@example.com`);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await fake?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('reads the text of a photo with local OCR and keeps the photo as the note image', async () => {
    const image = await textImage(['Quarterly planning meeting', 'Budget review on Friday']);
    const response = await upload(token, '/api/note/create/byimage', 'image', image, 'board.png');
    expect(response.status).toBe(201);
    const created = await json<Note>(response);
    expect(created.capture).toMatchObject({ kind: 'image', status: 'processing', attempt: 1 });
    expect(created.images).toHaveLength(1);
    const done = await settled(token, created.id);
    expect(done.capture).toMatchObject({ status: 'ready', method: 'ocr' });
    expect(done.note).toMatch(/Quarterly planning meeting/i);
    expect(done.note).toMatch(/Budget review/i);
    expect(done.title).not.toBe('board');
  });

  it('refuses a file that is not an image, taking nothing from the month', async () => {
    const before = (await usage(token)).notes.used;
    const response = await upload(
      token,
      '/api/note/create/byimage',
      'image',
      Buffer.from('%PDF-1.4 not an image'),
      'photo.jpg',
    );
    expect(response.status).toBe(422);
    expect((await json<ErrorBody>(response)).error).toMatchObject({
      code: 'NOT_AN_IMAGE',
      message: 'The file given is not an image',
    });
    expect((await usage(token)).notes.used).toBe(before);
  });

  it('makes a note of a web page: the article as Markdown, its source, a summary and suggested tags', async () => {
    const created = await json<Note>(
      app.api(token, 'POST', '/api/note/create/bylink', { url: `${siteUrl}/article` }),
    );
    expect(created.capture).toMatchObject({
      kind: 'link',
      origin: 'url',
      url: `${siteUrl}/article`,
    });
    const done = await settled(token, created.id);
    expect(done.capture).toMatchObject({
      status: 'ready',
      method: 'article',
      siteName: 'Example News',
    });
    expect(done.title).toBe('Tidal energy comes of age');
    expect(done.note).toContain(`[Example News](${siteUrl}/article)`);
    expect(done.note).toContain('## Why tides');
    expect(done.note).toContain('- Predictable output');
    expect(done.note).toContain(`(${siteUrl}/reports/tidal.pdf)`);
    expect(done.note).not.toMatch(/Cookie settings|Subscribe now/);
    // Tags are the user's: the reading suggests a few, and the note has none it was not given.
    expect(done.tags).toEqual([]);
    const suggested = done.capture?.suggestedTags ?? [];
    expect(suggested.length).toBeGreaterThan(0);
    expect(suggested.length).toBeLessThanOrEqual(3);

    const dismiss = (bearer: string) =>
      app.api(bearer, 'POST', '/api/note/capture/tags/dismiss', { noteId: done.id });
    expect((await dismiss(other)).status).toBe(404);
    const left = await json<Note>(dismiss(token));
    expect(left.capture?.suggestedTags).toBeUndefined();
    expect(left.tags).toEqual([]);
    // Leaving suggestions is not an edit: the note keeps its place among the recent ones.
    expect(left.updatedAt).toBe(done.updatedAt);
  });

  it('refuses a private address at once, making no note; behind a redirect, on the note', async () => {
    const before = (await usage(token)).notes.used;
    const notes = async () => (await json<NotePage>(app.api(token, 'GET', '/api/notes'))).total;
    const listed = await notes();
    const literals: [string, Record<string, string>][] = [
      ['/api/note/create/bylink', { url: 'http://169.254.169.254/latest/meta-data/' }],
      ['/api/note/create/bylink', { url: 'http://10.1.2.3/' }],
      ['/api/note/create/bylink', { url: 'http://0x0a.1.2.3/' }],
      ['/api/note/create/bylink', { url: 'http://[::ffff:192.168.0.1]/' }],
      ['/api/note/create/bylink', { url: 'http://[fd00::1]:8080/' }],
      ['/api/note/create/byaudioUrl', { audioUrl: 'http://10.0.0.1/memo.mp3' }],
    ];
    for (const [path, body] of literals) {
      const refused = await app.api(token, 'POST', path, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect((await json<ErrorBody>(refused)).error.code).toBe('URL_REFUSED');
    }
    expect(await notes()).toBe(listed);
    expect((await usage(token)).notes.used).toBe(before);

    // A name is only known to be private once resolved: the fetch refuses it, on the note.
    const url = `${siteUrl}/redirect`;
    const created = await json<Note>(app.api(token, 'POST', '/api/note/create/bylink', { url }));
    const done = await settled(token, created.id);
    expect(done.capture, url).toMatchObject({ status: 'failed', error: { code: 'URL_REFUSED' } });
    for (const url of ['file:///etc/passwd', 'http://[::1]/', 'gopher://example.com/']) {
      const bad = await app.api(token, 'POST', '/api/note/create/bylink', { url });
      expect(bad.status, url).toBe(400);
    }
  });

  it('reads a PDF page by page and keeps it downloadable by its owner only', async () => {
    const pdf = pdfWithText([
      'Field guide to garden birds\nThe robin sings all winter.',
      'The wren is small but loud, and it nests low in the hedges and in\nthe ivy all year round.',
    ]);
    const response = await upload(token, '/api/note/create/bypdf', 'pdf', pdf, 'birds.pdf');
    expect(response.status).toBe(201);
    const created = await json<Note>(response);
    const done = await settled(token, created.id);
    expect(done.capture).toMatchObject({ status: 'ready', method: 'pdf', pages: 2 });
    expect(done.note).toContain('The robin sings all winter.');
    expect(done.note).toContain('The wren is small but loud');
    // The summary reads a sentence the page broke over two lines as one.
    const summary = done.note.split('## Text')[0]!;
    expect(summary).toContain('in the ivy all year round.');
    expect(summary).not.toMatch(/hedges and in\./);
    const file = done.capture?.file;
    expect(file).toMatchObject({ name: 'birds.pdf', type: 'application/pdf', bytes: pdf.length });
    const download = await app.api(token, 'GET', file!.url);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);
    expect((await app.api(other, 'GET', file!.url)).status).toBe(404);
    expect(
      (await app.api(other, 'POST', '/api/note/capture/retry', { noteId: done.id })).status,
    ).toBe(404);
  });

  /** Asks for an upload address, as the browser does for a large file. */
  const uploadAddress = async (as: string, kind: 'audio' | 'pdf', name: string, bytes: number) => {
    const response = await app.api(as, 'POST', '/api/config/s3credentials', { kind, name, bytes });
    expect(response.status).toBe(201);
    return json<UploadTarget>(response);
  };
  /** Sends a file to an upload address as a browser form, without a token. */
  const sendTo = (target: UploadTarget, data: Buffer, name: string) => {
    const form = new FormData();
    for (const [field, value] of Object.entries(target.fields)) form.append(field, value);
    form.append('file', new Blob([data]), name);
    const url = target.url.startsWith('/') ? `${app.url}${target.url}` : target.url;
    return fetch(url, { method: 'POST', body: form });
  };
  const byUpload = (as: string, uploadId: string) =>
    app.api(as, 'POST', '/api/note/create/byupload', { uploadId });

  it('takes a PDF through an upload address, then makes the note; the upload is the caller’s only', async () => {
    const pdf = pdfWithText(['Annual report\nRevenue grew by a third in the northern region.']);
    const target = await uploadAddress(token, 'pdf', 'report.pdf', pdf.length);
    expect(target.maxBytes).toBe(pdf.length);
    // No storage keys are handed out: a policy signed for this one key, or a capability here.
    if (s3) {
      expect(target.url.startsWith(s3)).toBe(true);
      expect(Object.keys(target.fields).sort()).toEqual([
        'bucket',
        'key',
        'policy',
        'x-amz-algorithm',
        'x-amz-credential',
        'x-amz-date',
        'x-amz-signature',
      ]);
      expect(target.fields.key).toMatch(/^[0-9a-f-]{36}\/uploads\/[0-9a-f-]{36}$/);
    } else {
      expect(target.url).toMatch(/^\/api\/uploads\/[A-Za-z0-9_-]{43}$/);
      expect(target.fields).toEqual({});
    }

    const early = await byUpload(token, target.uploadId);
    expect(early.status).toBe(409);
    expect((await json<ErrorBody>(early)).error.message).toBe('The file has not arrived yet');

    expect((await sendTo(target, pdf, 'report.pdf')).status).toBe(204);
    expect((await byUpload(other, target.uploadId)).status).toBe(404);
    const response = await byUpload(token, target.uploadId);
    expect(response.status).toBe(201);
    const done = await settled(token, (await json<Note>(response)).id);
    expect(done.capture).toMatchObject({ status: 'ready', method: 'pdf', origin: 'upload' });
    expect(done.capture?.file).toMatchObject({ name: 'report.pdf', bytes: pdf.length });
    expect(done.note).toContain('Revenue grew by a third in the northern region.');
    // An upload makes one note.
    expect((await byUpload(token, target.uploadId)).status).toBe(404);
  });

  it('refuses an upload larger than announced or than its kind, and checks what arrived', async () => {
    const big = await app.api(token, 'POST', '/api/config/s3credentials', {
      kind: 'pdf',
      name: 'huge.pdf',
      bytes: 21 * 1024 * 1024,
    });
    expect(big.status).toBe(400);
    expect((await json<ErrorBody>(big)).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringContaining('A PDF is at most 20 MB'),
    });

    const small = await uploadAddress(token, 'audio', 'memo.wav', 10);
    const over = await sendTo(small, Buffer.alloc(11), 'memo.wav');
    // MinIO answers EntityTooLarge (400), this server 413; neither keeps the file.
    expect([400, 413]).toContain(over.status);
    expect((await byUpload(token, small.uploadId)).status).toBe(409);

    const before = (await usage(token)).notes.used;
    const text = Buffer.from('plain words, not audio');
    const notAudio = await uploadAddress(token, 'audio', 'memo.wav', text.length);
    expect((await sendTo(notAudio, text, 'memo.wav')).status).toBe(204);
    const refused = await byUpload(token, notAudio.uploadId);
    expect(refused.status).toBe(422);
    expect((await json<ErrorBody>(refused)).error.code).toBe('NOT_AUDIO');
    expect((await usage(token)).notes.used).toBe(before);
  });

  it('transcribes audio sent through an upload address', async () => {
    const audio = wavTone(2);
    const target = await uploadAddress(token, 'audio', 'standup.wav', audio.length);
    expect((await sendTo(target, audio, 'standup.wav')).status).toBe(204);
    const response = await byUpload(token, target.uploadId);
    expect(response.status).toBe(201);
    const created = await json<Note>(response);
    expect(created.capture).toMatchObject({ kind: 'audio', origin: 'upload' });
    const done = await settled(token, created.id);
    expect(done.capture).toMatchObject({ status: 'ready', method: 'transcription' });
    expect(done.note).toContain('Buy oat milk tomorrow.');
  });

  it('refuses a file that is not a PDF', async () => {
    const response = await upload(
      token,
      '/api/note/create/bypdf',
      'pdf',
      Buffer.from('hello'),
      'a.pdf',
    );
    expect(response.status).toBe(422);
    expect((await json<ErrorBody>(response)).error.code).toBe('NOT_A_PDF');
  });

  it('transcribes a recording with the transcription model, keeping the audio playable', async () => {
    const audio = wavTone(2);
    const response = await upload(token, '/api/note/create/byaudio', 'audio', audio, 'blob');
    expect(response.status).toBe(201);
    const created = await json<Note>(response);
    expect(created.capture).toMatchObject({ kind: 'audio', origin: 'recording' });
    expect(created.capture?.file?.durationSeconds).toBeCloseTo(2, 1);
    const done = await settled(token, created.id);
    expect(done.capture).toMatchObject({
      status: 'ready',
      method: 'transcription',
      model: 'whisper-test',
    });
    expect(done.note).toContain('Buy oat milk tomorrow.');
    const sent = fake.requests.find((request) => request.path === '/v1/audio/transcriptions');
    expect(sent).toBeDefined();
    // Seeking: one range of the kept file.
    const part = await fetch(`${app.url}${done.capture!.file!.url}`, {
      headers: { authorization: `Bearer ${token}`, range: 'bytes=0-43' },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-43/${audio.length}`);
    expect((await part.arrayBuffer()).byteLength).toBe(44);
  });

  it('refuses a recording longer than the plan takes, on the server too', async () => {
    const before = (await usage(token)).notes.used;
    const response = await upload(
      token,
      '/api/note/create/byaudiofile',
      'audio',
      wavTone(6),
      'long.wav',
    );
    expect(response.status).toBe(422);
    expect((await json<ErrorBody>(response)).error).toMatchObject({
      code: 'RECORDING_TOO_LONG',
      details: { limit: 4 },
    });
    const huge = await upload(
      token,
      '/api/note/create/byaudiofile',
      'audio',
      Buffer.alloc(25 * 1024 * 1024 + 1),
      'huge.wav',
    );
    expect(huge.status).toBe(413);
    expect((await json<ErrorBody>(huge)).error.code).toBe('PAYLOAD_TOO_LARGE');
    const notAudio = await upload(
      token,
      '/api/note/create/byaudiofile',
      'audio',
      await textImage(['x']),
      'x.mp3',
    );
    expect((await json<ErrorBody>(notAudio)).error.code).toBe('NOT_AUDIO');
    expect((await usage(token)).notes.used).toBe(before);
  });

  it('fetches audio from a URL, checks it as an upload and transcribes it', async () => {
    const created = await json<Note>(
      app.api(token, 'POST', '/api/note/create/byaudioUrl', { audioUrl: `${siteUrl}/memo.wav` }),
    );
    expect(created.title).toBe('memo');
    const done = await settled(token, created.id);
    expect(done.capture).toMatchObject({
      status: 'ready',
      file: { name: 'memo.wav', type: 'audio/wav' },
    });
    expect(done.note).toContain('Notes from the memo.wav recording.');
    const long = await json<Note>(
      app.api(token, 'POST', '/api/note/create/byaudioUrl', { audioUrl: `${siteUrl}/long.wav` }),
    );
    expect((await settled(token, long.id)).capture).toMatchObject({
      status: 'failed',
      error: { code: 'RECORDING_TOO_LONG' },
    });
  });

  it('fails a capture whose page is gone, giving its unit back, and reads it again on retry', async () => {
    const used = async () => (await usage(token)).notes.used;
    const before = await used();
    const created = await json<Note>(
      app.api(token, 'POST', '/api/note/create/bylink', { url: `${siteUrl}/missing` }),
    );
    const failed = await settled(token, created.id);
    expect(failed.capture).toMatchObject({ status: 'failed', error: { code: 'FETCH_FAILED' } });
    // What read nothing costs nothing; a retry takes the unit again, and gives it back again.
    await expect.poll(used).toBe(before);
    const again = await json<Note>(
      app.api(token, 'POST', '/api/note/capture/retry', { noteId: created.id }),
    );
    expect(again.capture).toMatchObject({ status: 'processing', attempt: 2 });
    expect(await used()).toBe(before + 1);
    expect((await settled(token, created.id)).capture?.status).toBe('failed');
    await expect.poll(used).toBe(before);
    const ready = await settled(
      token,
      (
        await json<Note>(
          app.api(token, 'POST', '/api/note/create/bylink', { url: `${siteUrl}/article` }),
        )
      ).id,
    );
    const conflict = await app.api(token, 'POST', '/api/note/capture/retry', { noteId: ready.id });
    expect(conflict.status).toBe(409);
  });
});

describe(`captures at the monthly limit and without a transcription model (${infraLabel})`, () => {
  let app: TestApp;
  let token: string;

  beforeAll(async () => {
    app = await getTestApp({ env: { FREE_NOTES_PER_MONTH: '1' } });
    token = await app.tokenFor(`limit-${randomUUID()}@example.com`);
  }, 120_000);
  afterAll(async () => app?.stop());

  it('keeps the audio and waits for a model, then refuses captures past the month', async () => {
    const form = new FormData();
    form.append('audio', new Blob([wavTone(1)]), 'memo.wav');
    const response = await fetch(`${app.url}/api/note/create/byaudiofile`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(response.status).toBe(201);
    const created = await json<Note>(response);
    const deadline = Date.now() + 30_000;
    let current = created;
    while (current.capture?.status === 'processing' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      current = await json<Note>(app.api(token, 'GET', `/api/notes/${created.id}`));
    }
    expect(current.capture).toMatchObject({
      status: 'waiting',
      error: { code: 'AI_MODEL_REQUIRED' },
      file: { name: 'memo.wav' },
    });
    expect((await app.api(token, 'GET', current.capture!.file!.url)).status).toBe(200);

    const refused = await app.api(token, 'POST', '/api/note/create/bylink', {
      url: 'https://example.com/',
    });
    expect(refused.status).toBe(403);
    expect((await json<ErrorBody>(refused)).error.code).toBe('NOTES_LEFT_NOT_ENOUGH');
    const list = await json<{ total: number }>(app.api(token, 'GET', '/api/notes'));
    expect(list.total).toBe(1);
  });
});
