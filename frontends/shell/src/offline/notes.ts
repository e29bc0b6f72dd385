import {
  AppError,
  errorCodes,
  type ApiClient,
  type ErrorCode,
  type Note,
  type NoteCreate,
  type NoteListQuery,
  type NoteUpdate,
  type SearchHit,
  type SearchPage,
} from '@noted/api';
import type { KeptNote, OfflineDatabase, QueuedChange } from './database';
import { isTemporary, type Outbox, type Settled } from './outbox';

type NotesCalls = ApiClient['notes'];
type TagsCalls = ApiClient['tags'];

/** Notes kept on the device at most; the ones seen longest ago go first (never one waiting). */
export const KEPT_NOTES = 2_000;

/** The open user's copy, or undefined while signed out (then every call goes to the server). */
export interface DeviceCopy {
  db: OfflineDatabase;
  outbox: Outbox;
}

const newestFirst = (a: Note, b: Note) =>
  b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id);

/** The words of a search, each to be found in the title, the body or a tag. */
const matchesSearch = (note: Note, search: string) => {
  const text = `${note.title}\n${note.note}\n${note.tags.join(' ')}`.toLocaleLowerCase();
  return search
    .toLocaleLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => text.includes(word.replace(/^"|"$/g, '')));
};

const withFields = (note: Note, change: QueuedChange): Note => ({
  ...note,
  ...change.fields,
  ...(change.fields.title === undefined ? {} : { title: change.fields.title.trim() }),
});

/** The notes as the queue will leave them: each change laid over the note it changes. */
const laidOver = <N extends Note>(notes: N[], queue: QueuedChange[]): N[] => {
  const changes = new Map<string, QueuedChange[]>();
  for (const change of queue)
    changes.set(change.noteId, [...(changes.get(change.noteId) ?? []), change]);
  return notes.map((note) => (changes.get(note.id) ?? []).reduce(withFields, note) as N);
};

/** Notes made here and not on the server yet, as they will be made. */
const madeHere = (queue: QueuedChange[]): Note[] => {
  const made = new Map<string, Note>();
  for (const change of queue) {
    if (change.kind === 'create' && change.made) made.set(change.noteId, change.made);
    else {
      const note = made.get(change.noteId);
      if (note) made.set(change.noteId, withFields(note, change));
    }
  }
  return [...made.values()];
};

const fits = (note: Note, query: NoteListQuery) =>
  (!query.tag || note.tags.includes(query.tag)) &&
  (!query.sharedOnly || note.publicId !== null) &&
  (query.pinned === undefined || note.isPinned === query.pinned) &&
  (!query.search || matchesSearch(note, query.search));

/**
 * The notes calls of the API client with the device copy behind them: what the server answers
 * is kept, and read from the copy when the server cannot be reached; creates and edits go
 * through the outbox (sent at once when online, kept and sent later when not). Signed out,
 * or for calls it does not know, it is the client itself.
 */
