import { randomUUID } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerMetadata, signIdentity } from '@noted/kit';
import { createGrpcClient } from '@noted/grpc';
import { notesV1 } from '@noted/proto';
import type { BusMessage } from '@noted/events';
import type { ErrorBody, Note, NotePage, User } from '@noted/api';
import { getTestApp, json, type TestApp, infraLabel } from './test/app.js';

describe(`the whole app through the gateway (${infraLabel})`, () => {
  let app: TestApp;
  let ada: string;
  let bob: string;
  const events: BusMessage[] = [];

  beforeAll(async () => {
    app = await getTestApp();
    const { bus } = app.noted;
    if (!bus) throw new Error('no bus');
    await bus.subscribe({
      durable: `test-${randomUUID()}`,
      subject: 'noted.notes.v1.note.>',
      handler: async (message) => {
        events.push(message);
      },
    });
    ada = await app.tokenFor(`ada-${randomUUID()}@example.com`);
    bob = await app.tokenFor(`bob-${randomUUID()}@example.com`);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  it('is ready and serves metrics and the OpenAPI document', async () => {
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    const metrics = await (await fetch(app.noted.metricsUrl ?? '')).text();
    expect(metrics).toContain('noted_http_requests_total');
    expect(metrics).toContain('service="gateway"');
    // Not on the public port: there /metrics is a page path like any other.
    expect(await (await fetch(`${app.url}/metrics`)).text()).not.toContain('# HELP');
    const openapi = await json<{ openapi: string; paths: Record<string, unknown> }>(
      fetch(`${app.url}/api/openapi.json`),
    );
    expect(openapi.openapi).toBe('3.1.0');
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining(['/api/note/create/direct', '/api/notes', '/api/notes/{id}']),
    );
  });

  it('creates, lists, reads, updates and deletes a note', async () => {
    const created = await app.api(ada, 'POST', '/api/note/create/direct', {
      title: 'Groceries',
      note: '- [ ] milk\n- [ ] bread',
      tags: ['home', 'home', 'errands'],
    });
    expect(created.status).toBe(201);
    const note = await json<Note>(created);
    expect(note).toMatchObject({ title: 'Groceries', tags: ['home', 'errands'], isPinned: false });

    const list = await json<NotePage>(app.api(ada, 'GET', '/api/notes?page=1&limit=10'));
    expect(list).toMatchObject({ total: 1, page: 1, limit: 10 });
    expect(list.items[0]?.id).toBe(note.id);

    expect(await json<Note>(app.api(ada, 'GET', `/api/notes/${note.id}`))).toEqual(note);

    const updated = await app.api(ada, 'PUT', `/api/notes/${note.id}`, { title: 'Shopping' });
    expect(updated.status).toBe(200);
    expect(await json<Note>(updated)).toMatchObject({
      id: note.id,
      title: 'Shopping',
      note: note.note,
    });

    expect((await app.api(ada, 'DELETE', `/api/notes/${note.id}`)).status).toBe(204);
    expect((await app.api(ada, 'GET', `/api/notes/${note.id}`)).status).toBe(404);
  });

  it('lists newest first with totals across pages', async () => {
    const user = await app.tokenFor(`pages-${randomUUID()}@example.com`);
    for (const title of ['one', 'two', 'three']) {
      expect((await app.api(user, 'POST', '/api/note/create/direct', { title })).status).toBe(201);
    }
    const first = await json<NotePage>(app.api(user, 'GET', '/api/notes?page=1&limit=2'));
    const second = await json<NotePage>(app.api(user, 'GET', '/api/notes?page=2&limit=2'));
    expect(first.total).toBe(3);
    expect(first.items.map((n) => n.title)).toEqual(['three', 'two']);
    expect(second.items.map((n) => n.title)).toEqual(['one']);
  });

  it('refuses bad input with a stable code and stores nothing', async () => {
    const user = await app.tokenFor(`bad-${randomUUID()}@example.com`);
    const empty = await app.api(user, 'POST', '/api/note/create/direct', { title: '', note: ' ' });
    expect(empty.status).toBe(400);
    expect((await json<ErrorBody>(empty)).error.code).toBe('VALIDATION_FAILED');
    const badTag = await app.api(user, 'POST', '/api/note/create/direct', {
      title: 'x',
      tags: ['a b'],
    });
    expect(badTag.status).toBe(400);
    const badId = await app.api(user, 'GET', '/api/notes/not-a-uuid');
    expect(badId.status).toBe(400);
    const badPage = await app.api(user, 'GET', '/api/notes?page=0');
    expect(badPage.status).toBe(400);
    expect((await json<NotePage>(app.api(user, 'GET', '/api/notes'))).total).toBe(0);
  });

  it("never shows or changes another user's note", async () => {
    const created = await app.api(ada, 'POST', '/api/note/create/direct', {
      title: 'Private',
      note: 'mine',
    });
    const note = await json<Note>(created);
    for (const [method, body] of [['GET'], ['PUT', { title: 'hacked' }], ['DELETE']] as const) {
      const response = await app.api(bob, method, `/api/notes/${note.id}`, body);
      expect(response.status).toBe(404);
      expect((await json<ErrorBody>(response)).error.code).toBe('NOT_FOUND');
    }
    expect((await json<NotePage>(app.api(bob, 'GET', '/api/notes'))).items).toEqual([]);
    expect(await json<Note>(app.api(ada, 'GET', `/api/notes/${note.id}`))).toEqual(note);
  });

  it('answers 401 to every /api call without a valid access token', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const real = decodeJwt(ada);
    const kid = decodeProtectedHeader(ada).kid ?? 'x';
    const forged = await new SignJWT({ ...real })
      .setProtectedHeader({ alg: 'RS256', kid })
      .sign(privateKey);
    const [header, , signature] = ada.split('.');
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...real, sub: 'someone-else' })).toString('base64url')}.${signature}`;
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(real)).toString('base64url')}.`;
    for (const token of [undefined, 'garbage', forged, tampered, none]) {
      for (const [method, route] of [
        ['GET', '/api/notes'],
        ['POST', '/api/note/create/direct'],
        ['GET', `/api/notes/${randomUUID()}`],
        ['GET', '/user'],
      ] as const) {
        const response = await app.api(
          token,
          method,
          route,
          method === 'POST' ? { title: 't' } : undefined,
        );
        expect(response.status, `${method} ${route} with ${token?.slice(0, 12)}`).toBe(401);
        expect((await json<ErrorBody>(response)).error.code).toBe('UNAUTHENTICATED');
      }
    }
  });

  it('creates the user on the first authenticated request', async () => {
    const email = `carol-${randomUUID()}@example.com`;
    const token = await app.tokenFor(email);
    const me = await json<User>(app.api(token, 'GET', '/user'));
    expect(me).toMatchObject({ email, authId: decodeJwt(token).sub });
    // No payments on embedded defaults: nothing to buy, so nothing held back.
    expect(me.entitlements).toMatchObject({
      notes_per_month: -1,
      recordingTimeLimit: -1,
      export_pdf: true,
      export_image: true,
    });
    const again = await json<User>(app.api(token, 'GET', '/user'));
    expect(again.userId).toBe(me.userId);
    const bySub = await json<User>(app.api(token, 'GET', `/user/findBySub/${me.authId}`));
    expect(bySub.userId).toBe(me.userId);
    const adaSub = decodeJwt(ada).sub ?? '';
    expect((await app.api(token, 'GET', `/user/findBySub/${adaSub}`)).status).toBe(404);
    expect((await app.api(token, 'GET', `/user-by-sub/${adaSub}`)).status).toBe(404);
  });

  it('refuses requests that reach a service without the gateway, and forged identities', async () => {
    const notesUrl = app.noted.endpoints.notes?.http;
    expect(notesUrl).toBeDefined();
    expect((await fetch(`${notesUrl}/api/notes`)).status).toBe(401);
    const forged = await signIdentity('a-guessed-secret-that-is-long-enough!!', {
      userId: randomUUID(),
      sub: 'x',
      email: '',
      name: '',
    });
    expect(
      (await fetch(`${notesUrl}/api/notes`, { headers: { 'x-noted-identity': forged } })).status,
    ).toBe(401);
    const throughGateway = await fetch(`${app.url}/api/notes`, {
      headers: { 'x-noted-identity': forged },
    });
    expect(throughGateway.status).toBe(401);
  });

  it('serves notes over gRPC to Noted services only, per owner', async () => {
    const created = await json<Note>(
      app.api(ada, 'POST', '/api/note/create/direct', { title: 'Over gRPC' }),
    );
    const adaId = (await json<User>(app.api(ada, 'GET', '/user'))).userId;
    const bobId = (await json<User>(app.api(bob, 'GET', '/user'))).userId;
    const address = app.noted.endpoints.notes?.grpc ?? '';
    const client = createGrpcClient(notesV1.NotesService, address, {
      service: 'test',
      metadata: callerMetadata(app.noted.context.shared.internalSecret, 'test'),
    });
    const stranger = createGrpcClient(notesV1.NotesService, address, { service: 'test' });
    try {
      const { note } = await client.getNote({ userId: adaId, noteId: created.id });
      expect(note?.title).toBe('Over gRPC');
      await expect(client.getNote({ userId: bobId, noteId: created.id })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      await expect(stranger.getNote({ userId: adaId, noteId: created.id })).rejects.toMatchObject({
        code: 'UNAUTHENTICATED',
      });
    } finally {
      client.close();
      stranger.close();
    }
  });

  it('publishes note.created, note.updated and note.deleted through the outbox', async () => {
    const note = await json<Note>(
      app.api(ada, 'POST', '/api/note/create/direct', { title: 'Evented' }),
    );
    await app.api(ada, 'PUT', `/api/notes/${note.id}`, { tags: ['e'] });
    await app.api(ada, 'DELETE', `/api/notes/${note.id}`);
    await expect
      .poll(() => events.filter((e) => eventNoteId(e) === note.id).map((e) => e.subject), {
        timeout: 10_000,
      })
      .toEqual([
        'noted.notes.v1.note.created',
        'noted.notes.v1.note.updated',
        'noted.notes.v1.note.deleted',
      ]);
    const created = events.find((e) => eventNoteId(e) === note.id);
    const payload = fromBinary(notesV1.NoteCreatedSchema, created?.data ?? new Uint8Array());
    expect(created?.id).toBe(payload.eventId);
    expect(payload.note?.title).toBe('Evented');
  });
});

