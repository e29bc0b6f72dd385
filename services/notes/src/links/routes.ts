import { Router } from 'express';
import { userIdOf } from '@noted/kit';
import type { NotesContext } from '../notes/usecases.js';
import { noteLinkAdd, noteLinkRemove, noteLinksGet } from './usecases.js';

export const linksRouter = (ctx: NotesContext): Router => {
  const router = Router();

  router.get('/api/notes/:id/links', async (req, res) => {
    res.json(await noteLinksGet(ctx, userIdOf(req), req.params));
  });

  router.post('/api/note/addlink', async (req, res) => {
    res.json(await noteLinkAdd(ctx, userIdOf(req), req.body));
  });

  router.post('/api/note/removelink', async (req, res) => {
    res.json(await noteLinkRemove(ctx, userIdOf(req), req.body));
  });

  return router;
};