export const offlineNotes = (
  notes: NotesCalls,
  copy: () => Promise<DeviceCopy | undefined>,
  now: () => Date = () => new Date(),
): NotesCalls => {
  const keep = async (db: OfflineDatabase, found: Note[]) => {
    if (found.length === 0) return;
    const seenAt = Date.now();
    const tx = db.transaction('notes', 'readwrite');
    await Promise.all(found.map((note) => tx.store.put({ id: note.id, note, seenAt })));
    await tx.done;
  };

  const pages = async (
    query: NoteListQuery = {},
    { signal }: { signal?: AbortSignal } = {},
  ): Promise<SearchPage> => {
    const device = await copy();
    if (!device) return notes.list(query, signal ? { signal } : {});
    let page: SearchPage;
    try {
      page = await notes.list(query, signal ? { signal } : {});
    } catch (error) {
      if (!isTemporary(error) || signal?.aborted) throw error;
      return fromDevice(device, query);
    }
    await keep(device.db, page.items);
    const queue = await device.outbox.list();
    if (queue.length === 0) return page;
    let items = laidOver(page.items, queue);
    // Made here and not sent yet: first on the first page of the plain list.
    if ((query.page ?? 1) === 1 && !query.search && !query.from && !query.to) {
      const listed = new Set(items.map((note) => note.id));
      const waiting = madeHere(queue).filter((note) => !listed.has(note.id) && fits(note, query));
      items = [...waiting, ...items];
    }
    return { ...page, items, total: page.total + (items.length - page.items.length) };
  };

  /** The list as the device copy has it: the server's order, filtered and searched here. */
  const fromDevice = async (device: DeviceCopy, query: NoteListQuery): Promise<SearchPage> => {
    const matching = (await deviceNotes(device))
      .filter((note) => fits(note, query))
      .sort(newestFirst);
    if (query.pinnedFirst && !query.search) {
      matching.sort((a, b) => Number(b.isPinned) - Number(a.isPinned));
    }
    const page = query.page ?? 1;
    const limit = query.limit ?? 10;
    return {
      items: matching.slice((page - 1) * limit, page * limit) as SearchHit[],
      total: matching.length,
      totalExact: true,
      page,
      limit,
    };
  };

  const keptNote = async (device: DeviceCopy, id: string): Promise<Note | undefined> => {
    const [kept, queue] = await Promise.all([
      device.db.get('notes', id) as Promise<KeptNote | undefined>,
      device.outbox.list(),
    ]);
    const mine = queue.filter((change) => change.noteId === id);
    if (kept) return laidOver([kept.note], mine)[0];
    return madeHere(mine)[0];
  };

  const get = async (id: string): Promise<Note> => {
    const device = await copy();
    if (!device) return notes.get(id);
    try {
      const note = await notes.get(id);
      await keep(device.db, [note]);
      return (await keptNote(device, id)) ?? note;
    } catch (error) {
      const here = await keptNote(device, id);
      if (isTemporary(error) && here) return here;
      // Made here and not sent yet: the server does not know it.
      if (error instanceof AppError && error.code === 'NOT_FOUND') {
        const made = madeHere((await device.outbox.list()).filter((c) => c.noteId === id))[0];
        if (made) return made;
        await device.db.delete('notes', id);
      }
      throw error;
    }
  };

  /** What a caller gets for a change the outbox took: the note sent, or as kept here. */
  const answer = async (device: DeviceCopy, id: string, settled: Settled): Promise<Note> => {
    if ('error' in settled) {
      const { code, message } = settled.error;
      throw new AppError(code in errorCodes ? (code as ErrorCode) : 'INTERNAL', message);
    }
    if ('sent' in settled) return settled.sent;
    const here = await keptNote(device, id);
    if (!here) throw new AppError('NOT_FOUND', 'The note is not on this device');
    return here;
  };

  // Notes made here keep the order they were made in, even two within one millisecond.
  let lastMade = 0;
  const create = async (input: NoteCreate & { id?: string }): Promise<Note> => {
    const device = await copy();
    if (!device) return notes.create(input);
    lastMade = Math.max(now().getTime(), lastMade + 1);
    const at = new Date(lastMade).toISOString();
    const made: Note = {
      id: input.id ?? crypto.randomUUID(),
      title: (input.title ?? '').trim(),
      note: input.note ?? '',
      tags: [...new Set(input.tags ?? [])],
      images: [],
      isPinned: false,
      publicId: null,
      createdAt: at,
      updatedAt: at,
    };
    return answer(device, made.id, await device.outbox.create(made));
  };

  const update = async (id: string, patch: NoteUpdate): Promise<Note> => {
    const device = await copy();
    // Removing images is the server's work (the files go too): it is not queued.
    if (!device || patch.images !== undefined) return notes.update(id, patch);
    const { baseUpdatedAt, images: _images, ...fields } = patch;
    return answer(device, id, await device.outbox.update(id, fields, baseUpdatedAt));
  };

  const remove = async (id: string): Promise<void> => {
    const device = await copy();
    if (!device) return notes.remove(id);
    const queue = (await device.outbox.list()).filter((change) => change.noteId === id);
    const onlyHere = queue.some((change) => change.kind === 'create');
    try {
      await notes.remove(id);
    } catch (error) {
      // Never sent: it goes from the device alone; anything else needs the server.
      if (!(onlyHere && (isTemporary(error) || codeIs(error, 'NOT_FOUND')))) throw error;
    }
    await device.outbox.discard(id);
    await device.db.delete('notes', id);
  };

  return { ...notes, list: pages, get, create, update, remove };
};

const codeIs = (error: unknown, code: string) => error instanceof AppError && error.code === code;

/** The notes on the device as the queue will leave them: kept ones and ones made here. */
const deviceNotes = async (device: DeviceCopy): Promise<Note[]> => {
  const [kept, queue] = await Promise.all([device.db.getAll('notes'), device.outbox.list()]);
  const keptIds = new Set(kept.map(({ id }) => id));
  return laidOver(
    kept.map(({ note }) => note),
    queue,
  ).concat(madeHere(queue).filter((note) => !keptIds.has(note.id)));
};

/** The tags calls with the device copy behind the list: counted there when offline. */
export const offlineTags = (
  tags: TagsCalls,
  copy: () => Promise<DeviceCopy | undefined>,
): TagsCalls => ({
  ...tags,
  list: async () => {
    try {
      return await tags.list();
    } catch (error) {
      const device = await copy();
      if (!device || !isTemporary(error)) throw error;
      const counts = new Map<string, number>();
      for (const note of await deviceNotes(device)) {
        for (const tag of note.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
      }
      const items = [...counts]
        .map(([tag, count]) => ({ tag, count }))
        .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
      return { items, total: items.length, page: 1, limit: items.length };
    }
  },
});

/** Keeps at most `limit` notes, dropping the ones seen longest ago that wait for nothing. */
export const trimKept = async (db: OfflineDatabase, limit = KEPT_NOTES) => {
  const count = await db.count('notes');
  if (count <= limit) return;
  const waiting = new Set((await db.getAll('outbox')).map((change) => change.noteId));
  const tx = db.transaction('notes', 'readwrite');
  let excess = count - limit;
  let cursor = await tx.store.index('seenAt').openCursor();
  while (cursor && excess > 0) {
    if (!waiting.has(cursor.value.id)) {
      await cursor.delete();
      excess -= 1;
    }
    cursor = await cursor.continue();
  }
  await tx.done;
};
