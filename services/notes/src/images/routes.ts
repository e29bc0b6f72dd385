import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import { NOTE_IMAGE_MAX_BYTES, type imageRoutes } from '@noted/api';
import type { Handlers } from '@noted/kit';
import type { StoredObject } from '@noted/storage';
import type { ImagesContext } from '../context.js';
import { filePart } from '../upload.js';
import {
  noteImageRead,
  noteImageRemove,
  noteImageUpload,
  publicNoteImageRead,
} from './usecases.js';

const imageUpload = filePart({ field: 'image', maxBytes: NOTE_IMAGE_MAX_BYTES, what: 'image' });

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

/** Images of the caller's notes, and of shared notes while they are shared. */
export const imageHandlers = (ctx: ImagesContext): Handlers<typeof imageRoutes> => ({
  noteImageUpload: ({ userId, params, req, res }) =>
    noteImageUpload(ctx, userId, params.id, async () => (await imageUpload(req, res)).data),
  noteImageRemove: ({ userId, params, body }) => noteImageRemove(ctx, userId, params.id, body),
  noteImageGet: async ({ userId, params, res }) => {
    await sendImage(res, await noteImageRead(ctx, userId, params), ownerCache);
  },
  notePublicImage: async ({ params, res }) => {
    const image = await publicNoteImageRead(ctx, params);
    res.setHeader('referrer-policy', 'no-referrer');
    res.setHeader('x-robots-tag', 'noindex');
    await sendImage(res, image, publicCache);
  },
});
