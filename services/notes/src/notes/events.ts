import { randomUUID } from 'node:crypto';
import { create, toBinary } from '@bufbuild/protobuf';
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

/** Events are written to the outbox in the caller's transaction; the relay publishes them. */
export const noteEvents = {
  created: (trx: Knex.Transaction, row: NoteRow) => {
    const eventId = randomUUID();
    const event = create(notesV1.NoteCreatedSchema, {
      eventId,
      occurredAt: timestampNow(),
      note: noteMessage(row),
    });
    return enqueueEvent(trx, {
      id: eventId,
      subject: noteSubjects.created,
      data: toBinary(notesV1.NoteCreatedSchema, event),
    });
  },
  updated: (trx: Knex.Transaction, row: NoteRow) => {
    const eventId = randomUUID();
    const event = create(notesV1.NoteUpdatedSchema, {
      eventId,
      occurredAt: timestampNow(),
      note: noteMessage(row),
    });
    return enqueueEvent(trx, {
      id: eventId,
      subject: noteSubjects.updated,
      data: toBinary(notesV1.NoteUpdatedSchema, event),
    });
  },
  deleted: (trx: Knex.Transaction, row: NoteRow) => {
    const eventId = randomUUID();
    const event = create(notesV1.NoteDeletedSchema, {
      eventId,
      occurredAt: timestampNow(),
      noteId: row.id,
      userId: row.user_id,
    });
    return enqueueEvent(trx, {
      id: eventId,
      subject: noteSubjects.deleted,
      data: toBinary(notesV1.NoteDeletedSchema, event),
    });
  },
};
