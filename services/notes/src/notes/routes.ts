import { Router } from 'express';
import { NoteIdParams } from '@noted/api';
import { presentNote } from './presenter.js';
import {
  noteCreate,
  noteDelete,
  noteGet,
  notePage,
  noteUpdate,
  type NotesContext,
} from './usecases.js';

/** The notes routes of the public API; the gateway forwards them with the caller's identity. */
export const notesRouter = (ctx: NotesContext): Router => {
  const router = Router();
  const userOf = (req: { identity?: { userId: string } }) => req.identity?.userId ?? '';

  router.post('/api/note/create/direct', async (req, res) => {
    res.status(201).json(await noteCreate(ctx, userOf(req), req.body));
  });

  router.get('/api/notes', async (req, res) => {
    res.json(await notePage(ctx, userOf(req), req.query));
  });

  router.get('/api/notes/:id', async (req, res) => {
    const { id } = NoteIdParams.parse(req.params);
    res.json(presentNote(await noteGet(ctx, userOf(req), id)));
  });

  router.put('/api/notes/:id', async (req, res) => {
    const { id } = NoteIdParams.parse(req.params);
    res.json(await noteUpdate(ctx, userOf(req), id, req.body));
  });

  router.delete('/api/notes/:id', async (req, res) => {
    const { id } = NoteIdParams.parse(req.params);
    await noteDelete(ctx, userOf(req), id);
    res.status(204).end();
  });

  return router;
};
