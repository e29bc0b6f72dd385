import { randomUUID } from 'node:crypto';
import { create, toBinary, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import type { Knex } from 'knex';
import { enqueueEvent } from '@noted/db';
import { notesV1 } from '@noted/proto';
import { noteMessage } from './presenter.js';
import type { NoteRow } from './repository.js';

export const noteSubjects = {
  created: 'noted.notes.v1.note.created',
  updated: 'noted.notes.v1.note.updated',
  deleted: 'noted.notes.v1.note.deleted',
} as const;

/** Writes one event to the outbox in the caller's transaction; the relay publishes it. */
const enqueue = <Desc extends DescMessage>(
  trx: Knex.Transaction,
  subject: string,
  schema: Desc,
  fields: (eventId: string) => MessageInitShape<Desc>,
) => {
  const eventId = randomUUID();
  return enqueueEvent(trx, {
    id: eventId,
    subject,
    data: toBinary(schema, create(schema, fields(eventId))),
  });
};

export const noteEvents = {
  created: (trx: Knex.Transaction, row: NoteRow) =>
    enqueue(trx, noteSubjects.created, notesV1.NoteCreatedSchema, (eventId) => ({
      eventId,
      occurredAt: timestampNow(),
      note: noteMessage(row),
    })),
  updated: (trx: Knex.Transaction, row: NoteRow) =>
    enqueue(trx, noteSubjects.updated, notesV1.NoteUpdatedSchema, (eventId) => ({
      eventId,
      occurredAt: timestampNow(),
      note: noteMessage(row),
    })),
  deleted: (trx: Knex.Transaction, row: NoteRow) =>
    enqueue(trx, noteSubjects.deleted, notesV1.NoteDeletedSchema, (eventId) => ({
      eventId,
      occurredAt: timestampNow(),
      noteId: row.id,
      userId: row.user_id,
    })),
};
