import {
  AppError,
  ReviewDueQuery,
  ReviewMark,
  ReviewUserParams,
  type ReviewDueList,
  type ReviewSchedule,
} from '@noted/api';
import { presentNote } from '../notes/presenter.js';
import type { NotesContext } from '../notes/usecases.js';
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
 * here (due a day after they were created), so every note enters review without a step.
 */
export const reviewDue = async (
  ctx: NotesContext,
  userId: string,
  query: unknown,
  now: Date = new Date(),
): Promise<Required<ReviewDueList>> => {
  const { limit } = ReviewDueQuery.parse(query);
  await reviewRepository.enrol(ctx.knex, userId, ENROL_AT_MOST);
  const rows = await reviewRepository.due(ctx.knex, userId, now, limit);
  return { items: rows.map(presentNote), total: rows.length, page: 1, limit };
};

/** The same list for `notes-review/{userId}`: only the caller's own id answers. */
export const reviewDueOf = async (
  ctx: NotesContext,
  callerId: string,
  params: unknown,
  query: unknown,
  now: Date = new Date(),
): Promise<Required<ReviewDueList>> => {
  const { userId } = ReviewUserParams.parse(params);
  if (userId !== callerId) throw new AppError('NOT_FOUND', 'There is no such user');
  return reviewDue(ctx, callerId, query, now);
};

/** Records a review of one of the user's notes and reschedules it by SM-2. */
export const reviewMark = async (
  ctx: NotesContext,
  userId: string,
  input: unknown,
  now: Date = new Date(),
): Promise<ReviewSchedule> => {
  const { noteId, outcome, grade } = ReviewMark.parse(input);
  const quality = grade ?? outcomeGrades[outcome ?? 'forgot'];
  const row = await ctx.knex.transaction(async (trx) => {
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
    return reviewRepository.reschedule(trx, userId, noteId, { ...next, now });
  });
  return presentSchedule(row);
};
