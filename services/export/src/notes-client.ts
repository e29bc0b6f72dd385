import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { AppError } from '@noted/api';
import { createGrpcClient } from '@noted/grpc';
import { callerMetadata } from '@noted/kit';
import type { notesV1 } from '@noted/proto';
import { notesV1 as notes } from '@noted/proto';
import type { ExportImage, ExportNote } from './model.js';

/** A note as the export reads it: what the renderers take, and its image URLs in order. */
export interface NoteToExport extends ExportNote {
  images: string[];
  /** The file the note was captured from (a recording, a PDF), when one is kept. */
  captureFile?: { name: string; originalName: string };
}

/** One page of a user's notes, and how many they have in all. */
export interface NotesPage {
  notes: NoteToExport[];
  total: number;
}

/** What the export needs of the notes service; always one user's notes, by their owner. */
export interface NotesReader {
  /** One note of the user's (NOT_FOUND for another user's or a deleted one). */
  note(userId: string, noteId: string): Promise<NoteToExport>;
  /** The user's notes after `afterId`, in id order, at most `limit`. */
  scan(userId: string, afterId: string, limit: number): Promise<NotesPage>;
  /** One image of one of the user's notes by its URL; undefined for a URL that is not one. */
  image(userId: string, url: string): Promise<ExportImage | undefined>;
  close(): void;
}

const dateOf = (timestamp: Timestamp | undefined) =>
  timestamp ? timestampDate(timestamp) : new Date(0);

export const noteToExport = (note: notesV1.Note): NoteToExport => ({
  id: note.id,
  title: note.title,
  body: note.body,
  tags: [...note.tags],
  images: [...note.images],
  createdAt: dateOf(note.createdAt),
  updatedAt: dateOf(note.updatedAt),
  ...(note.captureFile
    ? { captureFile: { name: note.captureFile.name, originalName: note.captureFile.originalName } }
    : {}),
});

/** `/api/notes/{id}/images/{name}`, the only images the notes service stores. */
const STORED_IMAGE = /^\/api\/notes\/([0-9a-f-]{36})\/images\/([A-Za-z0-9_-]{22}\.webp)$/;

/** The note and file name of one of a note's stored images, or undefined for any other URL. */
export const storedImage = (url: string) => {
  const match = STORED_IMAGE.exec(url);
  return match ? { noteId: match[1] as string, name: match[2] as string } : undefined;
};

export const createNotesReader = (options: {
  address: string;
  internalSecret: string;
}): NotesReader => {
  const client = createGrpcClient(notes.NotesService, options.address, {
    service: 'export',
    deadlineMs: 30_000,
    metadata: callerMetadata(options.internalSecret, 'export'),
  });
  // An empty user id would scan every user's notes: never send one.
  const owner = (userId: string) => {
    if (!userId) throw new AppError('UNAUTHENTICATED', 'Sign in first');
    return userId;
  };
  return {
    note: async (userId, noteId) => {
      const { note } = await client.getNote({ userId: owner(userId), noteId });
      if (!note) throw new AppError('NOT_FOUND', 'There is no such note');
      return noteToExport(note);
    },
    scan: async (userId, afterId, limit) => {
      const page = await client.scanNotes({ userId: owner(userId), afterId, limit });
      return { notes: page.notes.map(noteToExport), total: page.total };
    },
    image: async (userId, url) => {
      const stored = storedImage(url);
      if (!stored) return undefined;
      const image = await client.getNoteImage({ userId: owner(userId), ...stored });
      return { url, contentType: image.contentType, bytes: Buffer.from(image.data) };
    },
    close: () => client.close(),
  };
};

/**
 * Every note of a user, page by page in id order, the next page read while the caller works on
 * this one. A page too large for one gRPC message (notes near the 1 MB body limit) is asked
 * again at half the size, down to one note.
 */
export async function* notePages(
  reader: Pick<NotesReader, 'scan'>,
  userId: string,
  pageSize: number,
): AsyncGenerator<NotesPage> {
  let limit = pageSize;
  const read = async (afterId: string): Promise<NotesPage> => {
    for (;;) {
      try {
        return await reader.scan(userId, afterId, limit);
      } catch (error) {
        // RESOURCE_EXHAUSTED arrives as RATE_LIMITED: here, a message over the size limit.
        if (!(error instanceof AppError) || error.code !== 'RATE_LIMITED' || limit === 1) {
          throw error;
        }
        limit = Math.max(1, Math.floor(limit / 2));
      }
    }
  };
  let next: Promise<NotesPage> | undefined = read('');
  while (next) {
    const page: NotesPage = await next;
    const last = page.notes.at(-1);
    next = last && page.notes.length >= limit ? read(last.id) : undefined;
    // A read ahead that fails while this page is being written is reported when it is awaited.
    next?.catch(() => {});
    yield page;
  }
}
