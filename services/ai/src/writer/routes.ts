import { Router } from 'express';
import { userIdOf } from '@noted/kit';
import type { AiContext } from '../context.js';
import { streamEvents } from '../sse.js';
import { writerAskPrepare, writerAssistPrepare, writerStream } from './usecases.js';

export const writerRouter = (ctx: AiContext): Router => {
  const router = Router();

  // Checked before the stream opens, so a bad request or a missing model is a plain error.
  router.post('/ai/writer/assist', async (req, res) => {
    const userId = userIdOf(req);
    const prepared = await writerAssistPrepare(ctx, userId, req.body);
    await streamEvents(
      req,
      res,
      ctx.logger,
      (send, signal) => writerStream(ctx, userId, prepared, send, signal),
      ctx.streams.acquire(userId),
    );
  });

  router.post('/ai/writer/askai', async (req, res) => {
    const userId = userIdOf(req);
    const prepared = await writerAskPrepare(ctx, userId, req.body);
    await streamEvents(
      req,
      res,
      ctx.logger,
      (send, signal) => writerStream(ctx, userId, prepared, send, signal),
      ctx.streams.acquire(userId),
    );
  });

  return router;
};
