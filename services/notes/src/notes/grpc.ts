import { timestampDate } from '@bufbuild/protobuf/wkt';
import { AppError, NoteListQuery } from '@noted/api';
import type { notesV1 } from '@noted/proto';
import type { ServiceImpl } from '@noted/grpc';
import type { ImagesContext } from '../context.js';
import { requireIds } from '../grpc-input.js';
import { captureGrpc } from '../capture/grpc.js';
import { noteImageRead } from '../images/usecases.js';
import { notesSearch } from '../search/usecases.js';
import { noteMessage } from './presenter.js';
import { notesRepository } from './repository.js';
import { noteGet, noteList } from './usecases.js';

/** The most notes one GetNotes, ListNotesCreatedBetween, SearchNotes or ScanNotes answers. */
const MOST_NOTES = 1000;

const limitOf = (limit: number, fallback: number) =>
  Math.min(Math.max(limit || fallback, 1), MOST_NOTES);

export const notesGrpc = (ctx: ImagesContext): ServiceImpl<typeof notesV1.NotesService> => ({
  getNote: async (request) => {
    requireIds(request.userId, request.noteId);
    return { note: noteMessage(await noteGet(ctx, request.userId, request.noteId)) };
  },
  listNotes: async (request) => {
    requireIds(request.userId);
    const { rows, total } = await noteList(
      ctx,
      request.userId,
      NoteListQuery.parse({ page: request.page || 1, limit: request.limit || 10 }),
    );
    return { notes: rows.map(noteMessage), total };
  },
  getNotes: async (request) => {
    requireIds(request.userId, ...request.noteIds);
    if (request.noteIds.length > MOST_NOTES) {
      throw new AppError('VALIDATION_FAILED', `At most ${MOST_NOTES} note ids at once`);
    }
    const found = new Map(
      (await notesRepository.findMany(ctx.knex, request.userId, request.noteIds)).map((row) => [
        row.id,
        row,
      ]),
    );
    return {
      notes: request.noteIds.flatMap((id) => {
        const row = found.get(id);
        return row ? [noteMessage(row)] : [];
      }),
    };
  },
  listNotesCreatedBetween: async (request) => {
    requireIds(request.userId);
    if (!request.from || !request.to) {
      throw new AppError('VALIDATION_FAILED', 'from and to are required');
    }
    const { rows, total } = await notesRepository.createdBetween(
      ctx.knex,
      request.userId,
      timestampDate(request.from),
      timestampDate(request.to),
      limitOf(request.limit, MOST_NOTES),
    );
    return { notes: rows.map(noteMessage), total };
  },
  searchNotes: async (request) => {
    requireIds(request.userId);
    const search = request.query.trim();
    if (!search) return { hits: [] };
    const { rows } = await notesSearch(ctx, request.userId, {
      search,
      page: 1,
      limit: limitOf(request.limit, 50),
      pinnedFirst: false,
      sharedOnly: false,
    });
    return { hits: rows.map((row, index) => ({ note: noteMessage(row), rank: index + 1 })) };
  },
  scanNotes: async (request) => {
    if (request.afterId) requireIds(request.afterId);
    if (request.userId) requireIds(request.userId);
    const { rows, total } = await notesRepository.scan(ctx.knex, {
      afterId: request.afterId,
      limit: limitOf(request.limit, 200),
      ...(request.userId ? { userId: request.userId } : {}),
      ...(request.updatedBefore ? { updatedBefore: timestampDate(request.updatedBefore) } : {}),
      skipTotal: request.skipTotal,
    });
    return { notes: rows.map(noteMessage), total };
  },
  getNoteImage: async (request) => {
    requireIds(request.userId, request.noteId);
    const image = await noteImageRead(ctx, request.userId, {
      id: request.noteId,
      name: request.name,
    });
    const parts: Buffer[] = [];
    for await (const part of image.body) parts.push(part as Buffer);
    return { data: Buffer.concat(parts), contentType: image.contentType };
  },
  ...captureGrpc(ctx),
});
