import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, Note, NoteLinks } from '@noted/api';
import { getTestApp, json, type TestApp, infraLabel } from './test/app.js';

describe(`links between notes (${infraLabel})`, () => {
  let app: TestApp;
  let ada: string;
  let bob: string;
  const create = async (token: string, note: { title: string; note?: string }) =>
    json<Note>(app.api(token, 'POST', '/api/note/create/direct', note));
  const links = (token: string, id: string) =>
    json<NoteLinks>(app.api(token, 'GET', `/api/notes/${id}/links`));
  const addLink = (token: string, noteId: string, targetId: string) =>
    app.api(token, 'POST', '/api/note/addlink', { noteId, targetId });
  const removeLink = (token: string, noteId: string, targetId: string) =>
    app.api(token, 'POST', '/api/note/removelink', { noteId, targetId });

  beforeAll(async () => {
    app = await getTestApp();
    ada = await app.tokenFor(`ada-${randomUUID()}@example.com`);
    bob = await app.tokenFor(`bob-${randomUUID()}@example.com`);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  it('adds a link once, lists it both ways, and removes it', async () => {
    const from = await create(ada, { title: 'From' });
    const to = await create(ada, { title: 'To' });

    const added = await addLink(ada, from.id, to.id);
    expect(added.status).toBe(200);
    const expected: NoteLinks = {
      outgoing: [{ id: to.id, title: 'To', kind: 'manual' }],
      backlinks: [],
    };
    expect(await added.json()).toEqual(expected);
    expect(await json<NoteLinks>(addLink(ada, from.id, to.id))).toEqual(expected);
    expect(await links(ada, from.id)).toEqual(expected);
    expect(await links(ada, to.id)).toEqual({
      outgoing: [],
      backlinks: [{ id: from.id, title: 'From', kind: 'manual' }],
    });

    const removed = await removeLink(ada, from.id, to.id);
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ outgoing: [], backlinks: [] });
    expect((await removeLink(ada, from.id, to.id)).status).toBe(200);
    expect(await links(ada, to.id)).toEqual({ outgoing: [], backlinks: [] });
  });

  it('refuses a link from a note to itself and malformed ids', async () => {
    const note = await create(ada, { title: 'Alone' });
    const self = await addLink(ada, note.id, note.id);
    expect(self.status).toBe(400);
    expect((await json<ErrorBody>(self)).error.code).toBe('VALIDATION_FAILED');
    expect((await addLink(ada, note.id, 'nope')).status).toBe(400);
    expect((await app.api(ada, 'GET', '/api/notes/nope/links')).status).toBe(400);
    expect(await links(ada, note.id)).toEqual({ outgoing: [], backlinks: [] });
  });

  it("never links to, from or about another user's note", async () => {
    const mine = await create(ada, { title: 'Mine' });
    const theirs = await create(bob, { title: 'Theirs' });

    for (const [noteId, targetId] of [
      [mine.id, theirs.id],
      [theirs.id, mine.id],
      [randomUUID(), mine.id],
    ] as const) {
      const response = await addLink(ada, noteId, targetId);
      expect(response.status).toBe(404);
      expect((await json<ErrorBody>(response)).error.code).toBe('NOT_FOUND');
    }
    expect((await removeLink(ada, mine.id, theirs.id)).status).toBe(404);
    expect(await links(ada, mine.id)).toEqual({ outgoing: [], backlinks: [] });
    expect(await links(bob, theirs.id)).toEqual({ outgoing: [], backlinks: [] });
    expect((await app.api(bob, 'GET', `/api/notes/${mine.id}/links`)).status).toBe(404);

    const bobsOther = await create(bob, { title: 'Other' });
    expect((await addLink(ada, theirs.id, bobsOther.id)).status).toBe(404);
    expect(await links(bob, bobsOther.id)).toEqual({ outgoing: [], backlinks: [] });
  });

  it('follows [[wiki links]] in the body as it changes, with aliases and any case', async () => {
    const rust = await create(ada, { title: 'Rust' });
    const go = await create(ada, { title: 'Go' });
    const page = await create(ada, {
      title: 'Languages',
      note: 'I like [[rust]] and [[Go|the Go language]]; [[Nothing like this]].',
    });
    expect((await links(ada, page.id)).outgoing).toEqual([
      { id: go.id, title: 'Go', kind: 'wiki' },
      { id: rust.id, title: 'Rust', kind: 'wiki' },
    ]);
    expect((await links(ada, rust.id)).backlinks).toEqual([
      { id: page.id, title: 'Languages', kind: 'wiki' },
    ]);

    await app.api(ada, 'PUT', `/api/notes/${page.id}`, { note: 'Only [[Go]] now' });
    expect((await links(ada, page.id)).outgoing.map((l) => l.id)).toEqual([go.id]);
    expect((await links(ada, rust.id)).backlinks).toEqual([]);

    await addLink(ada, page.id, go.id);
    const removed = await json<NoteLinks>(removeLink(ada, page.id, go.id));
    expect(removed.outgoing).toEqual([{ id: go.id, title: 'Go', kind: 'wiki' }]);

    await app.api(ada, 'PUT', `/api/notes/${page.id}`, { note: 'No links' });
    expect(await links(ada, page.id)).toEqual({ outgoing: [], backlinks: [] });
    expect((await links(ada, go.id)).backlinks).toEqual([]);
  });

  it('resolves an earlier [[Title]] once a note with that title is created', async () => {
    const index = await create(ada, { title: 'Index', note: 'Next: [[Plans for 2027]]' });
    expect((await links(ada, index.id)).outgoing).toEqual([]);
    const plans = await create(ada, { title: 'Plans for 2027' });
    expect((await links(ada, plans.id)).backlinks).toEqual([
      { id: index.id, title: 'Index', kind: 'wiki' },
    ]);
  });

  it('drops the links of a deleted note, both ways', async () => {
    const a = await create(ada, { title: 'Doomed' });
    const b = await create(ada, { title: 'Survivor', note: '[[Doomed]]' });
    await addLink(ada, a.id, b.id);
    expect((await links(ada, b.id)).backlinks.map((l) => l.id)).toEqual([a.id]);
    expect((await app.api(ada, 'DELETE', `/api/notes/${a.id}`)).status).toBe(204);
    expect(await links(ada, b.id)).toEqual({ outgoing: [], backlinks: [] });
    expect((await app.api(ada, 'GET', `/api/notes/${a.id}/links`)).status).toBe(404);
  });
});
