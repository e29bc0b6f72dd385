import { randomBytes } from 'node:crypto';
import { AppError, NoteCreate, NoteUpdate, type Note } from '@noted/api';
import type { ImportNotesPort } from '../run.js';

/**
 * One user's notes as the notes service keeps them, in memory, for the importer's tests:
 * requests are checked with the same schemas as the routes (`NoteCreate`, `NoteUpdate`), a
 * creation with a known id answers the note already made without taking the allowance, and
 * an upload adds an image URL the way `POST /api/notes/:id/images` does.
 */
export const notesStore = (options: { notesLeft?: number; refuseImage?: string } = {}) => {
  const notes = new Map<string, Note>();
  const calls: string[] = [];
  let left = options.notesLeft ?? Infinity;
  const validated = <T>(result: { success: boolean; data?: T; error?: unknown }): T => {
    if (!result.success) throw new AppError('VALIDATION_FAILED', 'invalid request');
    return result.data as T;
  };
  const found = (id: string) => {
    const note = notes.get(id);
    if (!note) throw new AppError('NOT_FOUND', 'There is no such note');
    return note;
  };
  const port: ImportNotesPort = {
    create: async (input) => {
      calls.push(`create ${input.id}`);
      const body = validated(NoteCreate.safeParse(input));
      const existing = notes.get(input.id);
      if (existing) return existing;
      if (left <= 0) throw new AppError('NOTES_LEFT_NOT_ENOUGH', 'No notes left this month');
      left -= 1;
      const now = new Date().toISOString();
      const note: Note = {
        id: input.id,
        title: body.title,
        note: body.note,
        tags: body.tags,
        images: [],
        isPinned: false,
        publicId: null,
        createdAt: now,
        updatedAt: now,
      };
      notes.set(note.id, note);
      return note;
    },
    update: async (id, patch) => {
      calls.push(`update ${id}`);
      const change = validated(NoteUpdate.safeParse(patch));
      const note = found(id);
      const next: Note = {
        ...note,
        ...(change.title !== undefined ? { title: change.title } : {}),
        ...(change.note !== undefined ? { note: change.note } : {}),
        ...(change.tags !== undefined ? { tags: change.tags } : {}),
        updatedAt: new Date().toISOString(),
      };
      notes.set(id, next);
      return next;
    },
    get: async (id) => {
      calls.push(`get ${id}`);
      return found(id);
    },
    uploadImage: async (id, bytes, fileName) => {
      calls.push(`image ${id} ${fileName}`);
      const note = found(id);
      if (fileName === options.refuseImage) {
        throw new AppError('NOT_AN_IMAGE', 'The file given is not an image');
      }
      const url = `/api/notes/${id}/images/${randomBytes(16).toString('base64url')}.webp`;
      const next = { ...note, images: [...note.images, url] };
      notes.set(id, next);
      return { image: { url, width: 1, height: 1, bytes: bytes.byteLength }, note: next };
    },
  };
  return { port, notes, calls, left: () => left };
};
