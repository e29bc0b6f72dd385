import { AppError, type ApiClient, type Note, type NoteCreate, type NoteUpdate } from '@noted/api';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseName } from './database';
import { createOffline, type Offline } from './offline';

let clock = Date.parse('2026-11-28T10:00:00.000Z');
const tick = () => new Date((clock += 1_000)).toISOString();

/**
 * The notes API as the server answers it: versions by updatedAt, 409 CONFLICT for a change
 * made on an older one, one note per client-chosen id. `down` answers as no network would,
 * `failing` as a failing server; `loseAnswers` takes a change and loses its answer.
 */
const fakeServer = () => {
  const notes = new Map<string, Note>();
  const calls: string[] = [];
  const server = { down: false, failing: false, loseAnswers: 0 };
  const reachable = () => {
    if (server.down) throw new AppError('UNAVAILABLE', 'The server could not be reached');
    if (server.failing) throw new AppError('INTERNAL', 'Something broke');
  };
  const answered = <T>(value: T): T => {
    if (server.loseAnswers > 0) {
      server.loseAnswers -= 1;
      throw new AppError('UNAVAILABLE', 'The answer was lost');
    }
    return value;
  };
  const notesCalls = {
    list: async () => {
      reachable();
      const items = [...notes.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      return { items, total: items.length, totalExact: true, page: 1, limit: 10 };
    },
    get: async (id: string) => {
      reachable();
      const note = notes.get(id);
      if (!note) throw new AppError('NOT_FOUND', 'No such note');
      return note;
    },
    create: async (input: NoteCreate & { id?: string }) => {
      reachable();
      if (!input.title && !input.note) throw new AppError('VALIDATION_FAILED', 'Empty note');
      calls.push(`create ${input.title}`);
      const id = input.id ?? crypto.randomUUID();
      const at = tick();
      const note = notes.get(id) ?? {
        id,
        title: input.title ?? '',
        note: input.note ?? '',
        tags: input.tags ?? [],
        images: [],
        isPinned: false,
        publicId: null,
        createdAt: at,
        updatedAt: at,
      };
      notes.set(id, note);
      return answered(note);
    },
    update: async (id: string, patch: NoteUpdate) => {
      reachable();
      const note = notes.get(id);
      if (!note) throw new AppError('NOT_FOUND', 'No such note');
      if (patch.baseUpdatedAt && patch.baseUpdatedAt !== note.updatedAt) {
        calls.push(`conflict ${note.title}`);
        throw new AppError('CONFLICT', 'Changed since');
      }
      const { baseUpdatedAt: _base, images: _images, ...fields } = patch;
      const next = { ...note, ...fields, updatedAt: tick() };
      calls.push(`update ${next.title}: ${next.note}`);
      notes.set(id, next);
      return answered(next);
    },
    remove: async (id: string) => {
      reachable();
      notes.delete(id);
    },
  };
  const tagsCalls = {
    list: async () => {
      reachable();
      return { items: [], total: 0, page: 1, limit: 0 };
    },
  };
  return {
    notes,
    calls,
    server,
    api: { notes: notesCalls, tags: tagsCalls } as unknown as ApiClient,
  };
};

/** A window whose network is switched by the test. */
const fakeWindow = () => {
  const target = new EventTarget();
  const navigator = { onLine: true };
  const win = Object.assign(target, { navigator }) as unknown as Window;
  const network = (online: boolean) => {
    navigator.onLine = online;
    target.dispatchEvent(new Event(online ? 'online' : 'offline'));
  };
  return { win, network };
};

const opened: Offline[] = [];
const start = async (subject = crypto.randomUUID(), { online = true } = {}) => {
  const backend = fakeServer();
  backend.server.down = !online;
  const { win, network } = fakeWindow();
  if (!online) network(false);
  const offline = createOffline({ log: { warn: () => undefined }, window: win });
  opened.push(offline);
  const api = offline.wrap(backend.api);
  await offline.open(subject);
  return { ...backend, offline, api, network, subject };
};

afterEach(() => {
  for (const offline of opened.splice(0)) offline.close();
});

/** Waits until the queue has been sent, or fails after a while. */
const sent = async (offline: Offline) => {
  await offline.sendNow();
  await expect.poll(() => offline.pending().length).toBe(0);
};

describe('the device copy of notes', () => {
  it('sends creates and edits at once while online, keeping nothing waiting', async () => {
    const { api, offline, notes } = await start();
    const made = await api.notes.create({ title: 'Online', note: 'first' });
    expect(notes.get(made.id)?.note).toBe('first');
    const changed = await api.notes.update(made.id, {
      note: 'second',
      baseUpdatedAt: made.updatedAt,
    });
    expect(changed.updatedAt).not.toBe(made.updatedAt);
    expect(notes.get(made.id)?.note).toBe('second');
    await expect.poll(() => offline.pending()).toEqual([]);
  });

  it('reads notes seen online from the device when offline, and searches them there', async () => {
    const { api, server } = await start();
    const kept = await api.notes.create({ title: 'Kept here', note: 'a wombat', tags: ['zoo'] });
    await api.notes.create({ title: 'Other', note: 'a quokka' });
    await api.notes.list();
    server.down = true;
    expect((await api.notes.get(kept.id)).title).toBe('Kept here');
    const page = await api.notes.list({ pinnedFirst: true });
    expect(page.items.map((note) => note.title)).toEqual(['Other', 'Kept here']);
    expect((await api.notes.list({ search: 'wombat' })).items.map((n) => n.id)).toEqual([kept.id]);
    expect((await api.notes.list({ tag: 'zoo' })).total).toBe(1);
    expect((await api.tags.list()).items).toEqual([{ tag: 'zoo', count: 1 }]);
    await expect(api.notes.get(crypto.randomUUID())).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('keeps what is written offline and sends it once, in order, when the network is back', async () => {
    const { api, offline, server, network, notes, calls } = await start();
    const before = await api.notes.create({ title: 'Before', note: 'online' });
    calls.length = 0;
    server.down = true;
    network(false);

    const first = await api.notes.create({ title: 'First offline', note: 'one' });
    const second = await api.notes.create({ title: 'Second offline', note: 'two' });
    // Edited as the editor does: each save made on the version it loaded.
    await api.notes.update(first.id, { note: 'one, edited', baseUpdatedAt: first.updatedAt });
    await api.notes.update(before.id, { note: 'edited offline', baseUpdatedAt: before.updatedAt });
    await api.notes.update(before.id, {
      title: 'Before, renamed',
      baseUpdatedAt: before.updatedAt,
    });

    expect(offline.pending().map(({ title, kind, state }) => [title, kind, state])).toEqual([
      ['First offline', 'create', 'waiting'],
      ['Second offline', 'create', 'waiting'],
      ['Before, renamed', 'update', 'waiting'],
    ]);
    // The list and the notes show what was written, made here first.
    const listed = await api.notes.list({ pinnedFirst: true });
    expect(listed.items.map((note) => note.title)).toEqual([
      'Second offline',
      'First offline',
      'Before, renamed',
    ]);
    expect((await api.notes.get(first.id)).note).toBe('one, edited');
    expect(calls).toEqual([]);

    server.down = false;
    network(true);
    await sent(offline);
    expect(calls).toEqual([
      'create First offline',
      'create Second offline',
      'update Before, renamed: edited offline',
    ]);
    expect(notes.get(first.id)?.note).toBe('one, edited');
    expect(notes.get(second.id)?.title).toBe('Second offline');
    expect(notes.size).toBe(3);
  });

  it('makes one note of a create whose answer was lost and that is sent again', async () => {
    const { api, offline, server, notes } = await start();
    server.loseAnswers = 1;
    const made = await api.notes.create({ title: 'Lost answer', note: 'once' });
    expect(offline.pending()).toHaveLength(1);
    await sent(offline);
    expect([...notes.values()].map((note) => note.id)).toEqual([made.id]);
  });

  it('counts an edit whose answer was lost as sent when its resend meets itself', async () => {
    const { api, offline, server, notes, calls } = await start();
    const note = await api.notes.create({ title: 'Edited', note: 'v1' });
    server.loseAnswers = 1;
    await api.notes.update(note.id, { note: 'v2', baseUpdatedAt: note.updatedAt });
    await sent(offline);
    expect(calls.at(-1)).toBe('conflict Edited');
    expect(notes.get(note.id)?.note).toBe('v2');
    expect(offline.pending()).toEqual([]);
  });

  it('makes later edits on the version its own sent change made, not on a conflict', async () => {
    const { api, offline, server, network, notes } = await start();
    const note = await api.notes.create({ title: 'Chain', note: 'v1' });
    server.down = true;
    network(false);
    await api.notes.update(note.id, { note: 'v2', baseUpdatedAt: note.updatedAt });
    server.down = false;
    network(true);
    await sent(offline);
    // The editor still edits on the version it loaded: this device made every one since.
    const saved = await api.notes.update(note.id, { note: 'v3', baseUpdatedAt: note.updatedAt });
    expect(saved.note).toBe('v3');
    expect(notes.get(note.id)?.note).toBe('v3');
    await expect.poll(() => offline.pending()).toEqual([]);
  });

  it('shows a conflict with a change made elsewhere, and sends mine or takes theirs as chosen', async () => {
    const { api, offline, server, network, notes } = await start();
    const note = await api.notes.create({ title: 'Shared', note: 'base' });
    const other = await api.notes.create({ title: 'Unrelated', note: 'base' });
    server.down = true;
    network(false);
    await api.notes.update(note.id, { note: 'mine', baseUpdatedAt: note.updatedAt });
    await api.notes.update(other.id, { note: 'also mine', baseUpdatedAt: other.updatedAt });
    // Meanwhile, on another device:
    notes.set(note.id, { ...note, note: 'theirs', updatedAt: tick() });
    server.down = false;
    network(true);
    await offline.sendNow();
    await expect
      .poll(() => offline.pending().map(({ title, state }) => [title, state]))
      .toEqual([['Shared', 'conflict']]);
    // The other note's change did not wait behind it.
    expect(notes.get(other.id)?.note).toBe('also mine');
    // Nothing lost either way: both versions are there until the user chooses.
    expect(notes.get(note.id)?.note).toBe('theirs');
    expect((await api.notes.get(note.id)).note).toBe('mine');
    // A later edit of the note waits with it.
    await expect(
      api.notes.update(note.id, { note: 'mine, more', baseUpdatedAt: note.updatedAt }),
    ).resolves.toMatchObject({ note: 'mine, more' });
    expect(notes.get(note.id)?.note).toBe('theirs');

    await offline.keepMine(note.id);
    await sent(offline);
    expect(notes.get(note.id)?.note).toBe('mine, more');

    await api.notes.update(note.id, { note: 'again mine', baseUpdatedAt: note.updatedAt });
    notes.set(note.id, { ...notes.get(note.id)!, note: 'theirs again', updatedAt: tick() });
    server.down = true;
    network(false);
    await api.notes.update(note.id, { note: 'offline mine', baseUpdatedAt: note.updatedAt });
    server.down = false;
    network(true);
    await expect.poll(() => offline.pending()[0]?.state).toBe('conflict');
    expect((await offline.discard(note.id))?.note).toBe('theirs again');
    expect((await api.notes.get(note.id)).note).toBe('theirs again');
    expect(offline.pending()).toEqual([]);
  });

  it('leaves a change refused while its caller waits to the caller, holding nothing', async () => {
    const { api, offline, notes } = await start();
    await expect(api.notes.create({ title: '', note: '' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    expect(notes.size).toBe(0);
    await expect.poll(() => offline.pending()).toEqual([]);
  });

  it('keeps a change the server failed on and sends it once it works again', async () => {
    const { api, offline, server, notes } = await start();
    const note = await api.notes.create({ title: 'Failing', note: 'v1' });
    server.failing = true;
    const kept = await api.notes.update(note.id, { note: 'v2', baseUpdatedAt: note.updatedAt });
    expect(kept.note).toBe('v2');
    await expect
      .poll(() => offline.pending())
      .toMatchObject([{ noteId: note.id, state: 'waiting' }]);
    server.failing = false;
    await sent(offline);
    expect(notes.get(note.id)?.note).toBe('v2');
  });

  it('keeps what waits when the session ends, and deletes everything at sign-out', async () => {
    const subject = crypto.randomUUID();
    const first = await start(subject);
    first.server.down = true;
    first.network(false);
    await first.api.notes.create({ title: 'Waiting', note: 'x' });
    first.offline.close();

    const again = await start(subject, { online: false });
    expect(again.offline.pending().map((change) => change.title)).toEqual(['Waiting']);

    await again.offline.clear();
    expect(again.offline.pending()).toEqual([]);
    const names = (await indexedDB.databases()).map((db) => db.name);
    expect(names).not.toContain(databaseName(subject));
    // Opened afresh, nothing of it is left.
    const db = await openDB(databaseName(subject));
    expect(db.objectStoreNames.length).toBe(0);
    db.close();
  });
});
