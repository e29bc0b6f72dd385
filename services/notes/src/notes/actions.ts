import { randomBytes } from 'node:crypto';
import type {
  NoteAction,
  NoteBatchQuery,
  NotePinnedQuery,
  NoteTimeRangeQuery,
  PublicIdParams,
} from '@noted/api';
import {
  AppError,
  NOTE_BATCH_MAX,
  type Note,
  type NoteItems,
  type PublicNote,
  type ShareResult,
  type Parsed,
} from '@noted/api';
import { noteOutbox } from './events.js';
import { presentNote, presentPublicNote } from './presenter.js';
import { notesRepository, type NoteRow } from './repository.js';
import type { NotesContext } from '../context.js';

const notFound = () => new AppError('NOT_FOUND', 'There is no such note');

/** Changes one note of the user and announces it, in one transaction. */
const change = async (
  ctx: NotesContext,
  userId: string,
  noteId: string,
  patch: (row: NoteRow) => Partial<Pick<NoteRow, 'is_pinned' | 'public_id'>> | undefined,
): Promise<NoteRow> => {
  return ctx.unitOfWork(async (trx) => {
    const current = await notesRepository.lock(trx, userId, noteId);
    if (!current) throw notFound();
    const changes = patch(current);
    if (!changes) return current;
    const updated = await notesRepository.update(trx, userId, noteId, changes);
    if (!updated) throw notFound();
    await noteOutbox.updated(trx, updated);
    return updated;
  });
};

export const notePin = async (
  ctx: NotesContext,
  userId: string,
  input: Parsed<typeof NoteAction>,
): Promise<Note> => {
  const { noteId } = input;
  return presentNote(
    await change(ctx, userId, noteId, (row) => (row.is_pinned ? undefined : { is_pinned: true })),
  );
};

export const noteUnpin = async (
  ctx: NotesContext,
  userId: string,
  input: Parsed<typeof NoteAction>,
): Promise<Note> => {
  const { noteId } = input;
  return presentNote(
    await change(ctx, userId, noteId, (row) => (row.is_pinned ? { is_pinned: false } : undefined)),
  );
};

/** 128 random bits: unguessable, and unrelated to the note's id. */
const newPublicId = () => randomBytes(16).toString('base64url');

/** Sharing twice keeps the same link; unsharing and sharing again makes a new one. */
export const noteShare = async (
  ctx: NotesContext & { publicUrl: string },
  userId: string,
  input: Parsed<typeof NoteAction>,
): Promise<ShareResult> => {
  const { noteId } = input;
  const row = await change(ctx, userId, noteId, (current) =>
    current.public_id ? undefined : { public_id: newPublicId() },
  );
  const publicId = row.public_id ?? '';
  return { publicId, url: `${ctx.publicUrl}/notes/s/${publicId}` };
};

export const noteUnshare = async (
  ctx: NotesContext,
  userId: string,
  input: Parsed<typeof NoteAction>,
): Promise<Note> => {
  const { noteId } = input;
  return presentNote(
    await change(ctx, userId, noteId, (row) => (row.public_id ? { public_id: null } : undefined)),
  );
};

export const notePublic = async (
  ctx: NotesContext,
  params: Parsed<typeof PublicIdParams>,
): Promise<PublicNote> => {
  const { publicId } = params;
  const row = await notesRepository.findPublic(ctx.knex, publicId);
  if (!row) throw new AppError('NOT_FOUND', 'This note is not shared, or no longer');
  return presentPublicNote(row, publicId);
};

/** The user's pinned notes, newest first, a page at a time, with how many are pinned. */
export const notesPinned = async (
  ctx: NotesContext,
  userId: string,
  input: Parsed<typeof NotePinnedQuery>,
): Promise<NoteItems> => {
  const { page, limit } = input;
  const [rows, total] = await Promise.all([
    notesRepository.pinned(ctx.knex, userId, page, limit),
    notesRepository.countPinned(ctx.knex, userId),
  ]);
  return { items: rows.map(presentNote), total, page, limit };
};

/** Notes changed in a period are answered whole, up to this many. */
const CHANGED_AT_MOST = 1000;

/** Notes created or updated in a period (for summaries), at most 1000, newest change first. */
export const notesChangedBetween = async (
  ctx: NotesContext,
  userId: string,
  input: Parsed<typeof NoteTimeRangeQuery>,
): Promise<NoteItems> => {
  const { from, to } = input;
  const rows = await notesRepository.changedBetween(ctx.knex, userId, from, to, CHANGED_AT_MOST);
  return { items: rows.map(presentNote), total: rows.length, page: 1, limit: CHANGED_AT_MOST };
};

/** The user's notes among the given ids, in the order asked; ids of others are left out. */
export const notesBatch = async (
  ctx: NotesContext,
  userId: string,
  input: Parsed<typeof NoteBatchQuery>,
): Promise<NoteItems> => {
  const { ids } = input;
  const rows = new Map(
    (await notesRepository.findMany(ctx.knex, userId, ids)).map((row) => [row.id, row]),
  );
  const items = ids.flatMap((id) => {
    const row = rows.get(id);
    return row ? [presentNote(row)] : [];
  });
  return { items, total: items.length, page: 1, limit: NOTE_BATCH_MAX };
};
