import type { reviewRoutes } from '@noted/api';
import type { Handlers } from '@noted/kit';
import type { ReviewContext } from '../context.js';
import { reviewDue, reviewDueOf, reviewMark } from './usecases.js';

export const reviewHandlers = (ctx: ReviewContext): Handlers<typeof reviewRoutes> => ({
  reviewDue: ({ userId, query }) => reviewDue(ctx, userId, query),
  reviewDueOf: ({ userId, params, query }) => reviewDueOf(ctx, userId, params, query),
  reviewMark: ({ userId, body }) => reviewMark(ctx, userId, body),
});
