import type { noteRoutes } from '@noted/api';
import type { Handlers } from '@noted/kit';
import type { NotesContext } from '../context.js';
import {
  noteShare,
  noteUnshare,
  notePin,
  noteUnpin,
  notePublic,
  notesBatch,
  notesChangedBetween,
  notesPinned,
} from './actions.js';
import { noteUpdateFromForm } from './multipart.js';
import { presentNote } from './presenter.js';
import { noteCreate, noteDelete, noteGet, notePage, noteUpdate } from './usecases.js';

/** The notes routes of the public API; the gateway forwards them with the caller's identity. */
export const noteHandlers = (
  ctx: NotesContext & { publicUrl: string },
): Handlers<typeof noteRoutes> => ({
  noteCreateDirect: ({ userId, body }) => noteCreate(ctx, userId, body),
  noteList: ({ userId, query }) => notePage(ctx, userId, query),
  notePinnedList: ({ userId, query }) => notesPinned(ctx, userId, query),
  noteTimeRange: ({ userId, query }) => notesChangedBetween(ctx, userId, query),
  noteBatch: ({ userId, query }) => notesBatch(ctx, userId, query),
  noteGet: async ({ userId, params }) => presentNote(await noteGet(ctx, userId, params.id)),
  noteUpdate: async ({ userId, params, body, req, res }) =>
    noteUpdate(ctx, userId, params.id, body ?? (await noteUpdateFromForm(req, res))),
  noteDelete: ({ userId, params }) => noteDelete(ctx, userId, params.id),
  notePin: ({ userId, body }) => notePin(ctx, userId, body),
  noteUnpin: ({ userId, body }) => noteUnpin(ctx, userId, body),
  noteShare: ({ userId, body }) => noteShare(ctx, userId, body),
  noteUnshare: ({ userId, body }) => noteUnshare(ctx, userId, body),
  // Shared notes, readable by anyone with the link; unsharing revokes it at once.
  notePublic: ({ params, res }) => {
    res.setHeader('referrer-policy', 'no-referrer');
    res.setHeader('cache-control', 'no-store');
    res.setHeader('x-robots-tag', 'noindex');
    return notePublic(ctx, params);
  },
});
