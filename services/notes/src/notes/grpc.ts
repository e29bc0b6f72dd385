import { AppError } from '@noted/api';
import type { notesV1 } from '@noted/proto';
import type { ServiceImpl } from '@noted/grpc';
import { noteMessage } from './presenter.js';
import { noteGet, noteList, type NotesContext } from './usecases.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const requireIds = (...ids: string[]) => {
  if (!ids.every((id) => UUID.test(id))) {
    throw new AppError('VALIDATION_FAILED', 'user_id and note_id must be UUIDs');
  }
};

export const notesGrpc = (ctx: NotesContext): ServiceImpl<typeof notesV1.NotesService> => ({
  getNote: async (request) => {
    requireIds(request.userId, request.noteId);
    return { note: noteMessage(await noteGet(ctx, request.userId, request.noteId)) };
  },
  listNotes: async (request) => {
    requireIds(request.userId);
    const { rows, total } = await noteList(ctx, request.userId, {
      page: request.page || 1,
      limit: request.limit || 10,
    });
    return { notes: rows.map(noteMessage), total };
  },
});
