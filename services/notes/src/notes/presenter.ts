import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { Note, PublicNote } from '@noted/api';
import { notesV1 } from '@noted/proto';
import type { NoteRow } from './repository.js';
import { presentCapture } from '../capture/state.js';

export const presentNote = (row: NoteRow): Note => ({
  id: row.id,
  title: row.title,
  note: row.body,
  tags: row.tags,
  images: row.images,
  isPinned: row.is_pinned,
  publicId: row.public_id,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
  ...(row.capture ? { capture: presentCapture(row.id, row.capture) } : {}),
});

export const noteMessage = (row: NoteRow): notesV1.Note =>
  create(notesV1.NoteSchema, {
    id: row.id,
    userId: row.user_id,
    title: row.title,
    body: row.body,
    tags: row.tags,
    images: row.images,
    isPinned: row.is_pinned,
    createdAt: timestampFromDate(row.created_at),
    updatedAt: timestampFromDate(row.updated_at),
    publicId: row.public_id ?? '',
    ...(row.capture?.file
      ? {
          captureFile: {
            name: row.capture.file.name,
            contentType: row.capture.file.type,
            originalName: row.capture.file.originalName,
            bytes: BigInt(row.capture.file.bytes),
          },
        }
      : {}),
  });

/**
 * What anyone with the link sees: no ids, no owner, no sharing state. Image URLs point at the
 * public path of the shared note, which serves them without an account.
 */
export const presentPublicNote = (row: NoteRow, publicId: string): PublicNote => ({
  title: row.title,
  note: row.body,
  tags: row.tags,
  images: row.images.map(
    (url) => `/public/note/${publicId}/images/${url.slice(url.lastIndexOf('/') + 1)}`,
  ),
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});
