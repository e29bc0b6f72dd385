import { Router } from 'express';
import { userIdOf } from '@noted/kit';
import type { AiContext } from '../context.js';
import { aiRelated, aiSearch } from './usecases.js';

export const searchRouter = (ctx: AiContext): Router => {
  const router = Router();

  router.get('/ai/note/assist/search', async (req, res) => {
    res.json(await aiSearch(ctx, userIdOf(req), req.query));
  });

  router.get('/ai/note/assist/related', async (req, res) => {
    res.json(await aiRelated(ctx, userIdOf(req), req.query));
  });

  return router;
};
