import type { Knex } from 'knex';
import { subscribeWorkers, type EventBus } from '@noted/events';
import { startPeriodic, type Logger } from '@noted/kit';
import { noteEvents } from '@noted/proto';
import { NOTES_PER_MONTH, quotaReservationsPrune, quotaSettle } from './usecases.js';

/** The durable consumers: replicas share them, and they resume where they stopped. */
export const NOTE_QUOTA_CONSUMER = 'users-note-quota';
export const NOTE_QUOTA_DELETED_CONSUMER = 'users-note-quota-deleted';

/**
 * Settles the unit a note was charged, keyed by its id, from its `note.created` event, which
 * the notes service writes in the note's own transaction: a note that committed is charged
 * for good (again, if its charge had been given back), one that did not never settles and is
 * released by the notes service's sweep. `note.deleted` proves the note existed just as well:
 * it settles the charge too, then forgets it, so a note made again with that id is a new note
 * and charged. Delivered twice, an event changes nothing. Settled and released charges are
 * forgotten after a week.
 */
export const startNoteQuotaSettlement = (options: {
  bus: EventBus;
  knex: Knex;
  logger: Logger;
}) => {
  const settle = async (userId: string, noteId: string, forget: boolean) => {
    const { recharged } = await quotaSettle(options, {
      userId,
      feature: NOTES_PER_MONTH,
      refs: [noteId],
      forget,
    });
    if (recharged > 0) {
      options.logger.warn(
        { userId, noteId },
        'a note whose unit had been given back was made after all: charged again',
      );
    }
  };
  const created = subscribeWorkers(options.bus, {
    name: 'note quota settlement',
    logger: options.logger,
    workers: 4,
    durable: NOTE_QUOTA_CONSUMER,
    subject: noteEvents.created.subject,
    handler: async (message) => {
      const { note } = noteEvents.created.decode(message.data);
      if (note) await settle(note.userId, note.id, false);
    },
  });
  const deleted = subscribeWorkers(options.bus, {
    name: 'note quota settlement (deleted notes)',
    logger: options.logger,
    workers: 2,
    durable: NOTE_QUOTA_DELETED_CONSUMER,
    subject: noteEvents.deleted.subject,
    handler: async (message) => {
      const { noteId, userId } = noteEvents.deleted.decode(message.data);
      if (noteId && userId) await settle(userId, noteId, true);
    },
  });
  const pruning = startPeriodic({
    name: 'pruning settled quota charges',
    intervalMs: 3600_000,
    firstDelayMs: 120_000,
    logger: options.logger,
    run: async () => {
      await quotaReservationsPrune(options);
    },
  });
  return {
    stop: async () => {
      await Promise.all([created.stop(), deleted.stop(), pruning.stop()]);
    },
  };
};
