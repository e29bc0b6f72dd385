import { Router } from 'express';
import { SummaryPeriodKind } from '@noted/api';
import { userIdOf } from '@noted/kit';
import type { AiContext } from '../context.js';
import { summarizeNote, summarizePeriod } from './usecases.js';

export const summariesRouter = (ctx: AiContext): Router => {
  const router = Router();

  router.post('/ai/note/assist/summarize/note', async (req, res) => {
    res.json(await summarizeNote(ctx, userIdOf(req), req.body));
  });

  router.get('/ai/note/assist/summarize/:kind', async (req, res) => {
    const kind = SummaryPeriodKind.parse(req.params.kind);
    res.json(await summarizePeriod(ctx, userIdOf(req), kind, req.query));
  });

  return router;
};
