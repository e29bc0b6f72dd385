import { fromBinary } from '@bufbuild/protobuf';
import type { Knex } from 'knex';
import type { EventBus } from '@noted/events';
import type { Logger } from '@noted/kit';
import { notesV1 } from '@noted/proto';
import { noteSubjects } from '../notes/events.js';
import { reviewRepository, type NewNote } from './repository.js';

/** The durable consumer: replicas share it, and it resumes where it stopped. */
export const REVIEW_ENROLMENT_CONSUMER = 'notes-review-enrolment';

/**
 * Events handled at once per replica. The bus hands each subscription one event at a time, so
 * several subscriptions share the durable consumer, and the notes they bring together are
 * enrolled by one statement instead of one each.
 */
export const REVIEW_ENROLMENT_WORKERS = 16;

/**
 * Gathers the notes handed in during one turn of the event loop and enrols them with one
 * statement; every caller learns that statement's outcome, so a failure redelivers them all.
 */
const enrolTogether = (knex: Knex) => {
  let batch: { notes: NewNote[]; enrolled: Promise<void> } | undefined;
  return (note: NewNote): Promise<void> => {
    if (!batch) {
      const notes: NewNote[] = [];
      const enrolled = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        batch = undefined;
        return reviewRepository.enrolNewNotes(knex, notes);
      });
      batch = { notes, enrolled };
    }
    batch.notes.push(note);
    return batch.enrolled;
  };
};

/**
 * Gives every new note a review schedule (first due a day after it was written) from its
 * note.created event, off the request that created it. A note deleted meanwhile gets none;
 * a redelivered event changes nothing.
 */
export const startReviewEnrolment = (options: { bus: EventBus; knex: Knex; logger: Logger }) => {
  const enrol = enrolTogether(options.knex);
  const subscriptions = Array.from({ length: REVIEW_ENROLMENT_WORKERS }, () =>
    options.bus.subscribe({
      durable: REVIEW_ENROLMENT_CONSUMER,
      subject: noteSubjects.created,
      handler: async (message) => {
        const { note } = fromBinary(notesV1.NoteCreatedSchema, message.data);
        if (!note) return;
        await enrol({ userId: note.userId, noteId: note.id });
      },
    }),
  );
  const subscribed = Promise.all(subscriptions);
  subscribed.catch((error: unknown) => {
    options.logger.error({ err: error }, 'review enrolment could not subscribe');
  });
  return {
    stop: async () => {
      const started = await Promise.allSettled(subscriptions);
      await Promise.all(
        started.map((result) => (result.status === 'fulfilled' ? result.value.stop() : undefined)),
      );
    },
  };
};
