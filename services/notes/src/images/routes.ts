import { pipeline } from 'node:stream/promises';
import { Router, type Response } from 'express';
import { NoteIdParams } from '@noted/api';
import { userIdOf } from '@noted/kit';
import type { StoredObject } from '@noted/storage';
import { imageUpload } from './upload.js';
import {
  noteImageRead,
  noteImageRemove,
  noteImageUpload,
  publicNoteImageRead,
  type ImagesContext,
} from './usecases.js';

// Names are random and never reused, so the owner's browser can cache an image for good.
const ownerCache = 'private, max-age=31536000, immutable';
// A shared image must stop loading as soon as the note is unshared, as the note does.
const publicCache = 'no-store';

const sendImage = async (res: Response, image: StoredObject, cacheControl: string) => {
  res.setHeader('content-type', 'image/webp');
  res.setHeader('content-length', String(image.size));
  res.setHeader('cache-control', cacheControl);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('content-security-policy', "default-src 'none'");
  await pipeline(image.body, res);
};

/** Images of the caller's notes. */
export const noteImagesRouter = (ctx: ImagesContext): Router => {
  const router = Router();

  router.post('/api/notes/:id/images', async (req, res) => {
    const { id } = NoteIdParams.parse(req.params);
    const userId = userIdOf(req);
    res.status(201).json(await noteImageUpload(ctx, userId, id, () => imageUpload(req, res)));
  });

  router.delete('/api/notes/:id/images', async (req, res) => {
    const { id } = NoteIdParams.parse(req.params);
    res.json(await noteImageRemove(ctx, userIdOf(req), id, req.body));
  });

  router.get('/api/notes/:id/images/:name', async (req, res) => {
    await sendImage(res, await noteImageRead(ctx, userIdOf(req), req.params), ownerCache);
  });

  return router;
};

/** Images of a shared note, readable by anyone with its link while it is shared. */
export const publicNoteImagesRouter = (ctx: ImagesContext): Router => {
  const router = Router();
  router.get('/public/note/:publicId/images/:name', async (req, res) => {
    const image = await publicNoteImageRead(ctx, req.params);
    res.setHeader('referrer-policy', 'no-referrer');
    res.setHeader('x-robots-tag', 'noindex');
    await sendImage(res, image, publicCache);
  });
  return router;
};
