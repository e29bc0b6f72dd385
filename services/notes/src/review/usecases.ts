import type { ReviewDueQuery, ReviewMark, ReviewUserParams } from '@noted/api';
import { AppError, type ReviewDueList, type ReviewSchedule, type Parsed } from '@noted/api';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { enqueueEvent, outboxEvent } from '@noted/db';
import { reviewEvents, userEventHeaders } from '@noted/proto';
import { presentNote } from '../notes/presenter.js';
import type { NotesContext, ReviewContext } from '../context.js';
import { reviewRepository, type ReviewRow } from './repository.js';
import { outcomeGrades, sm2 } from './sm2.js';

/** Notes given a schedule per request, so a user with many notes is enrolled over time. */
const ENROL_AT_MOST = 500;

const presentSchedule = (row: ReviewRow): ReviewSchedule => ({
  noteId: row.note_id,
  dueAt: row.due_at.toISOString(),
  intervalDays: row.interval_days,
  repetitions: row.repetitions,
  ease: Number(row.ease),
});

/**
 * The user's notes due for review, most overdue first. Notes without a schedule get one
 * here (first due as the enrolment consumer makes it), so every note enters review without
 * a step.
 */
export const reviewDue = async (
  ctx: ReviewContext,
  userId: string,
  query: Parsed<typeof ReviewDueQuery>,
  now: Date = new Date(),
): Promise<ReviewDueList> => {
  const { limit } = query;
  await reviewRepository.enrol(ctx.knex, userId, ENROL_AT_MOST, ctx.reviewFirstDueSeconds);
  const rows = await reviewRepository.due(ctx.knex, userId, now, limit);
  return { items: rows.map(presentNote), total: rows.length, page: 1, limit };
};

/** The same list for `notes-review/{userId}`: only the caller's own id answers. */
export const reviewDueOf = async (
  ctx: ReviewContext,
  callerId: string,
  params: Parsed<typeof ReviewUserParams>,
  query: Parsed<typeof ReviewDueQuery>,
  now: Date = new Date(),
): Promise<ReviewDueList> => {
  const { userId } = params;
  if (userId !== callerId) throw new AppError('NOT_FOUND', 'There is no such user');
  return reviewDue(ctx, callerId, query, now);
};

/** The ReviewMarked event of a review with the grade it was given and the schedule it made. */
const reviewMarkedEvent = (row: ReviewRow, grade: number, now: Date) =>
  outboxEvent(
    reviewEvents.marked,
    (eventId) => ({
      eventId,
      occurredAt: timestampFromDate(now),
      userId: row.user_id,
      noteId: row.note_id,
      grade,
      dueAt: timestampFromDate(row.due_at),
      intervalDays: row.interval_days,
      repetitions: row.repetitions,
      ease: Number(row.ease),
    }),
    userEventHeaders(row.user_id),
  );

/**
 * Records a review of one of the user's notes and reschedules it by SM-2, announcing it
 * (review.marked) in the same transaction, as every change is.
 */
export const reviewMark = async (
  ctx: NotesContext,
  userId: string,
  input: Parsed<typeof ReviewMark>,
  now: Date = new Date(),
): Promise<ReviewSchedule> => {
  const { noteId } = input;
  const quality = 'grade' in input ? input.grade : outcomeGrades[input.outcome];
  const row = await ctx.unitOfWork(async (trx) => {
    await reviewRepository.enrolNote(trx, userId, noteId, now);
    const current = await reviewRepository.lock(trx, userId, noteId);
    if (!current) throw new AppError('NOT_FOUND', 'There is no such note');
    const next = sm2(
      {
        repetitions: current.repetitions,
        intervalDays: current.interval_days,
        ease: Number(current.ease),
      },
      quality,
      now,
    );
    const rescheduled = await reviewRepository.reschedule(trx, userId, noteId, { ...next, now });
    await enqueueEvent(trx, reviewMarkedEvent(rescheduled, quality, now));
    return rescheduled;
  });
  return presentSchedule(row);
};
