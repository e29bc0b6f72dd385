import type { Knex } from 'knex';
import { gatherPerTurn, subscribeWorkers, type EventBus } from '@noted/events';
import type { Logger } from '@noted/kit';
import { noteEvents } from '@noted/proto';
import { reviewRepository, type NewNote } from './repository.js';

/** The durable consumer: replicas share it, and it resumes where it stopped. */
export const REVIEW_ENROLMENT_CONSUMER = 'notes-review-enrolment';

/** Events handled at once per replica; the notes they bring together are enrolled at once. */
export const REVIEW_ENROLMENT_WORKERS = 16;

/**
 * Gives every new note a review schedule (first due `firstDueSeconds`, a day unless set, after
 * it was written) from its note.created event, off the request that created it. A note deleted
 * meanwhile gets none; a redelivered event changes nothing.
 */
export const startReviewEnrolment = (options: {
  bus: EventBus;
  knex: Knex;
  logger: Logger;
  firstDueSeconds: number;
}) => {
  const enrol = gatherPerTurn<NewNote>((notes) =>
    reviewRepository.enrolNewNotes(options.knex, notes, options.firstDueSeconds),
  );
  return subscribeWorkers(options.bus, {
    name: 'review enrolment',
    logger: options.logger,
    workers: REVIEW_ENROLMENT_WORKERS,
    durable: REVIEW_ENROLMENT_CONSUMER,
    subject: noteEvents.created.subject,
    handler: async (message) => {
      const { note } = noteEvents.created.decode(message.data);
      if (!note) return;
      await enrol({ userId: note.userId, noteId: note.id });
    },
  });
};
