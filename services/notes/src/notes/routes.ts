import { Router } from 'express';
import { NoteIdParams } from '@noted/api';
import { userIdOf } from '@noted/kit';
import {
  noteShare,
  noteUnshare,
  notePin,
  noteUnpin,
  notePublic,
  notesBatch,
  notesChangedBetween,
  notesPinned,
} from './actions.js';
import { noteUpdateFromForm } from './multipart.js';
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
export const notesRouter = (ctx: NotesContext & { publicUrl: string }): Router => {
  const router = Router();

  router.post('/api/note/create/direct', async (req, res) => {
    res.status(201).json(await noteCreate(ctx, userIdOf(req), req.body));
  });

  router.get('/api/notes', async (req, res) => {
    res.json(await notePage(ctx, userIdOf(req), req.query));
  });

  router.get('/api/notes/pinned', async (req, res) => {
    res.json(await notesPinned(ctx, userIdOf(req), req.query));
  });

  router.get('/api/notes/timerange', async (req, res) => {
    res.json(await notesChangedBetween(ctx, userIdOf(req), req.query));
  });

  router.get('/api/notes/batch', async (req, res) => {
    res.json(await notesBatch(ctx, userIdOf(req), req.query));
  });

  router.get('/api/notes/:id', async (req, res) => {
    const { id } = NoteIdParams.parse(req.params);
    res.json(presentNote(await noteGet(ctx, userIdOf(req), id)));
  });

  router.put('/api/notes/:id', async (req, res) => {
    const { id } = NoteIdParams.parse(req.params);
    const input = req.is('multipart/form-data') ? await noteUpdateFromForm(req, res) : req.body;
    res.json(await noteUpdate(ctx, userIdOf(req), id, input));
  });

  router.delete('/api/notes/:id', async (req, res) => {
    const { id } = NoteIdParams.parse(req.params);
    await noteDelete(ctx, userIdOf(req), id);
    res.status(204).end();
  });

  router.post('/api/note/pin', async (req, res) => {
    res.json(await notePin(ctx, userIdOf(req), req.body));
  });

  router.post('/api/note/unpin', async (req, res) => {
    res.json(await noteUnpin(ctx, userIdOf(req), req.body));
  });

  router.post('/api/note/share', async (req, res) => {
    res.json(await noteShare(ctx, userIdOf(req), req.body));
  });

  router.post('/api/note/unshare', async (req, res) => {
    res.json(await noteUnshare(ctx, userIdOf(req), req.body));
  });

  return router;
};

/** Shared notes, readable by anyone with the link; unsharing revokes it at once. */
export const publicNotesRouter = (ctx: NotesContext): Router => {
  const router = Router();
  router.get('/public/note/:publicId', async (req, res) => {
    res.setHeader('referrer-policy', 'no-referrer');
    res.setHeader('cache-control', 'no-store');
    res.setHeader('x-robots-tag', 'noindex');
    res.json(await notePublic(ctx, req.params));
  });
  return router;
};
