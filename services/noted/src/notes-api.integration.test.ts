import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ErrorBody,
  Note,
  NoteItems,
  NotePage,
  PublicNote,
  ReviewDueList,
  ShareResult,
  TagList,
  TodoList,
} from '@noted/api';
import { getTestApp, json, type TestApp, infraLabel } from './test/app.js';

describe(`notes: pin, share, tags, filters (${infraLabel})`, () => {
  let app: TestApp;
  let ada: string;
  let bob: string;
  const create = async (token: string, note: { title: string; note?: string; tags?: string[] }) =>
    json<Note>(app.api(token, 'POST', '/api/note/create/direct', note));

  beforeAll(async () => {
    app = await getTestApp();
    ada = await app.tokenFor(`ada-${randomUUID()}@example.com`);
    bob = await app.tokenFor(`bob-${randomUUID()}@example.com`);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  it('pins and unpins, and lists pinned notes first when asked', async () => {
    const older = await create(ada, { title: 'Older, pinned' });
    const newer = await create(ada, { title: 'Newer' });
    const pinned = await json<Note>(app.api(ada, 'POST', '/api/note/pin', { noteId: older.id }));
    expect(pinned.isPinned).toBe(true);
    const list = await json<NotePage>(app.api(ada, 'GET', '/api/notes?pinnedFirst=true'));
    expect(list.items.map((n) => n.id).slice(0, 2)).toEqual([older.id, newer.id]);
    const onlyPinned = await json<NoteItems>(app.api(ada, 'GET', '/api/notes/pinned'));
    expect(onlyPinned.items.map((n) => n.id)).toEqual([older.id]);
    const filtered = await json<NotePage>(app.api(ada, 'GET', '/api/notes?pinned=true'));
    expect(filtered.total).toBe(1);
    const unpinned = await json<Note>(
      app.api(ada, 'POST', '/api/note/unpin', { noteId: older.id }),
    );
    expect(unpinned.isPinned).toBe(false);
    expect((await json<NoteItems>(app.api(ada, 'GET', '/api/notes/pinned'))).items).toEqual([]);
  });

  it('shares a note by an unguessable link readable without an account, until unshared', async () => {
    const note = await create(ada, { title: 'Recipe', note: 'Flour, water, salt', tags: ['food'] });
    const share = await json<ShareResult>(
      app.api(ada, 'POST', '/api/note/share', { noteId: note.id }),
    );
    expect(share.publicId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(share.url).toBe(`${app.url}/notes/s/${share.publicId}`);
    const again = await json<ShareResult>(
      app.api(ada, 'POST', '/api/note/share', { noteId: note.id }),
    );
    expect(again.publicId).toBe(share.publicId);

    const page = await fetch(`${app.url}/public/note/${share.publicId}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const shared = (await page.json()) as PublicNote & Record<string, unknown>;
    expect(shared).toMatchObject({ title: 'Recipe', note: 'Flour, water, salt', tags: ['food'] });
    expect(shared).not.toHaveProperty('id');
    expect(shared).not.toHaveProperty('userId');

    const sharedOnly = await json<NotePage>(app.api(ada, 'GET', '/api/notes?sharedOnly=true'));
    expect(sharedOnly.items.map((n) => n.id)).toEqual([note.id]);

    const unshared = await json<Note>(
      app.api(ada, 'POST', '/api/note/unshare', { noteId: note.id }),
    );
    expect(unshared.publicId).toBeNull();
    expect((await fetch(`${app.url}/public/note/${share.publicId}`)).status).toBe(404);
    const reshared = await json<ShareResult>(
      app.api(ada, 'POST', '/api/note/share', { noteId: note.id }),
    );
    expect(reshared.publicId).not.toBe(share.publicId);
  });

  it('answers a malformed or unknown public id with an error, not a note', async () => {
    const malformed = await fetch(`${app.url}/public/note/not-an-id`);
    expect(malformed.status).toBe(400);
    const unknown = await fetch(`${app.url}/public/note/${'A'.repeat(22)}`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as ErrorBody).error.code).toBe('NOT_FOUND');
  });

  it("never pins, shares or unshares another user's note", async () => {
    const note = await create(ada, { title: 'Mine' });
    for (const action of ['pin', 'unpin', 'share', 'unshare']) {
      const response = await app.api(bob, 'POST', `/api/note/${action}`, { noteId: note.id });
      expect(response.status, action).toBe(404);
    }
    const after = await json<Note>(app.api(ada, 'GET', `/api/notes/${note.id}`));
    expect(after).toMatchObject({ isPinned: false, publicId: null });
    const bad = await app.api(ada, 'POST', '/api/note/pin', { noteId: 'nope' });
    expect(((await bad.json()) as ErrorBody).error.code).toBe('VALIDATION_FAILED');
  });

  it('makes one note of a creation sent again with the id the client chose', async () => {
    const user = await app.tokenFor(`outbox-${randomUUID()}@example.com`);
    const id = randomUUID();
    const send = () =>
      app.api(user, 'POST', '/api/note/create/direct', { id, title: 'Typed offline' });
    const first = await send();
    expect(first.status).toBe(201);
    const made = await json<Note>(first);
    expect(made).toMatchObject({ id, title: 'Typed offline' });
    const again = await send();
    expect(again.status).toBe(201);
    expect(await json<Note>(again)).toEqual(made);

    const twiceAtOnce = randomUUID();
    const answers = await Promise.all(
      [1, 2].map(() =>
        app.api(user, 'POST', '/api/note/create/direct', { id: twiceAtOnce, title: 'Both' }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
    const [a, b] = await Promise.all(answers.map((answer) => json<Note>(answer)));
    expect(b).toEqual(a);
    const list = await json<NotePage>(app.api(user, 'GET', '/api/notes'));
    expect(list.items.map((n) => n.id).sort()).toEqual([id, twiceAtOnce].sort());
    expect(list.total).toBe(2);

    const taken = await app.api(bob, 'POST', '/api/note/create/direct', { id, title: 'Mine?' });
    expect(taken.status).toBe(409);
    const refusal = await json<ErrorBody>(taken);
    expect(refusal.error.code).toBe('CONFLICT');
    expect(JSON.stringify(refusal)).not.toContain('Typed offline');

    const invalid = await app.api(user, 'POST', '/api/note/create/direct', {
      id: 'not-a-uuid',
      title: 'Typed offline',
    });
    expect(invalid.status).toBe(400);
    expect((await json<ErrorBody>(invalid)).error.code).toBe('VALIDATION_FAILED');
  });

  it('counts, renames and deletes tags across notes, per user', async () => {
    const user = await app.tokenFor(`tags-${randomUUID()}@example.com`);
    const a = await create(user, { title: 'a', tags: ['work', 'urgent'] });
    const b = await create(user, { title: 'b', tags: ['work', 'job'] });
    await create(user, { title: 'c', tags: ['home'] });
    await create(bob, { title: 'bob', tags: ['work'] });
    const tags = await json<TagList>(app.api(user, 'GET', '/api/tags'));
    expect(tags.items).toEqual([
      { tag: 'work', count: 2 },
      { tag: 'home', count: 1 },
      { tag: 'job', count: 1 },
      { tag: 'urgent', count: 1 },
    ]);

    const renamed = await app.api(user, 'PUT', '/api/tags/work', { name: 'job' });
    expect(await renamed.json()).toEqual({ tag: 'job', count: 2 });
    expect((await json<Note>(app.api(user, 'GET', `/api/notes/${b.id}`))).tags).toEqual(['job']);
    expect((await json<Note>(app.api(user, 'GET', `/api/notes/${a.id}`))).tags).toEqual([
      'job',
      'urgent',
    ]);

    expect((await app.api(user, 'DELETE', '/api/tags/job')).status).toBe(204);
    expect((await json<TagList>(app.api(user, 'GET', '/api/tags'))).items).toEqual([
      { tag: 'home', count: 1 },
      { tag: 'urgent', count: 1 },
    ]);
    expect((await app.api(user, 'DELETE', '/api/tags/nothing')).status).toBe(404);
    const bobTags = await json<TagList>(app.api(bob, 'GET', '/api/tags'));
    expect(bobTags.items).toContainEqual({ tag: 'work', count: 1 });
  });

  it('filters the list by tag and creation time', async () => {
    const user = await app.tokenFor(`filter-${randomUUID()}@example.com`);
    const before = new Date().toISOString();
    const tagged = await create(user, { title: 'tagged', tags: ['x'] });
    await create(user, { title: 'plain' });
    const byTag = await json<NotePage>(app.api(user, 'GET', '/api/notes?tag=x'));
    expect(byTag.items.map((n) => n.id)).toEqual([tagged.id]);
    const future = new Date(Date.now() + 60_000).toISOString();
    const none = await json<NotePage>(
      app.api(user, 'GET', `/api/notes?from=${encodeURIComponent(future)}`),
    );
    expect(none.total).toBe(0);
    const all = await json<NotePage>(
      app.api(user, 'GET', `/api/notes?from=${encodeURIComponent(before)}`),
    );
    expect(all.total).toBe(2);
    expect((await app.api(user, 'GET', '/api/notes?pinned=maybe')).status).toBe(400);
  });

  it("finds notes changed in a time range and fetches several by id, only the caller's", async () => {
    const user = await app.tokenFor(`range-${randomUUID()}@example.com`);
    const from = new Date(Date.now() - 1000).toISOString();
    const one = await create(user, { title: 'one' });
    const two = await create(user, { title: 'two' });
    const to = new Date(Date.now() + 1000).toISOString();
    const range = await json<NoteItems>(
      app.api(
        user,
        'GET',
        `/api/notes/timerange?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
      ),
    );
    expect(range.items.map((n) => n.id).sort()).toEqual([one.id, two.id].sort());
    const backwards = await app.api(
      user,
      'GET',
      `/api/notes/timerange?from=${encodeURIComponent(to)}&to=${encodeURIComponent(from)}`,
    );
    // to is exclusive: a range that ends before it starts holds no notes.
    expect(backwards.status).toBe(200);
    expect((await json<NoteItems>(backwards)).items).toEqual([]);

    const bobs = await create(bob, { title: 'not yours' });
    const batch = await json<NoteItems>(
      app.api(user, 'GET', `/api/notes/batch?ids=${two.id},${bobs.id},${one.id}`),
    );
    expect(batch.items.map((n) => n.id)).toEqual([two.id, one.id]);
  });
  it('answers every list with its items, total, page and limit', async () => {
    const user = await app.tokenFor(`lists-${randomUUID()}@example.com`);
    const notes = [];
    for (const title of ['One', 'Two', 'Three']) {
      notes.push(await create(user, { title, note: `- [ ] ${title}`, tags: ['list', title] }));
    }
    for (const note of notes) await app.api(user, 'POST', '/api/note/pin', { noteId: note.id });
    const [one, two, three] = notes.map((note) => note.id);

    const firstPinned = await json<NoteItems>(app.api(user, 'GET', '/api/notes/pinned?limit=2'));
    expect(firstPinned.items.map((n) => n.id)).toEqual([three, two]);
    expect(firstPinned).toMatchObject({ total: 3, page: 1, limit: 2 });
    const lastPinned = await json<NoteItems>(
      app.api(user, 'GET', '/api/notes/pinned?limit=2&page=2'),
    );
    expect(lastPinned.items.map((n) => n.id)).toEqual([one]);
    expect(lastPinned).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(await json<NoteItems>(app.api(user, 'GET', '/api/notes/pinned'))).toMatchObject({
      total: 3,
      page: 1,
      limit: 100,
    });

    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 3_600_000).toISOString();
    const range = await json<NoteItems>(
      app.api(
        user,
        'GET',
        `/api/notes/timerange?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
      ),
    );
    expect(range).toMatchObject({ total: 3, page: 1, limit: 1000 });
    const batch = await json<NoteItems>(
      app.api(user, 'GET', `/api/notes/batch?ids=${one},${randomUUID()},${two}`),
    );
    expect(batch.items.map((n) => n.id)).toEqual([one, two]);
    expect(batch).toMatchObject({ total: 2, page: 1, limit: 100 });

    const tags = await json<TagList>(app.api(user, 'GET', '/api/tags'));
    expect(tags.items[0]).toEqual({ tag: 'list', count: 3 });
    expect(tags).toMatchObject({ total: 4, page: 1, limit: 1000 });

    const todos = await json<TodoList>(app.api(user, 'GET', '/api/todos/recent?limit=2'));
    expect(todos.items.map((todo) => todo.text)).toEqual(['Three', 'Two']);
    expect(todos).toMatchObject({ total: 2, page: 1, limit: 2 });

    expect(await json<ReviewDueList>(app.api(user, 'GET', '/api/notes/review'))).toEqual({
      items: [],
      total: 0,
      page: 1,
      limit: 20,
    });
  });
});
