import { randomUUID } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate, timestampNow } from '@bufbuild/protobuf/wkt';
import type { EventBus } from '@noted/events';
import { noteEvents, notesV1 } from '@noted/proto';
import type { NotesClient } from '../notes-client.js';

/**
 * The notes service as the ai service sees it, in memory: the notes a rebuild scans (in id
 * order, as ScanNotes pages them) and GetNotes reads, and the events the real service
 * publishes after each change commits. Like the real one, a note's `updatedAt` moves past
 * its previous version on every edit, and a deleted note never comes back.
 */
export const createNotesStore = (options: { bus: EventBus }) => {
  const notes = new Map<string, notesV1.Note>();
  const deleted = new Map<string, string>();
  let clock = 0;
  // The real time, but always past the last one, as the notes service stamps versions.
  const tick = () => (clock = Math.max(clock + 1, Date.now()));
  let published = 0;
  let onScan: ((page: notesV1.Note[]) => Promise<void>) | undefined;

  const publish = async (subject: string, data: Uint8Array) => {
    published += 1;
    await options.bus.publish(subject, data, { id: randomUUID() });
  };
  const changed = (
    event: typeof noteEvents.created | typeof noteEvents.updated,
    note: notesV1.Note,
  ) =>
    publish(
      event.subject,
      event.encode({ eventId: randomUUID(), occurredAt: timestampNow(), note }),
    );

  return {
    create: async (fields: { userId: string; id?: string; body?: string; tags?: string[] }) => {
      const at = timestampFromDate(new Date(tick()));
      const note = create(notesV1.NoteSchema, {
        id: fields.id ?? randomUUID(),
        userId: fields.userId,
        title: 'Field notes',
        body: fields.body ?? `First draft ${randomUUID()}`,
        tags: fields.tags ?? [],
        createdAt: at,
        updatedAt: at,
      });
      notes.set(note.id, note);
      await changed(noteEvents.created, note);
      return note;
    },
    edit: async (id: string, body = `Edited ${randomUUID()}`) => {
      const before = notes.get(id);
      if (!before) throw new Error(`no note ${id}`);
      const note = create(notesV1.NoteSchema, {
        ...before,
        body,
        updatedAt: timestampFromDate(new Date(tick())),
      });
      notes.set(id, note);
      await changed(noteEvents.updated, note);
      return note;
    },
    remove: async (id: string) => {
      const note = notes.get(id);
      if (!note) throw new Error(`no note ${id}`);
      notes.delete(id);
      deleted.set(id, note.userId);
      await publish(
        noteEvents.deleted.subject,
        noteEvents.deleted.encode({
          eventId: randomUUID(),
          occurredAt: timestampNow(),
          noteId: id,
          userId: note.userId,
        }),
      );
    },
    /** Publishes an event of a version already past (a late or redelivered one). */
    replay: (note: notesV1.Note) => changed(noteEvents.updated, note),
    live: () => [...notes.values()],
    deleted: () => [...deleted.keys()],
    /** Events published so far. */
    published: () => published,
    /**
     * Runs once ScanNotes has read a page and before it answers: what it does happens after
     * the read, while the caller has not seen the page yet.
     */
    onScan: (hook: ((page: notesV1.Note[]) => Promise<void>) | undefined) => {
      onScan = hook;
    },
    client: {
      scan: async (
        afterId: string,
        limit: number,
        userId = '',
        options: { updatedBefore?: Date; skipTotal?: boolean } = {},
      ) => {
        const before = options.updatedBefore?.getTime() ?? Infinity;
        const owned = [...notes.values()].filter(
          (note) =>
            (!userId || note.userId === userId) &&
            (note.updatedAt ? timestampDate(note.updatedAt).getTime() : 0) <= before,
        );
        const page = owned
          .filter((note) => note.id > afterId)
          .sort((a, b) => (a.id < b.id ? -1 : 1))
          .slice(0, limit);
        await onScan?.(page);
        return { notes: page, total: options.skipTotal ? 0 : owned.length };
      },
      many: async (userId: string, noteIds: string[]) =>
        noteIds.flatMap((id) => {
          const note = notes.get(id);
          return note && note.userId === userId ? [note] : [];
        }),
    } as unknown as NotesClient,
  };
};

export type NotesStore = ReturnType<typeof createNotesStore>;
