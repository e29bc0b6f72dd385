import { Router } from 'express';
import { identityOf } from '@noted/kit';
import type { NotesContext } from '../notes/usecases.js';
import { noteLinkAdd, noteLinkRemove, noteLinksGet } from './usecases.js';

export const linksRouter = (ctx: NotesContext): Router => {
  const router = Router();
  const userOf = (req: Parameters<typeof identityOf>[0]) => identityOf(req).userId;

  router.get('/api/notes/:id/links', async (req, res) => {
    res.json(await noteLinksGet(ctx, userOf(req), req.params));
  });

  router.post('/api/note/addlink', async (req, res) => {
    res.json(await noteLinkAdd(ctx, userOf(req), req.body));
  });

  router.post('/api/note/removelink', async (req, res) => {
    res.json(await noteLinkRemove(ctx, userOf(req), req.body));
  });

  return router;
};
