import { Router } from 'express';
import { userIdOf } from '@noted/kit';
import type { AiContext } from '../context.js';
import { streamEvents } from '../sse.js';
import {
  writerAskPrepare,
  writerAssistPrepare,
  writerStream,
  type PreparedWriting,
} from './usecases.js';

const writers: [
  string,
  (ctx: AiContext, userId: string, body: unknown) => Promise<PreparedWriting>,
][] = [
  ['/ai/writer/assist', writerAssistPrepare],
  ['/ai/writer/askai', writerAskPrepare],
];

export const writerRouter = (ctx: AiContext): Router => {
  const router = Router();
  for (const [path, prepare] of writers) {
    // Checked before the stream opens, so a bad request or a missing model is a plain error.
    router.post(path, async (req, res) => {
      const userId = userIdOf(req);
      const prepared = await prepare(ctx, userId, req.body);
      await streamEvents(
        req,
        res,
        ctx.logger,
        (send, signal) => writerStream(ctx, userId, prepared, send, signal),
        ctx.streams.acquire(userId),
      );
    });
  }
  return router;
};
