import { randomUUID } from 'node:crypto';
import type { NoteCreate, NoteListQuery, NoteUpdate } from '@noted/api';
import { AppError, type Note, type NotePage, type SearchPage, type Parsed } from '@noted/api';
import { noteEventOf, noteOutbox } from './events.js';
import { presentNote } from './presenter.js';
import { notesRepository, type NoteRow } from './repository.js';
import { resyncWikiReferrers, syncWikiLinks, wikiReferrersOf, wikiTitles } from '../links/wiki.js';
import type { ImagesContext, NotesContext } from '../context.js';
import { noteImagesDiscard, noteImagesDropped } from '../images/usecases.js';
import { noteSearchPage, notesSearch } from '../search/usecases.js';

const notFound = () => new AppError('NOT_FOUND', 'There is no such note');

/** How far past this server's clock a createdAt may be: the writer's clock may run ahead. */
const CREATED_AT_SKEW_MS = 5 * 60_000;

/** The user's note with this client-chosen id, if made; an id of another user's note is refused. */
const madeWithId = async (ctx: NotesContext, userId: string, id: string) => {
  const found = await notesRepository.findOwnOrTaken(ctx.knex, userId, id);
  if (found === 'taken') {
    throw new AppError('CONFLICT', 'This id is taken; create the note with another id');
  }
  return found;
};

/** Whether an insert failed because a note with its id was committed first. */
const isDuplicateId = (error: unknown) => {
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && constraint === 'notes_pkey';
};

/**
 * With a client-chosen `id`, a create sent again (its answer lost, or sent twice at once)
 * answers the note already made: no second note, event or use of the allowance. The unit is
 * charged for the note's id, so two creates of one id at once are charged once; if the note
 * is not stored, it goes back (or, if this process dies first, the sweep gives it back).
 */
export const noteCreate = async (
  ctx: NotesContext,
  userId: string,
  note: Parsed<typeof NoteCreate>,
): Promise<Note> => {
  if (
    note.createdAt !== undefined &&
    Date.parse(note.createdAt) > Date.now() + CREATED_AT_SKEW_MS
  ) {
    throw new AppError('UNPROCESSABLE', 'createdAt: a note cannot be written in the future');
  }
  if (note.id !== undefined) {
    const made = await madeWithId(ctx, userId, note.id);
    if (made) return presentNote(made);
  }
  const id = note.id ?? randomUUID();
  const release = await ctx.quota.consume(userId, 'notes_per_month', id);
  const now = new Date();
  const fresh: NoteRow = {
    id,
    user_id: userId,
    title: note.title,
    body: note.note,
    tags: note.tags,
    images: [],
    is_pinned: false,
    public_id: null,
    created_at: note.createdAt ? new Date(note.createdAt) : now,
    updated_at: now,
    capture: null,
  };
  try {
    // Most notes name no [[Title]] and have a title no note names: then there are no links
    // to make, and the note and its event go in one statement that checks the title itself.
    const alone =
      wikiTitles(fresh.body).length === 0
        ? await ctx.unitOfWork.statement((knex) =>
            notesRepository.insertUnlessNamed(knex, fresh, noteEventOf.created(fresh)),
          )
        : undefined;
    const row =
      alone ??
      (await ctx.unitOfWork(async (trx) => {
        const created = await notesRepository.insert(trx, fresh);
        await syncWikiLinks(trx, userId, created, true);
        await noteOutbox.created(trx, created);
        return created;
      }));
    return presentNote(row);
  } catch (error) {
    // The same create committed first: the unit, charged once for the id, pays for that note.
    const made =
      note.id !== undefined && isDuplicateId(error)
        ? await madeWithId(ctx, userId, note.id).catch(async (refused: unknown) => {
            await release();
            throw refused;
          })
        : undefined;
    if (made) return presentNote(made);
    await release();
    throw error;
  }
};

