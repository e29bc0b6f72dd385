import type { ApiClient, LiveMessage, Note } from '@noted/api';
import type { PendingChange, ShellOffline } from '@noted/ui';
import { createStore } from '../store';
import type { OfflineDatabase, QueuedChange } from './database';
import type { DeviceCopy } from './notes';
import type { TabChannel } from './outbox';
import { sendMessage, syncTag } from './sync';

/** The device copy's code, fetched at the first sign-in of the page. */
const loadDevice = () => import('./device');

/** The first wait before trying the queue again after the server could not take it. */
const RETRY_MS = 5_000;
const MAX_RETRY_MS = 60_000;

export interface Offline extends ShellOffline {
  /** Opens `subject`'s device copy (signed in, with or without a network) and sends what waits. */
  open: (subject: string) => Promise<void>;
  /** The session ended: the copy stays, its changes sent after the same user signs in again. */
  close: () => void;
  /** Signed out: every copy on this browser is deleted. */
  clear: () => Promise<void>;
  /** The API client with its notes and tags calls through the device copy. */
  wrap: (api: ApiClient) => ApiClient;
  /** Keeps the copy as the live connection reports changes; a reconnect sends what waits. */
  hear: (message: LiveMessage) => void;
}

export interface OfflineOptions {
  log: { warn: (message: string, detail?: unknown) => void };
  window?: Window;
  /** Opens a user's database; a test gives fake-indexeddb's. */
  openDatabase?: (subject: string) => Promise<OfflineDatabase>;
  deleteDatabases?: (subject?: string) => Promise<void>;
  /**
   * Whether the page has a session to send with: not while it was opened offline and the
   * session has not been checked yet (every change would be refused for want of a token).
   */
  canSend?: () => boolean;
}

/** Runs work alone among this browser's tabs (Web Locks), or alone in this page without them. */
const exclusiveIn = (win: Window, name: string) => {
  let chain: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const locks = win.navigator.locks as LockManager | undefined;
    if (locks) return locks.request(name, work) as Promise<T>;
    const run = chain.then(work, work);
    chain = run.catch(() => undefined);
    return run;
  };
};

const titleOf = (change: QueuedChange, kept: Map<string, string>) =>
  change.fields.title ?? change.made?.title ?? kept.get(change.noteId) ?? '';

