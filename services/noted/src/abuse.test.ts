import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, ImportResult, Note, NotePage } from '@noted/api';
import {
  costlyMarkdown,
  hugePng,
  inflatingPdf,
  nestedJson,
  pdfWithText,
  prototypeFrontMatter,
  scriptLinks,
  startStripeServer,
  truncatedZip,
  yamlAliases,
  zipBombByCount,
  zipBombByRatio,
  zipBombBySize,
  type StripeServer,
} from '@noted/testing';
import { freePort, getTestApp, infraLabel, json, type TestApp } from './test/app.js';

const WEBHOOK_SECRET = 'whsec_abuse';

/**
 * What a hostile signed-in user sends (issue 30), against the whole app in one process: each
 * input gets its stable code, the app stays ready for everyone right after, and nothing is half
 * written (the notes count is unchanged where the input was refused).
 */
describe(`hostile input never takes the app down (${infraLabel})`, () => {
  let app: TestApp;
  let stripe: StripeServer;
  let site: Server;
  let siteUrl: string;
  let token: string;

  const ready = async () => (await fetch(`${app.url}/readyz`)).status;
  const noteCount = async () =>
    (await json<NotePage>(app.api(token, 'GET', '/api/notes?limit=1'))).total;
  const send = (route: string, field: string, data: Buffer | string, name: string) => {
    const form = new FormData();
    form.append(field, new Blob([typeof data === 'string' ? data : new Uint8Array(data)]), name);
    return fetch(`${app.url}${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
  };
  /** An import's answer: its refusal, or the result its event stream ends with. */
  const importFile = async (data: Buffer | string, name: string) => {
    const response = await send('/export/import', 'file', data, name);
    if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
      return { status: response.status, error: (await json<ErrorBody>(response)).error };
    }
    const events = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { type: string } & ImportResult);
    return { status: response.status, result: events.find((event) => event.type === 'done') };
  };
  const refusedUnchanged = async (
    answer: Promise<{ status: number; error?: ErrorBody['error'] }>,
    expected: { status: number; code: string; reason?: string },
  ) => {
    const before = await noteCount();
    const { status, error } = await answer;
    expect({ status, code: error?.code }).toEqual({ status: expected.status, code: expected.code });
    if (expected.reason) expect(error?.details).toMatchObject({ reason: expected.reason });
    expect(await ready()).toBe(200);
    expect(await noteCount()).toBe(before);
  };
  const settled = async (id: string) => {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const current = await json<Note>(app.api(token, 'GET', `/api/notes/${id}`));
      if (current.capture?.status !== 'processing' || Date.now() > deadline) return current;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  beforeAll(async () => {
    // A page that sends its headers, then a byte a second for minutes.
    site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><body><p>');
      const timer = setInterval(() => res.write('x'), 1000);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    const port = await freePort();
    stripe = await startStripeServer({
      prices: [{ id: 'price_std_m', unitAmount: 500, interval: 'month' }],
      webhookSecret: WEBHOOK_SECRET,
      webhookUrl: `http://127.0.0.1:${port}/api/stripe/webhook`,
    });
    app = await getTestApp({
      port,
      env: {
        CAPTURE_FETCH_ALLOW_ADDRESSES: '127.0.0.1',
        // A file costly to read is cut off sooner than in production: the suite waits less.
        EXPORT_IMPORT_READ_SECONDS: '10',
        FREE_NOTES_PER_MONTH: '1000',
        FREE_EXPORT_PDF: 'true',
        STRIPE_SECRET_KEY: 'sk_test_abuse',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_abuse',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: stripe.url,
        STRIPE_PRICE_STANDARD_MONTHLY: 'price_std_m',
      },
    });
    token = await app.tokenFor(`hostile-${randomUUID()}@example.com`);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await stripe?.close();
    site?.closeAllConnections();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('refuses zip bombs by size, ratio and count, and a truncated zip, writing nothing', async () => {
    const bySize = await importFile(await zipBombBySize(), 'bomb.zip');
    // Each file is larger than a note may be: passed over unread, so nothing is left to import.
    expect(bySize.status).toBe(422);
    expect(bySize.error).toMatchObject({
      code: 'IMPORT_EMPTY',
      details: {
        skipped: expect.arrayContaining([{ path: 'bomb-0.md', reason: 'NOTE_TOO_LONG' }]),
      },
    });
    await refusedUnchanged(importFile(await zipBombByRatio(), 'dense.zip'), {
      status: 413,
      code: 'IMPORT_TOO_LARGE',
      reason: 'ZIP_INFLATE_RATIO',
    });
    await refusedUnchanged(importFile(await zipBombByCount(), 'many.zip'), {
      status: 413,
      code: 'IMPORT_TOO_LARGE',
      reason: 'ZIP_TOO_MANY_ENTRIES',
    });
    for (const keep of [0.3, 0.6, 0.95]) {
      await refusedUnchanged(importFile(await truncatedZip(keep), 'cut.zip'), {
        status: 422,
        code: 'ZIP_INVALID',
      });
    }
    expect(await ready()).toBe(200);
  }, 180_000);

  it('reads no Markdown nested too deeply, bounds the rest, and keeps answering meanwhile', async () => {
    for (const [shape, make] of Object.entries(costlyMarkdown)) {
      const started = Date.now();
      const importing = importFile(make(), `${shape}.md`);
      // While the file is read, the app answers everyone else at once.
      while (Date.now() - started < 1_000) {
        expect(await ready(), shape).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const answer = await importing;
      if (answer.status === 200) {
        expect(answer.result, shape).toMatchObject({ created: 1, failed: [] });
      } else {
        expect(answer, shape).toMatchObject({
          status: 422,
          error: { code: expect.stringMatching(/^(IMPORT_EMPTY|IMPORT_TOO_COMPLEX)$/) },
        });
      }
      expect(await ready(), shape).toBe(200);
    }
    const nested = await importFile(costlyMarkdown.nestedLists!(), 'lists.md');
    expect(nested.error?.details).toEqual({
      skipped: [{ path: 'lists.md', reason: 'TOO_COMPLEX' }],
    });
  }, 180_000);

  it('reads YAML aliases as text and prototype keys as keys, polluting nothing', async () => {
    const laughs = await importFile(yamlAliases(), 'laughs.md');
    expect(laughs.result).toMatchObject({ created: 1 });
    const proto = await importFile(prototypeFrontMatter(), 'proto.md');
    expect(proto.result).toMatchObject({ created: 1 });
    const titles = (
      await json<NotePage>(app.api(token, 'GET', '/api/notes?search=Prototype'))
    ).items.map((note) => note.title);
    expect(titles).toContain('Prototype');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await ready()).toBe(200);
  }, 180_000);

  it('fails the capture of a PDF inflating to 1 GB alone, and reads 300 pages of 400', async () => {
    const bomb = await inflatingPdf(1_000);
    expect(bomb.length).toBeLessThan(3 * 1024 * 1024);
    const created = await json<Note>(send('/api/note/create/bypdf', 'pdf', bomb, 'bomb.pdf'));
    const failed = await settled(created.id);
    expect(failed.capture).toMatchObject({
      status: 'failed',
      error: { code: 'VALIDATION_FAILED', message: expect.stringContaining('too complex') },
    });
    expect(await ready()).toBe(200);

    const pages = Array.from({ length: 400 }, (_, i) => `Page ${i + 1} of the long report`);
    const long = await json<Note>(
      send('/api/note/create/bypdf', 'pdf', pdfWithText(pages), 'long.pdf'),
    );
    const read = await settled(long.id);
    // The document's 400 pages are counted; the first 300 are read.
    expect(read.capture).toMatchObject({ status: 'ready', method: 'pdf', pages: 400 });
    expect(read.note).toContain('Page 300 of the long report');
    expect(read.note).not.toContain('Page 301 of');
  }, 180_000);

  it('refuses a 400-megapixel image from its header, storing nothing', async () => {
    const note = await json<Note>(
      app.api(token, 'POST', '/api/note/create/direct', { title: 'Gallery', note: 'x' }),
    );
    const response = await send(`/api/notes/${note.id}/images`, 'image', await hugePng(), 'w.png');
    expect(response.status).toBe(422);
    expect((await json<ErrorBody>(response)).error).toMatchObject({
      code: 'UNPROCESSABLE',
      message: expect.stringContaining('400,000,000 pixels'),
    });
    expect((await json<Note>(app.api(token, 'GET', `/api/notes/${note.id}`))).images).toEqual([]);
    expect(await ready()).toBe(200);
  }, 180_000);

  it('answers 40 image uploads at once without leaving any waiting: stored, or BUSY', async () => {
    const note = await json<Note>(
      app.api(token, 'POST', '/api/note/create/direct', { title: 'Burst', note: 'x' }),
    );
    // Noise compresses badly: about 3 MB of JPEG.
    const photo = await sharp(randomBytes(1600 * 1200 * 3), {
      raw: { width: 1600, height: 1200, channels: 3 },
    })
      .jpeg({ quality: 95 })
      .toBuffer();
    const answers = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const response = await send(`/api/notes/${note.id}/images`, 'image', photo, 'p.jpg');
        const body = await response.json();
        return { status: response.status, retryAfter: response.headers.get('retry-after'), body };
      }),
    );
    const stored = answers.filter((answer) => answer.status === 201);
    const busy = answers.filter((answer) => answer.status === 503);
    expect(stored.length + busy.length).toBe(40);
    expect(stored.length).toBeGreaterThan(0);
    for (const answer of busy) {
      expect(answer.body).toMatchObject({ error: { code: 'BUSY' } });
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
    const kept = await json<Note>(app.api(token, 'GET', `/api/notes/${note.id}`));
    expect(kept.images).toHaveLength(stored.length);
    expect(await ready()).toBe(200);
  }, 180_000);

  it('fails the capture of a page that trickles with FETCH_TIMEOUT', async () => {
    const created = await json<Note>(
      app.api(token, 'POST', '/api/note/create/bylink', { url: `${siteUrl}/slow` }),
    );
    const failed = await settled(created.id);
    expect(failed.capture).toMatchObject({ status: 'failed', error: { code: 'FETCH_TIMEOUT' } });
    expect(await ready()).toBe(200);
  }, 180_000);

  it('answers deeply nested JSON with 400, in a body and in a form field', async () => {
    const note = await json<Note>(
      app.api(token, 'POST', '/api/note/create/direct', { title: 'Deep', note: 'x' }),
    );
    const body = await fetch(`${app.url}/api/note/create/direct`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: `{"title":"x","note":"y","tags":${nestedJson()}}`,
    });
    expect(body.status).toBe(400);
    const form = new FormData();
    form.append('images', nestedJson(7_500));
    const field = await fetch(`${app.url}/api/notes/${note.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(field.status).toBe(400);
    expect((await json<Note>(app.api(token, 'GET', `/api/notes/${note.id}`))).title).toBe('Deep');
    expect(await ready()).toBe(200);
  });

  it('acknowledges signed Stripe events about what Stripe lacks, and refuses future stamps', async () => {
    const webhook = (payload: string, signature: string) =>
      fetch(`${app.url}/api/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
    const event = (type: string, object: Record<string, unknown>) =>
      JSON.stringify({
        id: `evt_${randomUUID().replace(/-/g, '')}`,
        object: 'event',
        type,
        created: Math.floor(Date.now() / 1000),
        data: { object },
      });
    const gone = event('customer.subscription.updated', {
      id: 'sub_gone',
      object: 'subscription',
      customer: 'cus_gone',
      metadata: {},
    });
    expect((await webhook(gone, stripe.sign(gone))).status).toBe(200);
    const checkout = event('checkout.session.completed', {
      id: 'cs_gone',
      object: 'checkout.session',
      mode: 'subscription',
      subscription: 'sub_gone',
      customer: 'cus_gone',
      client_reference_id: randomUUID(),
    });
    expect((await webhook(checkout, stripe.sign(checkout))).status).toBe(200);
    const ahead = stripe.sign(gone, Math.floor(Date.now() / 1000) + 3_600);
    expect((await webhook(gone, ahead)).status).toBe(400);
    const portal = await app.api(token, 'POST', '/api/stripe/portal-sessions', {});
    expect(portal.status).toBeLessThan(500);
    expect(await ready()).toBe(200);
  });

  it('exports a PDF whose script links are text, not live links', async () => {
    const note = await json<Note>(
      app.api(token, 'POST', '/api/note/create/direct', { title: 'Links', note: scriptLinks() }),
    );
    const response = await app.api(token, 'GET', `/export/note?id=${note.id}`);
    expect(response.status).toBe(200);
    const pdf = Buffer.from(await response.arrayBuffer()).toString('latin1');
    expect(pdf).toContain('/URI (https://example.com/page)');
    expect(pdf).not.toMatch(/javascript:|vbscript:|data:text/i);
  });
});
