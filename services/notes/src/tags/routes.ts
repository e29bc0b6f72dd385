import { Router } from 'express';
import { userIdOf } from '@noted/kit';
import type { NotesContext } from '../notes/usecases.js';
import { tagDelete, tagList, tagRename } from './usecases.js';

export const tagsRouter = (ctx: NotesContext): Router => {
  const router = Router();

  router.get('/api/tags', async (req, res) => {
    res.json(await tagList(ctx, userIdOf(req)));
  });

  router.put('/api/tags/:tag', async (req, res) => {
    res.json(await tagRename(ctx, userIdOf(req), req.params, req.body));
  });

  router.delete('/api/tags/:tag', async (req, res) => {
    await tagDelete(ctx, userIdOf(req), req.params);
    res.status(204).end();
  });

  return router;
};
