import { Router } from 'express';
import { userIdOf } from '@noted/kit';
import type { AiContext } from '../context.js';
import { streamEvents } from '../sse.js';
import { chatAnswer, chatGet, chatList, chatRemove } from './usecases.js';

export const chatRouter = (ctx: AiContext): Router => {
  const router = Router();

  router.post('/api/knowledge/chat/answer', async (req, res) => {
    // The question and the conversation are checked before the stream opens.
    const userId = userIdOf(req);
    const answer = await chatAnswer(ctx, userId, req.body);
    await streamEvents(req, res, ctx.logger, answer, ctx.streams.acquire(userId));
  });

  router.get('/api/knowledge/chat/history', async (req, res) => {
    res.json(await chatList(ctx, userIdOf(req), req.query));
  });

  router.get('/api/knowledge/chat/history/:chatId', async (req, res) => {
    res.json(await chatGet(ctx, userIdOf(req), req.params));
  });

  router.delete('/api/knowledge/chat/history/:chatId', async (req, res) => {
    await chatRemove(ctx, userIdOf(req), req.params);
    res.status(204).end();
  });

  return router;
};
