import { Router } from 'express';
import { userIdOf } from '@noted/kit';
import type { AiContext } from '../context.js';
import { aiSettingsGet, aiSettingsUpdate } from './usecases.js';

export const settingsRouter = (ctx: AiContext): Router => {
  const router = Router();

  router.get('/ai/settings', async (req, res) => {
    res.json(await aiSettingsGet(ctx, userIdOf(req)));
  });

  router.put('/ai/settings', async (req, res) => {
    res.json(await aiSettingsUpdate(ctx, userIdOf(req), req.body));
  });

  return router;
};
