import { AppError, type Note, type NoteCreate, type NoteUpdate } from '@noted/api';
import type { ChangeFields, OfflineDatabase, QueuedChange } from './database';

/**
 * Answers that say "not now" rather than "no": the change waits and goes again later. A
 * missing session (signed in offline, the provider not asked yet) is one of them.
 */
const tryAgainLater = new Set([
  'UNAVAILABLE',
  'TIMEOUT',
  'INTERNAL',
  'UPSTREAM_UNAVAILABLE',
  'RATE_LIMITED',
  'UNAUTHENTICATED',
]);

export const codeOf = (error: unknown): string =>
  error instanceof AppError ? error.code : 'UNAVAILABLE';

/** The server could not take the request now (no network, a failing server, no session). */
export const isTemporary = (error: unknown) => tryAgainLater.has(codeOf(error));

/** What became of a change a caller waits for. */
export type Settled =
  | { sent: Note }
  /** Kept on this device, to be sent later (or waiting for the user's choice). */
  | { kept: true }
  | { error: { code: string; message: string } };

/** The calls the outbox sends through: the API client's own, without the offline layer. */
export interface OutboxServer {
  create: (note: NoteCreate & { id: string }) => Promise<Note>;
  update: (id: string, patch: NoteUpdate) => Promise<Note>;
  get: (id: string) => Promise<Note>;
}

/** Messages between this user's tabs: the queue changed, or a change reached its end. */
type TabMessage = { type: 'changed' } | { type: 'settled'; seq: number; settled: Settled };

export interface TabChannel {
  postMessage: (message: TabMessage) => void;
  onmessage: ((event: { data: TabMessage }) => void) | null;
  close: () => void;
}

export interface OutboxOptions {
  db: OfflineDatabase;
  server: OutboxServer;
  online: () => boolean;
  /** Runs `work` alone among this user's tabs (Web Locks), so nothing is sent twice. */
  exclusive: <T>(work: () => Promise<T>) => Promise<T>;
  channel?: TabChannel;
  /** A change reached the server: its answer, to keep as the device copy. */
  onSent: (note: Note) => Promise<void>;
  /** The queue changed here or in another tab. */
  onChanged: () => void;
  /** How long a caller waits for its change to be sent before it is told it is kept. */
  settleMs?: number;
  now?: () => Date;
}

export interface Outbox {
  /** Every change waiting, in the order it will be sent. */
  list: () => Promise<QueuedChange[]>;
  /** Queues a note made here; settles once sent, kept, or refused. */
  create: (made: Note) => Promise<Settled>;
  /** Queues a change to a note made on version `base`; settles like create. */
  update: (noteId: string, fields: ChangeFields, base: string | undefined) => Promise<Settled>;
  /** Sends what waits, in order, until the queue is empty or the server cannot take more. */
  drain: () => Promise<'empty' | 'stopped'>;
  /** Sends the change in conflict over the other version, or a refused one again. */
  keepMine: (noteId: string, current?: Note) => Promise<void>;
  /** Drops every change waiting for this note. */
  discard: (noteId: string) => Promise<void>;
  close: () => void;
}

const sameTags = (a: string[] | undefined, b: string[]) =>
  a === undefined || (a.length === b.length && a.every((tag, index) => tag === b[index]));

/** The server's note already says what the change says (the change's own earlier send). */
const alreadyApplied = (note: Note, fields: ChangeFields) =>
  (fields.title === undefined || fields.title.trim() === note.title) &&
  (fields.note === undefined || fields.note === note.note) &&
  sameTags(fields.tags, note.tags);

/** Own versions kept per note: enough for any run of changes made offline. */
const OWN_VERSIONS = 50;

