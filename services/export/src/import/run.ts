import {
  AppError,
  type Note,
  type NoteCreate,
  type NoteImageUploaded,
  type NoteUpdate,
} from '@noted/api';
import { bodyWithImages, type ImportPlan, type PlannedNote } from './plan.js';
import { bytesOf } from './zip.js';

/**
 * The notes service as an import writes to it, as the importing user (so an import only ever
 * touches that user's notes). Each maps onto one route: create is
 * `POST /api/note/create/direct` with the planned id (idempotent), update `PUT /api/notes/:id`,
 * get `GET /api/notes/:id`, uploadImage `POST /api/notes/:id/images` (field `image`).
 */
export interface ImportNotesPort {
  create(note: NoteCreate & { id: string }): Promise<Note>;
  update(id: string, patch: NoteUpdate): Promise<Note>;
  get(id: string): Promise<Note>;
  uploadImage(noteId: string, bytes: Uint8Array, fileName: string): Promise<NoteImageUploaded>;
}

export interface ImportProgress {
  /** Notes written so far (created, updated or failed). */
  done: number;
  total: number;
  created: number;
  updated: number;
  failed: number;
}

export interface ImportFailure {
  sourcePath: string;
  noteId: string;
  /** The stable code of the AppError, or INTERNAL. */
  code: string;
  /** For an image: which one. */
  image?: string;
}

export interface ImportResult {
  created: string[];
  updated: string[];
  imagesUploaded: number;
  failed: ImportFailure[];
  /** Stopped by the signal before every note was written. */
  cancelled: boolean;
}

/** Failures that stop the whole import: every other note would meet them too. */
const FATAL = new Set(['NOTES_LEFT_NOT_ENOUGH', 'UNAUTHENTICATED', 'FORBIDDEN', 'UNAVAILABLE']);

const codeOf = (error: unknown) => (error instanceof AppError ? error.code : 'INTERNAL');

/**
 * Writes a plan through the notes service, one note at a time, in plan order. A new note is
 * created with its planned id, its images uploaded, then its body pointed at them. A note an
 * earlier import made is updated in place; the images it has already stand for the first
 * images of the file (they were uploaded in that order), so only images added since are
 * uploaded again and nothing is duplicated. A note that fails is listed and the import goes on;
 * NOTES_LEFT_NOT_ENOUGH, UNAUTHENTICATED, FORBIDDEN and UNAVAILABLE stop it (thrown with what
 * was done in `details.result`).
 */
export const runImport = async (
  plan: ImportPlan,
  port: ImportNotesPort,
  options: { onProgress?: (progress: ImportProgress) => void; signal?: AbortSignal } = {},
): Promise<ImportResult> => {
  const result: ImportResult = {
    created: [],
    updated: [],
    imagesUploaded: 0,
    failed: [],
    cancelled: false,
  };
  const progress = () =>
    options.onProgress?.({
      done:
        result.created.length +
        result.updated.length +
        result.failed.filter((f) => !f.image).length,
      total: plan.notes.length,
      created: result.created.length,
      updated: result.updated.length,
      failed: result.failed.filter((f) => !f.image).length,
    });

  const uploadImages = async (note: PlannedNote, already: readonly string[]) => {
    const urls = new Map<string, string>();
    for (const [index, image] of note.images.entries()) {
      const kept = already[index];
      if (kept !== undefined) {
        urls.set(image.path, kept);
        continue;
      }
      try {
        const uploaded = await port.uploadImage(note.id, await bytesOf(image.file), image.fileName);
        urls.set(image.path, uploaded.image.url);
        result.imagesUploaded += 1;
      } catch (error) {
        if (FATAL.has(codeOf(error))) throw error;
        result.failed.push({
          sourcePath: note.sourcePath,
          noteId: note.id,
          code: codeOf(error),
          image: image.path,
        });
      }
    }
    return urls;
  };

  for (const note of plan.notes) {
    if (options.signal?.aborted) {
      result.cancelled = true;
      break;
    }
    try {
      if (note.exists) {
        const current = await port.get(note.id);
        const urls = await uploadImages(note, current.images);
        await port.update(note.id, {
          title: note.title,
          note: bodyWithImages(note, urls),
          tags: note.tags,
        });
        result.updated.push(note.id);
      } else {
        await port.create({
          id: note.id,
          title: note.title,
          note: note.body,
          tags: note.tags,
          // The date the file gives; one the notes service refuses (in the future) is dropped.
          ...(note.createdAt && Date.parse(note.createdAt) <= Date.now()
            ? { createdAt: note.createdAt }
            : {}),
        });
        if (note.images.length > 0) {
          const urls = await uploadImages(note, []);
          if (urls.size > 0) await port.update(note.id, { note: bodyWithImages(note, urls) });
        }
        result.created.push(note.id);
      }
    } catch (error) {
      const code = codeOf(error);
      if (FATAL.has(code)) {
        const appError = error as AppError;
        throw new AppError(appError.code, appError.message, {
          ...(typeof appError.details === 'object' && appError.details !== null
            ? appError.details
            : {}),
          result,
        });
      }
      result.failed.push({ sourcePath: note.sourcePath, noteId: note.id, code });
    }
    progress();
  }
  return result;
};
