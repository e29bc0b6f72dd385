import * as z from 'zod';
import { created, file, ok, routesFor } from './contract.js';
import { Note, NoteIdParams } from './notes.js';

/** The largest upload: 10 MB; a larger file answers 413 PAYLOAD_TOO_LARGE. */
/** Uploaded images are decoded a few at a time; beyond what can wait, one is refused at once. */
export const imagesBusy = [
  503,
  'BUSY: images are being decoded at capacity; nothing was kept, try again after Retry-After',
] as const;

export const NOTE_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** Pixels an upload may declare; checked from the header, before anything is decoded. */
export const NOTE_IMAGE_MAX_PIXELS = 40_000_000;
/** Stored images are re-encoded as WebP, at most this many pixels on the longer side. */
export const NOTE_IMAGE_MAX_SIDE = 1920;
/** Images one note can hold. */
export const NOTE_IMAGES_MAX = 100;

/** The stored name of an image: 128 random bits, base64url, and its format. */
export const NoteImageName = z
  .string()
  .regex(/^[A-Za-z0-9_-]{22}\.webp$/, 'Not an image name')
  .meta({ description: 'The stored name, e.g. 3q2-7wEjRWeJq83vEjRWeA.webp' });

export const NoteImageParams = z.object({
  id: z.uuid({ message: 'Not a note id' }),
  name: NoteImageName,
});

export const PublicNoteImageParams = z.object({
  publicId: z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'Not a shared note id'),
  name: NoteImageName,
});

export const NoteImage = z
  .object({
    url: z
      .string()
      .meta({ description: 'Where the owner reads it: /api/notes/{id}/images/{name}' }),
    width: z.number().int(),
    height: z.number().int(),
    bytes: z.number().int().meta({ description: 'Size of the stored WebP' }),
  })
  .meta({ id: 'NoteImage' });
export type NoteImage = z.infer<typeof NoteImage>;

export const NoteImageUploaded = z
  .object({ image: NoteImage, note: Note })
  .meta({ id: 'NoteImageUploaded' });
export type NoteImageUploaded = z.infer<typeof NoteImageUploaded>;

export const NoteImageUploadForm = z
  .strictObject({
    image: z.string().meta({
      format: 'binary',
      description:
        'JPEG, PNG, WebP, GIF (first frame) or AVIF, recognised by content; at most 10 MB ' +
        'and 40 megapixels',
    }),
  })
  .meta({ id: 'NoteImageUploadForm' });

export const NoteImageRemove = z
  .object({ imageUrl: z.string().max(2048) })
  .meta({ id: 'NoteImageRemove' });
export type NoteImageRemove = z.infer<typeof NoteImageRemove>;

const imagesApi = routesFor('notes', 'images');

/** The routes of images of notes. */
export const imageRoutes = {
  noteImageUpload: imagesApi.post('/api/notes/:id/images', {
    summary:
      'Add an image to a note: recognised by content, re-encoded as WebP, at most 1920 px ' +
      'on the longer side',
    params: NoteIdParams,
    form: NoteImageUploadForm,
    answer: created(NoteImageUploaded, 'The stored image and the note'),
    errors: [
      404,
      [
        422,
        'NOT_AN_IMAGE (the content is no JPEG, PNG, WebP, GIF or AVIF), or UNPROCESSABLE ' +
          '(over 40 megapixels, or the note already holds 100 images)',
      ],
      imagesBusy,
    ],
  }),
  noteImageRemove: imagesApi.delete('/api/notes/:id/images', {
    summary: 'Remove an image from a note and from storage',
    params: NoteIdParams,
    body: NoteImageRemove,
    answer: ok(Note, 'The changed note'),
    errors: [404],
  }),
  noteImageGet: imagesApi.get('/api/notes/:id/images/:name', {
    summary: "An image of one of the user's notes",
    params: NoteImageParams,
    answer: file('image/webp', 'The image'),
    errors: [404],
  }),
  notePublicImage: imagesApi.get('/public/note/:publicId/images/:name', {
    tag: 'public',
    public: true,
    summary: 'An image of a shared note, without an account, while it is shared',
    params: PublicNoteImageParams,
    answer: file('image/webp', 'The image'),
    errors: [404],
  }),
};
