import { Router } from 'express';
import { userIdOf } from '@noted/kit';
import type { NotesContext } from '../notes/usecases.js';
import { noteGraph, noteLinkAdd, noteLinkRemove, noteLinksGet } from './usecases.js';

/** Mounted before the notes router, whose `/api/notes/:id` would take `/api/notes/graph`. */
export const linksRouter = (ctx: NotesContext): Router => {
  const router = Router();

  router.get('/api/notes/graph', async (req, res) => {
    res.json(await noteGraph(ctx, userIdOf(req), req.query));
  });

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
