import { Router } from 'express';
import { userIdOf } from '@noted/kit';
import type { NotesContext } from '../notes/usecases.js';
import { reviewDue, reviewDueOf, reviewMark } from './usecases.js';

/** Mounted before the notes router, whose `/api/notes/:id` would take `/api/notes/review`. */
export const reviewRouter = (ctx: NotesContext): Router => {
  const router = Router();

  router.get('/api/notes/review', async (req, res) => {
    res.json(await reviewDue(ctx, userIdOf(req), req.query));
  });

  router.get('/api/notes-review/:userId', async (req, res) => {
    res.json(await reviewDueOf(ctx, userIdOf(req), req.params, req.query));
  });

  router.post('/api/note/review', async (req, res) => {
    res.json(await reviewMark(ctx, userIdOf(req), req.body));
  });

  return router;
};
