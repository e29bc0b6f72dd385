import type { routes } from '@noted/api';
import type { Handlers } from '@noted/kit';
import type { AiContext } from '../context.js';
import { aiRelated, aiSearch } from './usecases.js';

export const searchHandlers = (
  ctx: AiContext,
): Handlers<Pick<typeof routes, 'aiSearch' | 'aiRelated'>> => ({
  aiSearch: ({ userId, query }) => aiSearch(ctx, userId, query),
  aiRelated: ({ userId, query }) => aiRelated(ctx, userId, query),
});
