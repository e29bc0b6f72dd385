import * as z from 'zod';
import { ok, routesFor } from './contract.js';
import { Note, listOf } from './notes.js';

export const ReviewDueQuery = z
  .object({ limit: z.coerce.number().int().min(1).max(100).default(20) })
  .meta({ id: 'ReviewDueQuery' });
export interface ReviewDueQuery {
  limit?: number;
}

export const ReviewUserParams = z.object({ userId: z.uuid({ message: 'Not a user id' }) });

export const ReviewDueList = listOf(Note).meta({ id: 'ReviewDueList' });
export type ReviewDueList = z.infer<typeof ReviewDueList>;

export const ReviewOutcome = z.enum(['remembered', 'forgot']);
export type ReviewOutcome = z.infer<typeof ReviewOutcome>;

const reviewed = { noteId: z.uuid({ message: 'Not a note id' }) };

/** A review: either how it went (remembered / forgot) or an SM-2 grade, never both. */
export const ReviewMark = z
  .union([
    z.strictObject({ ...reviewed, outcome: ReviewOutcome }),
    z.strictObject({
      ...reviewed,
      grade: z
        .number()
        .int()
        .min(0)
        .max(5)
        .meta({ description: 'SM-2 quality 0-5; remembered is 4 and forgot is 1' }),
    }),
  ])
  .meta({ id: 'ReviewMark' });
export type ReviewMark = z.infer<typeof ReviewMark>;

export const ReviewSchedule = z
  .object({
    noteId: z.uuid(),
    dueAt: z.iso.datetime(),
    intervalDays: z.number().int(),
    repetitions: z.number().int(),
    ease: z.number(),
  })
  .meta({ id: 'ReviewSchedule' });
export type ReviewSchedule = z.infer<typeof ReviewSchedule>;

const reviewApi = routesFor('notes', 'review');

/** The routes of spaced-repetition review. */
export const reviewRoutes = {
  reviewDue: reviewApi.get('/api/notes/review', {
    summary:
      'Notes due for spaced-repetition review (SM-2), most overdue first; notes without ' +
      'a schedule get one, due a day after they were created',
    query: ReviewDueQuery,
    answer: ok(ReviewDueList, 'The due notes'),
  }),
  reviewDueOf: reviewApi.get('/api/notes-review/:userId', {
    summary: 'The same due notes by user id; any id but the caller’s own answers 404',
    params: ReviewUserParams,
    query: ReviewDueQuery,
    answer: ok(ReviewDueList, 'The due notes'),
    errors: [404],
  }),
  reviewMark: reviewApi.post('/api/note/review', {
    summary: 'Record a review (remembered / forgot, or an SM-2 grade 0-5) and reschedule',
    body: ReviewMark,
    answer: ok(ReviewSchedule, 'The new schedule'),
    errors: [404],
  }),
};