const eventNoteId = (message: BusMessage): string | undefined => {
  if (message.subject.endsWith('.deleted')) {
    return fromBinary(notesV1.NoteDeletedSchema, message.data).noteId;
  }
  return fromBinary(notesV1.NoteCreatedSchema, message.data).note?.id;
};

describe(`the monthly note quota through the gateway (${infraLabel})`, () => {
  let app: TestApp;
  const notesLeftNotEnough = {
    error: { code: 'NOTES_LEFT_NOT_ENOUGH', message: 'Notes left not enough this month' },
  };

  beforeAll(async () => {
    app = await getTestApp({ env: { FREE_NOTES_PER_MONTH: '3' } });
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  it('refuses the note after the last one of the month and stores nothing', async () => {
    const user = await app.tokenFor(`quota-${randomUUID()}@example.com`);
    for (const title of ['one', 'two', 'three']) {
      expect((await app.api(user, 'POST', '/api/note/create/direct', { title })).status).toBe(201);
    }
    const fourth = await app.api(user, 'POST', '/api/note/create/direct', { title: 'four' });
    expect(fourth.status).toBe(403);
    expect(await json<ErrorBody>(fourth)).toEqual(notesLeftNotEnough);
    const list = await json<NotePage>(app.api(user, 'GET', '/api/notes?limit=10'));
    expect(list.total).toBe(3);
    expect(list.items.map((n) => n.title)).not.toContain('four');
  });

  it('lets exactly one of 50 concurrent creates take the last note of the month', async () => {
    const user = await app.tokenFor(`quota-race-${randomUUID()}@example.com`);
    for (const title of ['one', 'two']) {
      expect((await app.api(user, 'POST', '/api/note/create/direct', { title })).status).toBe(201);
    }
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        app.api(user, 'POST', '/api/note/create/direct', { title: `race ${i}` }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 403)).toHaveLength(49);
    const refused = responses.find((r) => r.status === 403);
    expect(await refused?.json()).toEqual(notesLeftNotEnough);
    const list = await json<NotePage>(app.api(user, 'GET', '/api/notes?limit=10'));
    expect(list.total).toBe(3);
    expect(list.items.filter((n) => n.title.startsWith('race '))).toHaveLength(1);
  });
});
