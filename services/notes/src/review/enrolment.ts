import { fromBinary } from '@bufbuild/protobuf';
import type { Knex } from 'knex';
import type { EventBus } from '@noted/events';
import type { Logger } from '@noted/kit';
import { notesV1 } from '@noted/proto';
import { noteSubjects } from '../notes/events.js';
import { reviewRepository } from './repository.js';

/** The durable consumer: replicas share it, and it resumes where it stopped. */
export const REVIEW_ENROLMENT_CONSUMER = 'notes-review-enrolment';

/**
 * Gives every new note a review schedule (first due a day after it was written) from its
 * note.created event, off the request that created it. A note deleted meanwhile gets none;
 * a redelivered event changes nothing.
 */
export const startReviewEnrolment = (options: { bus: EventBus; knex: Knex; logger: Logger }) => {
  const subscription = options.bus.subscribe({
    durable: REVIEW_ENROLMENT_CONSUMER,
    subject: noteSubjects.created,
    handler: async (message) => {
      const { note } = fromBinary(notesV1.NoteCreatedSchema, message.data);
      if (!note) return;
      await reviewRepository.enrolNewNote(options.knex, note.userId, note.id);
    },
  });
  subscription.catch((error: unknown) => {
    options.logger.error({ err: error }, 'review enrolment could not subscribe');
  });
  return {
    stop: async () => {
      await (await subscription.catch(() => undefined))?.stop();
    },
  };
};
