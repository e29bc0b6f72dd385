import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Note, NoteItems, NotePage, TagList } from '@noted/api';
import { callerMetadata } from '@noted/kit';
import { createGrpcClient } from '@noted/grpc';
import { notesV1 } from '@noted/proto';
import { getTestApp, json, type TestApp, infraLabel } from './test/app.js';

/**
 * The tenant isolation matrix: for every route and gRPC method that takes an id, user B with
 * user A's ids gets 404 (or sees nothing) and A's data is exactly as before.
 */
describe(`tenant isolation (${infraLabel})`, () => {
  let app: TestApp;
  let ada: string;
  let bob: string;
  let note: Note;
  let target: Note;

  const snapshot = async () => ({
    note: await json<Note>(app.api(ada, 'GET', `/api/notes/${note.id}`)),
    target: await json<Note>(app.api(ada, 'GET', `/api/notes/${target.id}`)),
    links: await json<unknown>(app.api(ada, 'GET', `/api/notes/${note.id}/links`)),
    tags: await json<TagList>(app.api(ada, 'GET', '/api/tags')),
  });

  beforeAll(async () => {
    app = await getTestApp();
    ada = await app.tokenFor(`ada-${randomUUID()}@example.com`);
    bob = await app.tokenFor(`bob-${randomUUID()}@example.com`);
    target = await json<Note>(
      app.api(ada, 'POST', '/api/note/create/direct', { title: `Target ${randomUUID()}` }),
    );
    note = await json<Note>(
      app.api(ada, 'POST', '/api/note/create/direct', {
        title: 'Secret plans',
        note: `- [ ] buy milk\n\n[[${target.title}]]`,
        tags: ['secret'],
      }),
    );
    await app.api(ada, 'POST', '/api/note/addlink', { noteId: note.id, targetId: target.id });
    const bobsOwn = await json<Note>(
      app.api(bob, 'POST', '/api/note/create/direct', { title: 'Bob', tags: ['secret'] }),
    );
    expect(bobsOwn.id).toBeDefined();
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  it("answers 404 to every call that names one of A's notes, and changes nothing", async () => {
    const before = await snapshot();
    const bobsNote = (await json<NotePage>(app.api(bob, 'GET', '/api/notes'))).items[0];
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/notes/${note.id}`],
      ['PUT', `/api/notes/${note.id}`, { title: 'hacked', note: 'hacked', tags: ['hacked'] }],
      ['DELETE', `/api/notes/${note.id}`],
      ['GET', `/api/notes/${note.id}/links`],
      ['PUT', `/api/notes/${note.id}/todos/0`, { done: true }],
      ['POST', '/api/note/pin', { noteId: note.id }],
      ['POST', '/api/note/unpin', { noteId: note.id }],
      ['POST', '/api/note/share', { noteId: note.id }],
      ['POST', '/api/note/unshare', { noteId: note.id }],
      ['POST', '/api/note/addlink', { noteId: note.id, targetId: target.id }],
      ['POST', '/api/note/removelink', { noteId: note.id, targetId: target.id }],
      ['POST', '/api/note/addlink', { noteId: bobsNote?.id, targetId: note.id }],
    ];
    for (const [method, route, body] of calls) {
      const response = await app.api(bob, method, route, body);
      expect(response.status, `${method} ${route}`).toBe(404);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("never lists, searches, counts or batches A's notes for B", async () => {
    const bobs = (route: string) => app.api(bob, 'GET', route);
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 3_600_000).toISOString();
    const everything = [
      await json<NotePage>(bobs('/api/notes?limit=100')),
      await json<NotePage>(bobs('/api/notes?search=secret')),
      await json<NotePage>(bobs('/api/notes?tag=secret')),
      await json<NoteItems>(bobs(`/api/notes/batch?ids=${note.id},${target.id}`)),
      await json<NoteItems>(
        bobs(`/api/notes/timerange?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`),
      ),
      await json<NoteItems>(bobs('/api/notes/pinned')),
    ];
    for (const result of everything) {
      const ids = result.items.map((item) => item.id);
      expect(ids).not.toContain(note.id);
      expect(ids).not.toContain(target.id);
    }
    const todos = await json<{ items: { noteId: string }[] }>(bobs('/api/todos/recent'));
    expect(todos.items.map((t) => t.noteId)).not.toContain(note.id);
    const tags = await json<TagList>(bobs('/api/tags'));
    expect(tags.items).toEqual([{ tag: 'secret', count: 1 }]);
  });

  it("renaming or deleting a tag touches only the caller's notes", async () => {
    expect((await app.api(bob, 'PUT', '/api/tags/secret', { name: 'public' })).status).toBe(200);
    expect((await app.api(bob, 'DELETE', '/api/tags/public')).status).toBe(204);
    expect((await json<Note>(app.api(ada, 'GET', `/api/notes/${note.id}`))).tags).toEqual([
      'secret',
    ]);
  });

  it('answers NOT_FOUND over gRPC for a note of another user', async () => {
    const bobId = (await json<{ userId: string }>(app.api(bob, 'GET', '/user'))).userId;
    const client = createGrpcClient(notesV1.NotesService, app.noted.endpoints.notes?.grpc ?? '', {
      service: 'test',
      metadata: callerMetadata(app.noted.context.shared.internalSecret, 'test'),
    });
    try {
      await expect(client.getNote({ userId: bobId, noteId: note.id })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      const listed = await client.listNotes({ userId: bobId, page: 1, limit: 100 });
      expect(listed.notes.map((n) => n.id)).not.toContain(note.id);
    } finally {
      client.close();
    }
  });
});
