import { Router } from 'express';
import { identityOf } from '@noted/kit';
import type { NotesContext } from '../notes/usecases.js';
import { todoSet, todosRecent } from './usecases.js';

export const todosRouter = (ctx: NotesContext): Router => {
  const router = Router();
  const userOf = (req: Parameters<typeof identityOf>[0]) => identityOf(req).userId;

  router.get('/api/todos/recent', async (req, res) => {
    res.json(await todosRecent(ctx, userOf(req), req.query));
  });

  router.put('/api/notes/:id/todos/:index', async (req, res) => {
    res.json(await todoSet(ctx, userOf(req), req.params, req.body));
  });

  return router;
};