export const createOutbox = ({
  db,
  server,
  online,
  exclusive,
  channel,
  onSent,
  onChanged,
  settleMs = 8_000,
  now = () => new Date(),
}: OutboxOptions): Outbox => {
  const waiters = new Map<number, Set<(settled: Settled) => void>>();
  let closed = false;

  const changed = () => {
    channel?.postMessage({ type: 'changed' });
    onChanged();
  };
  const settle = (seq: number, settled: Settled, fromOtherTab = false) => {
    if (!fromOtherTab) channel?.postMessage({ type: 'settled', seq, settled });
    const waiting = waiters.get(seq);
    waiters.delete(seq);
    for (const resolve of waiting ?? []) resolve(settled);
  };
  if (channel) {
    channel.onmessage = ({ data }) => {
      if (data.type === 'settled') settle(data.seq, data.settled, true);
      else onChanged();
    };
  }

  /** Waits for `seq` to be settled, at most `settleMs`: then it counts as kept. */
  const waitFor = (seq: number) =>
    new Promise<Settled>((resolve) => {
      const timer = setTimeout(() => done({ kept: true }), settleMs);
      const done = (settled: Settled) => {
        clearTimeout(timer);
        waiters.get(seq)?.delete(done);
        resolve(settled);
      };
      const waiting = waiters.get(seq) ?? new Set();
      waiters.set(seq, waiting.add(done));
    });

  const list = () => db.getAll('outbox');

  /** Queues, then sends at once when online; settles as the change does. */
  const queueAndSend = async (seq: number, blocked: boolean): Promise<Settled> => {
    if (blocked || !online()) {
      changed();
      return { kept: true };
    }
    // Sent at once: the queue is said to have changed once the change has gone or stayed,
    // so a save that goes through never shows as waiting.
    const settled = waitFor(seq);
    void drain();
    return settled;
  };

  const create = async (made: Note) => {
    const seq = await db.add('outbox', {
      noteId: made.id,
      kind: 'create',
      fields: { title: made.title, note: made.note, tags: made.tags },
      state: 'waiting',
      since: now().toISOString(),
      made,
    });
    return queueAndSend(seq, false);
  };

  const update = async (noteId: string, fields: ChangeFields, base: string | undefined) => {
    // One transaction: a change not yet on its way takes the new fields in, so the queue holds
    // one change per note while offline, made on the version the first one was made on.
    const tx = db.transaction('outbox', 'readwrite');
    const mine = await tx.store.index('noteId').getAll(noteId);
    const last = mine.at(-1);
    let seq: number;
    if (last?.seq !== undefined && last.state !== 'sending') {
      const merged = { ...last, fields: { ...last.fields, ...fields } };
      if (last.made) merged.made = { ...last.made, ...fields };
      await tx.store.put(merged);
      seq = last.seq;
    } else {
      seq = await tx.store.add({
        noteId,
        kind: 'update',
        fields,
        ...(base ? { base } : {}),
        state: 'waiting',
        since: now().toISOString(),
      });
    }
    await tx.done;
    // Behind a conflict or a refusal, the change waits for the user's choice.
    return queueAndSend(seq, last?.state === 'conflict' || last?.state === 'refused');
  };

  /** The version to send a change on: this device's latest, when it was made on an own one. */
  const baseFor = async (change: QueuedChange) => {
    if (!change.base) return undefined;
    const versions = await db.get('versions', change.noteId);
    return versions?.own.includes(change.base) ? versions.head : change.base;
  };

  const recordVersion = async (change: QueuedChange, note: Note) => {
    const tx = db.transaction(['outbox', 'versions'], 'readwrite');
    if (change.seq !== undefined) await tx.objectStore('outbox').delete(change.seq);
    const versions = tx.objectStore('versions');
    const known = await versions.get(change.noteId);
    const made = [change.base, change.made?.updatedAt, known?.head].filter(
      (version): version is string => Boolean(version) && version !== note.updatedAt,
    );
    const own = [...new Set([...(known?.own ?? []), ...made])].slice(-OWN_VERSIONS);
    await versions.put({ noteId: change.noteId, own, head: note.updatedAt });
    await tx.done;
  };

  /** Marks the next change to send as on its way and answers it as it now stands. */
  const takeNext = async (): Promise<QueuedChange | undefined> => {
    const tx = db.transaction('outbox', 'readwrite');
    const blocked = new Set<string>();
    let cursor = await tx.store.openCursor();
    while (cursor) {
      const change = cursor.value;
      if (change.state === 'conflict' || change.state === 'refused') blocked.add(change.noteId);
      else if (!blocked.has(change.noteId)) {
        const taken = { ...change, state: 'sending' as const };
        await cursor.update(taken);
        await tx.done;
        return taken;
      }
      cursor = await cursor.continue();
    }
    await tx.done;
    return undefined;
  };

  const markAs = async (change: QueuedChange, state: QueuedChange['state'], error?: unknown) => {
    if (change.seq === undefined) return;
    const stored = await db.get('outbox', change.seq);
    if (!stored) return;
    const { code: _code, message: _message, ...rest } = stored;
    await db.put('outbox', {
      ...rest,
      state,
      ...(error === undefined
        ? {}
        : { code: codeOf(error), message: error instanceof Error ? error.message : '' }),
    });
  };

  const failed = (error: unknown): Settled => ({
    error: { code: codeOf(error), message: error instanceof Error ? error.message : '' },
  });

  /** Sends one change; false when the server cannot take more now. */
  const sendOne = async (change: QueuedChange): Promise<boolean> => {
    const seq = change.seq ?? -1;
    try {
      const note =
        change.kind === 'create'
          ? await server.create({
              id: change.noteId,
              title: change.fields.title ?? '',
              note: change.fields.note ?? '',
              tags: change.fields.tags ?? [],
            })
          : await sendUpdate(change);
      await recordVersion(change, note);
      await onSent(note);
      changed();
      settle(seq, { sent: note });
      return true;
    } catch (error) {
      if (isTemporary(error)) {
        await markAs(change, 'waiting');
        changed();
        settle(seq, { kept: true });
        return false;
      }
      if (codeOf(error) === 'CONFLICT' && change.kind === 'update') {
        // An answer lost on the way: the change was taken, and its resend meets itself.
        const current = await server.get(change.noteId).catch(() => undefined);
        if (current && alreadyApplied(current, change.fields)) {
          await recordVersion(change, current);
          await onSent(current);
          changed();
          settle(seq, { sent: current });
          return true;
        }
      }
      const conflict = codeOf(error) === 'CONFLICT';
      if (!conflict && waiters.has(seq) && change.seq !== undefined) {
        // Refused while its caller waits (the quota, a bad value): the caller has the error and
        // its text, so the change is not held a second time in the queue.
        await db.delete('outbox', change.seq);
      } else {
        await markAs(change, conflict ? 'conflict' : 'refused', error);
      }
      changed();
      settle(seq, failed(error));
      return true;
    }
  };

  const sendUpdate = async (change: QueuedChange) => {
    const base = await baseFor(change);
    return server.update(change.noteId, {
      ...change.fields,
      ...(base ? { baseUpdatedAt: base } : {}),
    });
  };

  let draining: Promise<'empty' | 'stopped'> | undefined;
  let again = false;
  const drainOnce = () =>
    exclusive(async () => {
      for (;;) {
        if (closed || !online()) return 'stopped' as const;
        const next = await takeNext();
        if (!next) return 'empty' as const;
        if (!(await sendOne(next))) return 'stopped' as const;
      }
    });
  const drain = (): Promise<'empty' | 'stopped'> => {
    if (draining) {
      again = true;
      return draining;
    }
    draining = (async () => {
      let outcome: 'empty' | 'stopped';
      do {
        again = false;
        outcome = await drainOnce();
      } while (again && outcome === 'empty');
      return outcome;
    })().finally(() => {
      draining = undefined;
    });
    return draining;
  };

  const keepMine = async (noteId: string, current?: Note) => {
    const tx = db.transaction('outbox', 'readwrite');
    for (const change of await tx.store.index('noteId').getAll(noteId)) {
      if (change.state !== 'conflict' && change.state !== 'refused') continue;
      const { code, message: _message, base: _base, ...rest } = change;
      // Deleted elsewhere: what was typed here makes the note again, under the same id.
      const again: QueuedChange =
        code === 'NOT_FOUND' && change.kind === 'update' && current
          ? {
              ...rest,
              kind: 'create',
              made: { ...current, ...change.fields },
              fields: {
                title: current.title,
                note: current.note,
                tags: current.tags,
                ...change.fields,
              },
              state: 'waiting',
            }
          : // A conflict goes over the other version; a refusal is simply tried again.
            {
              ...rest,
              ...(code === 'CONFLICT' ? {} : change.base ? { base: change.base } : {}),
              state: 'waiting',
            };
      await tx.store.put(again);
    }
    await tx.done;
    changed();
    if (online()) await drain();
  };

  const discard = async (noteId: string) => {
    const tx = db.transaction('outbox', 'readwrite');
    for (const key of await tx.store.index('noteId').getAllKeys(noteId)) await tx.store.delete(key);
    await tx.done;
    changed();
  };

  return {
    list,
    create,
    update,
    drain,
    keepMine,
    discard,
    close: () => {
      closed = true;
      channel?.close();
      for (const seq of [...waiters.keys()]) settle(seq, { kept: true }, true);
    },
  };
};
