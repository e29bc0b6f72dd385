import { randomUUID } from 'node:crypto';
import { create, toBinary, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import { enqueueEvent, type EventTransaction, type OutboxEvent } from '@noted/db';
import { notesV1 } from '@noted/proto';
import { noteMessage } from './presenter.js';
import type { NoteRow } from './repository.js';

export const noteSubjects = {
  created: 'noted.notes.v1.note.created',
  updated: 'noted.notes.v1.note.updated',
  deleted: 'noted.notes.v1.note.deleted',
} as const;

/** One event for the outbox: its id, subject and protobuf payload. */
const event = <Desc extends DescMessage>(
  subject: string,
  schema: Desc,
  fields: (eventId: string) => MessageInitShape<Desc>,
): OutboxEvent => {
  const eventId = randomUUID();
  return { id: eventId, subject, data: toBinary(schema, create(schema, fields(eventId))) };
};

/** The events of a note, for `enqueueEvent` or `writeWithEvent`. */
export const noteEventOf = {
  created: (row: NoteRow) =>
    event(noteSubjects.created, notesV1.NoteCreatedSchema, (eventId) => ({
      eventId,
      occurredAt: timestampNow(),
      note: noteMessage(row),
    })),
  updated: (row: NoteRow) =>
    event(noteSubjects.updated, notesV1.NoteUpdatedSchema, (eventId) => ({
      eventId,
      occurredAt: timestampNow(),
      note: noteMessage(row),
    })),
  deleted: (row: NoteRow) =>
    event(noteSubjects.deleted, notesV1.NoteDeletedSchema, (eventId) => ({
      eventId,
      occurredAt: timestampNow(),
      noteId: row.id,
      userId: row.user_id,
    })),
};

/** Writes a note's event to the outbox in the caller's transaction; the relay publishes it. */
export const noteEvents = {
  created: (trx: EventTransaction, row: NoteRow) => enqueueEvent(trx, noteEventOf.created(row)),
  updated: (trx: EventTransaction, row: NoteRow) => enqueueEvent(trx, noteEventOf.updated(row)),
  deleted: (trx: EventTransaction, row: NoteRow) => enqueueEvent(trx, noteEventOf.deleted(row)),
};