export const noteGet = async (ctx: NotesContext, userId: string, id: string): Promise<NoteRow> => {
  const row = await notesRepository.find(ctx.knex, userId, id);
  if (!row) throw notFound();
  return row;
};

export const noteList = async (
  ctx: NotesContext,
  userId: string,
  query: Parsed<typeof NoteListQuery>,
): Promise<{
  rows: NoteRow[];
  total: number;
  totalExact: boolean;
  page: number;
  limit: number;
}> => {
  if (query.search !== undefined) {
    return notesSearch(ctx, userId, { ...query, search: query.search });
  }
  const { page, limit, pinnedFirst, ...filter } = query;
  const { rows, total, totalExact } = await notesRepository.page(ctx.knex, userId, {
    page,
    limit,
    pinnedFirst,
    filter,
  });
  return { rows, total, totalExact, page, limit };
};

export const notePage = async (
  ctx: NotesContext,
  userId: string,
  query: Parsed<typeof NoteListQuery>,
): Promise<NotePage | SearchPage> => {
  if (query.search !== undefined) {
    return noteSearchPage(ctx, userId, { ...query, search: query.search });
  }
  const { rows, ...rest } = await noteList(ctx, userId, query);
  return { items: rows.map(presentNote), ...rest };
};

/** With the image store in `ctx`, images the update takes off the note leave it after commit. */
export const noteUpdate = async (
  ctx: NotesContext & Partial<Pick<ImagesContext, 'objects' | 'logger'>>,
  userId: string,
  id: string,
  patch: Parsed<typeof NoteUpdate>,
): Promise<Note> => {
  let imagesBefore: string[] = [];
  const row = await ctx.unitOfWork(async (trx) => {
    if (patch.images !== undefined || patch.baseUpdatedAt !== undefined) {
      const current = await notesRepository.lock(trx, userId, id);
      if (!current) throw notFound();
      if (
        patch.baseUpdatedAt !== undefined &&
        current.updated_at.getTime() !== Date.parse(patch.baseUpdatedAt)
      ) {
        throw new AppError(
          'CONFLICT',
          'This note was changed elsewhere since you opened it; nothing was saved',
        );
      }
      imagesBefore = current.images;
      // New images come through the upload route, which checks them; here they can only go.
      if (patch.images?.some((url) => !current.images.includes(url))) {
        throw new AppError(
          'UNPROCESSABLE',
          'images: only images the note already has can be kept; new images cannot be added here',
        );
      }
    }
    const updated = await notesRepository.update(trx, userId, id, {
      ...(patch.title === undefined ? {} : { title: patch.title }),
      ...(patch.note === undefined ? {} : { body: patch.note }),
      ...(patch.tags === undefined ? {} : { tags: patch.tags }),
      ...(patch.images === undefined ? {} : { images: patch.images }),
    });
    if (!updated) throw notFound();
    await syncWikiLinks(trx, userId, updated);
    await noteOutbox.updated(trx, updated);
    return updated;
  });
  await noteImagesDropped(ctx, imagesBefore, row);
  return presentNote(row);
};

/** With the image store in `ctx`, the note's images leave it after the delete commits. */
export const noteDelete = async (
  ctx: NotesContext & Partial<Pick<ImagesContext, 'objects' | 'logger'>>,
  userId: string,
  id: string,
): Promise<void> => {
  const removed = await ctx.unitOfWork(async (trx) => {
    const current = await notesRepository.lock(trx, userId, id);
    if (!current) throw notFound();
    // Notes whose [[Title]] pointed here may now point to another note with that title.
    const referrers = await wikiReferrersOf(trx, userId, current);
    const row = await notesRepository.remove(trx, userId, id);
    if (!row) throw notFound();
    await noteOutbox.deleted(trx, row);
    await resyncWikiReferrers(trx, userId, referrers);
    return row;
  });
  await noteImagesDiscard(ctx, removed);
};
