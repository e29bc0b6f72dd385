import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { enqueueEvent, outboxEvent, type UnitOfWork } from '@noted/db';
import type { Logger } from '@noted/kit';
import { reviewEvents, userEventHeaders } from '@noted/proto';
import { noteMessage } from '../notes/presenter.js';
import type { NoteRow } from '../notes/repository.js';
import { reviewRepository } from './repository.js';

/** One key for every replica; hashed like the migration lock so services do not collide. */
const LEADER_LOCK = 'noted:notes:review-scheduler';
/** Schedules announced per run; the rest wait for the next run. */
const DEFAULT_BATCH = 200;

export interface ReviewRun {
  /** False when another replica held the lock and this run did nothing. */
  leader: boolean;
  events: number;
  notes: number;
}

/**
 * Announces the schedules that fell due since they were last announced: one ReviewDue event
 * per user through the outbox, and the schedules marked, in one transaction that holds the
 * leader lock, so replicas never announce the same schedule twice.
 */
export const reviewAnnounceDue = async (
  unitOfWork: UnitOfWork,
  options: { now?: Date; batch?: number } = {},
): Promise<ReviewRun> => {
  const now = options.now ?? new Date();
  return unitOfWork(async (trx) => {
    if (!(await reviewRepository.tryLeaderLock(trx, LEADER_LOCK))) {
      return { leader: false, events: 0, notes: 0 };
    }
    const due = await reviewRepository.unnotified(trx, now, options.batch ?? DEFAULT_BATCH);
    const byUser = new Map<string, NoteRow[]>();
    for (const note of due) byUser.set(note.user_id, [...(byUser.get(note.user_id) ?? []), note]);
    for (const [userId, notes] of byUser) {
      await enqueueEvent(
        trx,
        outboxEvent(
          reviewEvents.due,
          (eventId) => ({
            eventId,
            occurredAt: timestampFromDate(now),
            userId,
            notes: notes.map(noteMessage),
          }),
          userEventHeaders(userId),
        ),
      );
    }
    if (due.length > 0) {
      await reviewRepository.markNotified(
        trx,
        due.map((note) => note.id),
        now,
      );
    }
    return { leader: true, events: byUser.size, notes: due.length };
  });
};

export interface ReviewScheduler {
  /** One run now (waits for a run already in flight first). */
  runOnce: () => Promise<ReviewRun>;
  /** Stops the timer and waits for a run in flight. */
  stop: () => Promise<void>;
}

export const startReviewScheduler = (options: {
  unitOfWork: UnitOfWork;
  logger: Logger;
  intervalMs: number;
  batch?: number;
}): ReviewScheduler => {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<ReviewRun> | undefined;
  let stopped = false;

  const run = async (): Promise<ReviewRun> => {
    const result = await reviewAnnounceDue(
      options.unitOfWork,
      options.batch ? { batch: options.batch } : {},
    );
    if (result.events > 0) {
      options.logger.info({ events: result.events, notes: result.notes }, 'review due announced');
    }
    return result;
  };

  const runOnce = async (): Promise<ReviewRun> => {
    while (running) await running.catch(() => undefined);
    running = run();
    try {
      return await running;
    } finally {
      running = undefined;
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      runOnce()
        .catch((error: unknown) => {
          options.logger.error({ err: error }, 'review scheduler run failed');
        })
        .finally(schedule);
    }, options.intervalMs);
    timer.unref();
  };
  schedule();

  return {
    runOnce,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
};
