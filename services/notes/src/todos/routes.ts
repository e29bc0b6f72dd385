import { Router } from 'express';
import { userIdOf } from '@noted/kit';
import type { NotesContext } from '../notes/usecases.js';
import { todoSet, todosRecent } from './usecases.js';

export const todosRouter = (ctx: NotesContext): Router => {
  const router = Router();

  router.get('/api/todos/recent', async (req, res) => {
    res.json(await todosRecent(ctx, userIdOf(req), req.query));
  });

  router.put('/api/notes/:id/todos/:index', async (req, res) => {
    res.json(await todoSet(ctx, userIdOf(req), req.params, req.body));
  });

  return router;
};
