import { timestampNow } from '@bufbuild/protobuf/wkt';
import { enqueueEvent, outboxEvent, type EventTransaction } from '@noted/db';
import { noteEvents, userEventHeaders } from '@noted/proto';
import { noteMessage } from './presenter.js';
import type { NoteRow } from './repository.js';

/** The events of a note (declared in `@noted/proto`), for `enqueueEvent` or `writeWithEvent`. */
export const noteEventOf = {
  created: (row: NoteRow) =>
    outboxEvent(
      noteEvents.created,
      (eventId) => ({
        eventId,
        occurredAt: timestampNow(),
        note: noteMessage(row),
      }),
      userEventHeaders(row.user_id),
    ),
  updated: (row: NoteRow) =>
    outboxEvent(
      noteEvents.updated,
      (eventId) => ({
        eventId,
        occurredAt: timestampNow(),
        note: noteMessage(row),
      }),
      userEventHeaders(row.user_id),
    ),
  deleted: (row: NoteRow) =>
    outboxEvent(
      noteEvents.deleted,
      (eventId) => ({
        eventId,
        occurredAt: timestampNow(),
        noteId: row.id,
        userId: row.user_id,
      }),
      userEventHeaders(row.user_id),
    ),
};

/** Writes a note's event to the outbox in the unit of work; the relay publishes it. */
export const noteOutbox = {
  created: (trx: EventTransaction, row: NoteRow) => enqueueEvent(trx, noteEventOf.created(row)),
  updated: (trx: EventTransaction, row: NoteRow) => enqueueEvent(trx, noteEventOf.updated(row)),
  deleted: (trx: EventTransaction, row: NoteRow) => enqueueEvent(trx, noteEventOf.deleted(row)),
};
