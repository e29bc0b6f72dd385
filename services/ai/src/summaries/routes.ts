import type { routes } from '@noted/api';
import type { Handlers } from '@noted/kit';
import type { AiContext } from '../context.js';
import { summarizeNote, summarizePeriod } from './usecases.js';

export const summaryHandlers = (
  ctx: AiContext,
): Handlers<Pick<typeof routes, 'aiSummarizeNote' | 'aiSummarizePeriod'>> => ({
  aiSummarizeNote: ({ userId, body }) => summarizeNote(ctx, userId, body),
  aiSummarizePeriod: ({ userId, params, query }) =>
    summarizePeriod(ctx, userId, params.kind, query),
});
