import type { Request, Response } from 'express';
import type { routes } from '@noted/api';
import type { Handlers } from '@noted/kit';
import type { AiContext } from '../context.js';
import { streamEvents } from '../sse.js';
import {
  writerAskPrepare,
  writerAssistPrepare,
  writerStream,
  type PreparedWriting,
} from './usecases.js';

type WriterRoutes = Pick<typeof routes, 'aiWriterAssist' | 'aiWriterAskAi'>;

/** Streams what was prepared: a bad request or a missing model is a plain error before this. */
const stream = (
  ctx: AiContext,
  { userId, req, res }: { userId: string; req: Request; res: Response },
  prepared: PreparedWriting,
) =>
  streamEvents(
    req,
    res,
    ctx.logger,
    (send, signal) => writerStream(ctx, userId, prepared, send, signal),
    ctx.streams.acquire(userId),
  );

export const writerHandlers = (ctx: AiContext): Handlers<WriterRoutes> => ({
  aiWriterAssist: async (input) =>
    stream(ctx, input, await writerAssistPrepare(ctx, input.userId, input.body)),
  aiWriterAskAi: async (input) =>
    stream(ctx, input, await writerAskPrepare(ctx, input.userId, input.body)),
});
