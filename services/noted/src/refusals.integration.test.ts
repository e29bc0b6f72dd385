import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, Note, NotePage } from '@noted/api';
import { getTestApp, infraLabel, json, type TestApp } from './test/app.js';

/**
 * Input no service can store or read must be refused at the edge with 400 and a code, never
 * reach a store and answer 500: the hardening classes of issue 14, through the gateway.
 */
describe(`input refused at the edge (${infraLabel})`, () => {
  let app: TestApp;
  let token: string;
  let note: Note;

  beforeAll(async () => {
    app = await getTestApp();
    token = await app.tokenFor(`refusals-${randomUUID()}@example.com`);
    note = await json<Note>(
      app.api(token, 'POST', '/api/note/create/direct', {
        title: 'Kept',
        note: 'A note that stays as it is',
        tags: ['kept'],
      }),
    );
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  const expectRefused = async (response: Response, label: string) => {
    expect(response.status, label).toBe(400);
    const body = (await response.json()) as ErrorBody;
    expect(body.error.code, label).toBe('VALIDATION_FAILED');
    expect(body.error.message, label).toContain('NUL character (U+0000)');
  };

  it('refuses a NUL character in any text of every service, and stores nothing', async () => {
    const nul = 'a\u0000b';
    const requests: [string, string, unknown?][] = [
      ['POST', '/api/note/create/direct', { title: nul, note: 'x', tags: [] }],
      ['POST', '/api/note/create/direct', { title: 'x', note: nul, tags: [] }],
      ['POST', '/api/note/create/direct', { title: 'x', note: 'x', tags: [nul] }],
      ['PUT', `/api/notes/${note.id}`, { title: nul }],
      ['PUT', `/api/notes/${note.id}`, { tags: ['ok', nul] }],
      ['PUT', '/api/tags/kept', { name: nul }],
      ['PUT', '/api/tags/ke%00pt', { name: 'other' }],
      ['DELETE', '/api/tags/%00'],
      ['GET', '/api/notes?tag=%00'],
      ['GET', '/api/notes?search=milk%00'],
      ['GET', '/ai/note/assist/search?query=milk%00'],
      ['PUT', '/ai/settings', { excludedTags: [nul] }],
      ['POST', '/api/knowledge/chat/answer', { question: `What about ${nul}?` }],
      ['POST', '/ai/writer/assist', { action: 'rewrite', text: nul }],
      ['GET', `/user-by-sub/${encodeURIComponent(nul)}`],
    ];
    for (const [method, path, body] of requests) {
      await expectRefused(await app.api(token, method, path, body), `${method} ${path}`);
    }

    const form = new FormData();
    form.append('title', 'From a form');
    form.append('note', new Blob([nul], { type: 'text/plain' }), 'note.txt');
    const multipart = await fetch(`${app.url}/api/notes/${note.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    await expectRefused(multipart, 'multipart PUT /api/notes/{id}');

    const kept = await json<Note>(app.api(token, 'GET', `/api/notes/${note.id}`));
    expect(kept).toMatchObject({
      title: 'Kept',
      note: 'A note that stays as it is',
      tags: ['kept'],
    });
    const list = await json<NotePage>(app.api(token, 'GET', '/api/notes'));
    expect(list.total).toBe(1);
  });

  it('reads any time zone offset the document allows, as the instant it names', async () => {
    const range = (from: string, to: string) =>
      app.api(
        token,
        'GET',
        `/api/notes/timerange?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
      );
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    // Offsets beyond what Postgres takes (it stops at ±15:59) name instants all the same.
    const wide = await range('2000-01-01T00:00:00-16:00', '2999-01-01T00:00:00+23:59');
    expect(wide.status).toBe(200);
    expect((await json<{ items: Note[] }>(wide)).items.map((item) => item.id)).toContain(note.id);
    const around = await range(
      iso(now - 60 * 60_000).replace('Z', '+00:00'),
      `${iso(now + 60 * 60_000).slice(0, 19)}-00:00`,
    );
    expect(around.status).toBe(200);

    for (const [from, to] of [
      ['2026-01-01T00:00:00-19:59', '2026-01-02T00:00:00+19:59'],
      ['2026-01-01T00:00:00+23:59', '2026-01-03T00:00:00-23:59'],
    ]) {
      const listed = await app.api(
        token,
        'GET',
        `/api/notes?from=${encodeURIComponent(from ?? '')}&to=${encodeURIComponent(to ?? '')}`,
      );
      expect(listed.status, `${from} – ${to}`).toBe(200);
    }

    const invalid = await range('2026-02-30T00:00:00Z', '2026-03-01T00:00:00Z');
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as ErrorBody).error.code).toBe('VALIDATION_FAILED');
  });

  it('answers a method a path does not have with 405 and Allow, from the contracts', async () => {
    const allowed: [string, string, string][] = [
      ['POST', `/api/notes/${note.id}`, 'GET, HEAD, PUT, DELETE'],
      ['PATCH', '/api/notes', 'GET, HEAD'],
      ['DELETE', '/api/note/create/direct', 'POST'],
      ['PUT', '/ai/note/assist/search', 'GET, HEAD'],
      ['POST', '/user', 'GET, HEAD, DELETE'],
      ['DELETE', `/public/note/${'p'.repeat(22)}`, 'GET, HEAD'],
    ];
    for (const [method, path, allow] of allowed) {
      const response = await app.api(token, method, path);
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.get('allow'), `${method} ${path}`).toBe(allow);
      expect(((await response.json()) as ErrorBody).error.code).toBe('METHOD_NOT_ALLOWED');
    }
    const options = await fetch(`${app.url}/api/notes/${note.id}/links`, {
      method: 'OPTIONS',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD');
    // A fixed path is never taken by a parameter at its place.
    const graph = await app.api(token, 'GET', '/api/notes/graph');
    expect(graph.status).toBe(200);
    const unknown = await app.api(token, 'GET', '/api/nothing-here');
    expect(unknown.status).toBe(404);
  });

  it('refuses a body of a type the route does not take with 415, and stores nothing', async () => {
    const typed = (path: string, method: string, type: string, body: string) =>
      fetch(`${app.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': type },
        body,
      });
    for (const response of [
      await typed('/api/note/create/direct', 'POST', 'text/plain', 'title=x'),
      await typed('/api/note/create/direct', 'POST', 'application/x-www-form-urlencoded', 'a=b'),
      await typed(`/api/notes/${note.id}`, 'PUT', 'text/plain', 'changed'),
      await typed(`/api/notes/${note.id}/images`, 'POST', 'application/json', '{}'),
    ]) {
      expect(response.status, response.url).toBe(415);
      expect(((await response.json()) as ErrorBody).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    const list = await json<NotePage>(app.api(token, 'GET', '/api/notes'));
    expect(list.total).toBe(1);
  });

  it('takes a note body up to its limit in characters, in any script and however escaped', async () => {
    const cjk = '記'.repeat(999_999);
    const escaped = JSON.stringify({ title: 'Escaped', note: cjk }).replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    expect(Buffer.byteLength(escaped)).toBeGreaterThan(5_999_000);
    for (const body of [JSON.stringify({ title: 'Plain', note: cjk }), escaped]) {
      const created = await fetch(`${app.url}/api/note/create/direct`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });
      expect(created.status).toBe(201);
      const saved = (await created.json()) as Note;
      expect(saved.note.length).toBe(999_999);
      const gone = await app.api(token, 'DELETE', `/api/notes/${saved.id}`);
      expect(gone.status).toBe(204);
    }
    const over = await app.api(token, 'POST', '/api/note/create/direct', {
      title: 'Over',
      note: '記'.repeat(1_000_001),
    });
    expect(over.status).toBe(400);
    expect(((await over.json()) as ErrorBody).error.code).toBe('VALIDATION_FAILED');
  }, 120_000);
});