export const createOffline = ({
  log,
  window: win = window,
  openDatabase,
  deleteDatabases,
  canSend = () => true,
}: OfflineOptions): Offline => {
  const sendable = () => win.navigator.onLine && canSend();
  const state = createStore<{ online: boolean; pending: readonly PendingChange[] }>({
    online: win.navigator.onLine,
    pending: [],
  });
  let device:
    | (DeviceCopy & {
        subject: string;
        /** The notes and tags calls through this copy. */
        calls: Pick<ApiClient, 'notes' | 'tags'>;
      })
    | undefined;
  let opening: Promise<void> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let retryMs = RETRY_MS;

  /** The pending list, read again from the queue (this tab's changes and other tabs'). */
  let refreshes = 0;
  const refresh = async () => {
    const current = device;
    if (!current) return state.set((s) => ({ ...s, pending: [] }));
    // Reads can finish out of order: only the latest one is shown.
    const mine = (refreshes += 1);
    const queue = await current.outbox.list();
    const kept = new Map<string, string>();
    for (const change of queue) {
      const note =
        change.fields.title === undefined
          ? await current.db.get('notes', change.noteId)
          : undefined;
      if (note) kept.set(change.noteId, note.note.title);
    }
    if (device !== current || mine !== refreshes) return;
    state.set((s) => ({
      ...s,
      pending: queue.map((change) => ({
        noteId: change.noteId,
        kind: change.kind,
        title: titleOf(change, kept),
        state: change.state,
        ...(change.code ? { code: change.code } : {}),
        ...(change.message ? { message: change.message } : {}),
        since: change.since,
      })),
    }));
    if (queue.some((change) => change.state === 'waiting')) askForBackgroundSync();
  };

  /** Where the browser has Background Sync, it wakes the service worker when the network is back. */
  const askForBackgroundSync = () => {
    const workers = win.navigator.serviceWorker as ServiceWorkerContainer | undefined;
    void workers?.ready
      .then((registration) =>
        (
          registration as ServiceWorkerRegistration & {
            sync?: { register: (tag: string) => Promise<void> };
          }
        ).sync?.register(syncTag),
      )
      .catch(() => undefined);
  };

  const stopRetry = () => {
    clearTimeout(retryTimer);
    retryTimer = undefined;
  };

  const sendNow = async (): Promise<void> => {
    stopRetry();
    const current = device ?? (await opening?.then(() => device));
    if (!current || !sendable()) return;
    const outcome = await current.outbox.drain().catch((error: unknown) => {
      log.warn('Sending the changes kept on this device failed.', error);
      return 'stopped' as const;
    });
    if (outcome === 'empty' || device !== current) {
      retryMs = RETRY_MS;
      return;
    }
    // The server could not take them: again later, less often each time.
    retryTimer = setTimeout(() => void sendNow(), retryMs);
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  };

  const onNetwork = () => {
    state.set((s) => ({ ...s, online: win.navigator.onLine }));
    if (win.navigator.onLine) void sendNow();
  };
  win.addEventListener('online', onNetwork);
  win.addEventListener('offline', onNetwork);
  win.navigator.serviceWorker?.addEventListener('message', (event: MessageEvent) => {
    if ((event.data as { type?: unknown } | null)?.type === sendMessage) void sendNow();
  });

  const close = () => {
    stopRetry();
    device?.outbox.close();
    device?.db.close();
    device = undefined;
    opening = undefined;
    state.set((s) => ({ ...s, pending: [] }));
  };

  const open = (subject: string): Promise<void> => {
    if (device?.subject === subject) return opening ?? Promise.resolve();
    close();
    const run = async () => {
      const code = await loadDevice();
      const db = await (openDatabase ?? code.openOfflineDatabase)(subject);
      const channel =
        typeof BroadcastChannel === 'undefined'
          ? undefined
          : (new BroadcastChannel(`noted-outbox:${subject}`) as unknown as TabChannel);
      const outbox = code.createOutbox({
        db,
        server: {
          create: (note) => raw().create(note),
          update: (id, patch) => raw().update(id, patch),
          get: (id) => raw().get(id),
        },
        online: sendable,
        exclusive: exclusiveIn(win, `noted-outbox:${subject}`),
        ...(channel ? { channel } : {}),
        onSent: async (note: Note) => {
          await db.put('notes', { id: note.id, note, seenAt: Date.now() });
        },
        onChanged: () => void refresh(),
      });
      const copy = { db, outbox };
      const api = rawApi();
      device = {
        ...copy,
        subject,
        calls: {
          notes: code.offlineNotes(api.notes, async () => copy),
          tags: code.offlineTags(api.tags, async () => copy),
        },
      };
      await code
        .trimKept(db)
        .catch((error: unknown) => log.warn('Trimming the device copy failed.', error));
      await refresh();
    };
    const started = run();
    opening = started;
    return started
      .then(() => sendNow())
      .catch((error: unknown) => {
        // No IndexedDB (a private window in some browsers): the app works online only.
        log.warn('The device copy of your notes could not be opened.', error);
        if (opening === started) close();
      });
  };

  let wrapped: Pick<ApiClient, 'notes' | 'tags'> | undefined;
  const rawApi = () => {
    if (!wrapped) throw new Error('offline.wrap() has not been given the API client');
    return wrapped;
  };
  const raw = () => rawApi().notes;

  const hear = (message: LiveMessage) => {
    const current = device;
    if (!current) return;
    if (message.type === 'connection') {
      void sendNow();
    } else if (message.type === 'noteDeleted') {
      void current.db.delete('notes', message.noteId).catch(() => undefined);
    } else if (message.type === 'noteUpdated') {
      const { note } = message;
      void current.db
        .get('notes', note.id)
        .then((kept) =>
          // The pushed note carries no capture details: the kept ones stay.
          current.db.put('notes', {
            id: note.id,
            note: { ...kept?.note, ...note } as Note,
            seenAt: Date.now(),
          }),
        )
        .catch(() => undefined);
    }
  };

  return {
    online: () => state.get().online,
    pending: () => state.get().pending,
    subscribe: state.subscribe,
    sendNow,
    keepMine: async (noteId) => {
      const current = device;
      if (!current) return;
      const kept = await current.db.get('notes', noteId);
      await current.outbox.keepMine(noteId, kept?.note);
    },
    discard: async (noteId) => {
      const current = device;
      if (!current) return undefined;
      await current.outbox.discard(noteId);
      const fresh = await raw()
        .get(noteId)
        .catch(() => undefined);
      if (fresh) await current.db.put('notes', { id: fresh.id, note: fresh, seenAt: Date.now() });
      else await current.db.delete('notes', noteId);
      return fresh;
    },
    open,
    close,
    clear: async () => {
      const subject = device?.subject;
      close();
      await (deleteDatabases ?? (await loadDevice()).deleteOfflineDatabases)(subject).catch(
        (error: unknown) => log.warn('Deleting the device copy of your notes failed.', error),
      );
    },
    wrap: (api) => {
      wrapped = api;
      // Signed in, a call goes through the user's copy; one made while the copy opens waits
      // for it (the first list of an offline start); signed out, straight to the server.
      const through = async () =>
        (device ?? (await opening?.catch(() => undefined), device))?.calls ?? api;
      return {
        ...api,
        notes: {
          ...api.notes,
          list: async (query, options) => (await through()).notes.list(query, options),
          get: async (id) => (await through()).notes.get(id),
          create: async (note) => (await through()).notes.create(note),
          update: async (id, patch) => (await through()).notes.update(id, patch),
          remove: async (id) => (await through()).notes.remove(id),
        },
        tags: { ...api.tags, list: async () => (await through()).tags.list() },
      };
    },
    hear,
  };
};
