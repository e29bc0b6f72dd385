import { Router } from 'express';
import { identityOf } from '@noted/kit';
import type { NotesContext } from '../notes/usecases.js';
import { tagDelete, tagList, tagRename } from './usecases.js';

export const tagsRouter = (ctx: NotesContext): Router => {
  const router = Router();
  const userOf = (req: Parameters<typeof identityOf>[0]) => identityOf(req).userId;

  router.get('/api/tags', async (req, res) => {
    res.json(await tagList(ctx, userOf(req)));
  });

  router.put('/api/tags/:tag', async (req, res) => {
    res.json(await tagRename(ctx, userOf(req), req.params, req.body));
  });

  router.delete('/api/tags/:tag', async (req, res) => {
    await tagDelete(ctx, userOf(req), req.params);
    res.status(204).end();
  });

  return router;
};
