import { randomBytes } from 'node:crypto';
import type { NoteImageRemove, PublicNoteImageParams } from '@noted/api';
import {
  AppError,
  NOTE_IMAGES_MAX,
  NoteImageParams,
  type Note,
  type NoteImageUploaded,
  type Parsed,
} from '@noted/api';
import type { StoredObject } from '@noted/storage';
import { noteOutbox } from '../notes/events.js';
import { presentNote } from '../notes/presenter.js';
import { notesRepository, type NoteRow } from '../notes/repository.js';
import type { ImagesContext } from '../context.js';
import { processImage } from './process.js';

const notFound = () => new AppError('NOT_FOUND', 'There is no such note');
const noSuchImage = () => new AppError('NOT_FOUND', 'There is no such image');

export const imageUrlOf = (noteId: string, name: string) => `/api/notes/${noteId}/images/${name}`;
const imageKeyOf = (row: Pick<NoteRow, 'user_id' | 'id'>, name: string) =>
  `${row.user_id}/${row.id}/${name}`;
const noteImagesPrefix = (row: Pick<NoteRow, 'user_id' | 'id'>) => `${row.user_id}/${row.id}/`;
const nameInUrl = (noteId: string, url: string) =>
  url.startsWith(imageUrlOf(noteId, '')) ? url.slice(imageUrlOf(noteId, '').length) : undefined;

/** Store deletes after a commit are best effort: the note is already right, so log and go on. */
const discard = async (ctx: Pick<ImagesContext, 'objects' | 'logger'>, keys: string[]) => {
  for (const key of keys) {
    try {
      await ctx.objects.delete(key);
    } catch (error) {
      ctx.logger.error({ err: error, key }, 'could not delete a note image from the store');
    }
  }
};

/**
 * Checks the note before the upload is read, processes the image, stores it, then appends its
 * URL to the note. If the note changed under us (deleted, full), the stored object is removed.
 */
export const noteImageUpload = async (
  ctx: ImagesContext,
  userId: string,
  noteId: string,
  readUpload: () => Promise<Buffer>,
): Promise<NoteImageUploaded> => {
  const before = await notesRepository.find(ctx.knex, userId, noteId);
  if (!before) throw notFound();
  const tooMany = () =>
    new AppError('UNPROCESSABLE', `A note holds at most ${NOTE_IMAGES_MAX} images`);
  if (before.images.length >= NOTE_IMAGES_MAX) throw tooMany();

  const image = await processImage(await readUpload());
  const name = `${randomBytes(16).toString('base64url')}.webp`;
  const key = imageKeyOf(before, name);
  const url = imageUrlOf(noteId, name);
  await ctx.objects.put(key, image.data, { contentType: 'image/webp', size: image.data.length });

  let row: NoteRow;
  try {
    row = await ctx.unitOfWork(async (trx) => {
      const current = await notesRepository.lock(trx, userId, noteId);
      if (!current) throw notFound();
      if (current.images.length >= NOTE_IMAGES_MAX) throw tooMany();
      const updated = await notesRepository.update(trx, userId, noteId, {
        images: [...current.images, url],
      });
      if (!updated) throw notFound();
      await noteOutbox.updated(trx, updated);
      return updated;
    });
  } catch (error) {
    await discard(ctx, [key]);
    throw error;
  }
  return {
    image: { url, width: image.width, height: image.height, bytes: image.data.length },
    note: presentNote(row),
  };
};

/** Takes the image off the note, then out of the store once that has committed. */
export const noteImageRemove = async (
  ctx: ImagesContext,
  userId: string,
  noteId: string,
  input: Parsed<typeof NoteImageRemove>,
): Promise<Note> => {
  const { imageUrl } = input;
  const row = await ctx.unitOfWork(async (trx) => {
    const current = await notesRepository.lock(trx, userId, noteId);
    if (!current) throw notFound();
    if (!current.images.includes(imageUrl)) throw noSuchImage();
    const updated = await notesRepository.update(trx, userId, noteId, {
      images: current.images.filter((url) => url !== imageUrl),
    });
    if (!updated) throw notFound();
    await noteOutbox.updated(trx, updated);
    return updated;
  });
  const name = nameInUrl(noteId, imageUrl);
  if (name !== undefined && NoteImageParams.shape.name.safeParse(name).success) {
    await discard(ctx, [imageKeyOf(row, name)]);
  }
  return presentNote(row);
};

/**
 * Removes from the store the images an update took off a note (`before` had them, `after`
 * does not), once that update has committed. Failures are logged, never thrown.
 */
export const noteImagesDropped = async (
  ctx: Partial<Pick<ImagesContext, 'objects' | 'logger'>>,
  before: readonly string[],
  after: NoteRow,
): Promise<void> => {
  const { objects, logger } = ctx;
  if (!objects || !logger) return;
  const names = before
    .filter((url) => !after.images.includes(url))
    .map((url) => nameInUrl(after.id, url))
    .filter((name): name is string => NoteImageParams.shape.name.safeParse(name).success);
  await discard(
    { objects, logger },
    names.map((name) => imageKeyOf(after, name)),
  );
};

const storedImage = async (ctx: ImagesContext, row: NoteRow | undefined, name: string) => {
  if (!row || !row.images.includes(imageUrlOf(row.id, name))) throw noSuchImage();
  const stored = await ctx.objects.get(imageKeyOf(row, name));
  if (!stored) throw noSuchImage();
  return stored;
};

/** An image of one of the user's notes; anyone else's answers 404. */
export const noteImageRead = async (
  ctx: ImagesContext,
  userId: string,
  params: Parsed<typeof NoteImageParams>,
): Promise<StoredObject> => {
  const { id, name } = params;
  return storedImage(ctx, await notesRepository.find(ctx.knex, userId, id), name);
};

/** An image of a note shared right now; unsharing revokes it with the note. */
export const publicNoteImageRead = async (
  ctx: ImagesContext,
  params: Parsed<typeof PublicNoteImageParams>,
): Promise<StoredObject> => {
  const { publicId, name } = params;
  return storedImage(ctx, await notesRepository.findPublic(ctx.knex, publicId), name);
};

/**
 * After a note is deleted: every object under its prefix goes, including any the note no longer
 * listed. Failures are logged, never thrown; the note is gone either way.
 */
export const noteImagesDiscard = async (
  ctx: Partial<Pick<ImagesContext, 'objects' | 'logger'>>,
  row: NoteRow,
): Promise<void> => {
  const { objects, logger } = ctx;
  if (!objects || !logger) return;
  try {
    const stored = await objects.list(noteImagesPrefix(row));
    await discard(
      { objects, logger },
      stored.map((object) => object.key),
    );
  } catch (error) {
    logger.error({ err: error, noteId: row.id }, 'could not list the images of a deleted note');
  }
};
