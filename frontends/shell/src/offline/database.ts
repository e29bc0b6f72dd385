import type { Note } from '@noted/api';
import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';

/** A note as last read from the server (or made here), and when this device last saw it. */
export interface KeptNote {
  id: string;
  note: Note;
  seenAt: number;
}

/** The fields a queued change sets. */
export interface ChangeFields {
  title?: string;
  note?: string;
  tags?: string[];
}

/**
 * One change waiting to be sent, in the order of `seq`. A create carries the note as made
 * here (its id chosen here, so a create sent twice makes one note); an update carries the
 * version it was made on (`base`, undefined to overwrite).
 */
export interface QueuedChange {
  seq?: number;
  noteId: string;
  kind: 'create' | 'update';
  fields: ChangeFields;
  base?: string;
  state: 'waiting' | 'sending' | 'conflict' | 'refused';
  code?: string;
  message?: string;
  since: string;
  /** A create: the note as made on this device. */
  made?: Note;
}

/**
 * The versions of a note this device's own queued changes produced: an update made on any of
 * `own` is made on `head`, since nothing but this device's changes came in between.
 */
export interface OwnVersions {
  noteId: string;
  own: string[];
  head: string;
}

interface OfflineSchema extends DBSchema {
  notes: { key: string; value: KeptNote; indexes: { seenAt: number } };
  outbox: { key: number; value: QueuedChange; indexes: { noteId: string } };
  versions: { key: string; value: OwnVersions };
}

export type OfflineDatabase = IDBPDatabase<OfflineSchema>;

const prefix = 'noted-offline:';

/** One database per user of this browser, named by the identity provider's subject. */
export const databaseName = (subject: string) => `${prefix}${subject}`;

export const openOfflineDatabase = (subject: string): Promise<OfflineDatabase> =>
  openDB<OfflineSchema>(databaseName(subject), 1, {
    upgrade: (db) => {
      db.createObjectStore('notes', { keyPath: 'id' }).createIndex('seenAt', 'seenAt');
      db.createObjectStore('outbox', { keyPath: 'seq', autoIncrement: true }).createIndex(
        'noteId',
        'noteId',
      );
      db.createObjectStore('versions', { keyPath: 'noteId' });
    },
    // Another tab upgrading or deleting the database: this one lets go at once.
    blocking: (_current, _next, event) => (event.target as IDBDatabase | null)?.close(),
  });

/**
 * Deletes every user's copy on this browser (signing out), or `subject`'s alone where the
 * browser cannot list its databases.
 */
export const deleteOfflineDatabases = async (subject?: string): Promise<void> => {
  const listed = await indexedDB.databases?.().catch(() => undefined);
  const names = listed
    ? listed.map(({ name }) => name ?? '').filter((name) => name.startsWith(prefix))
    : subject
      ? [databaseName(subject)]
      : [];
  await Promise.all(names.map((name) => deleteDB(name)));
};
