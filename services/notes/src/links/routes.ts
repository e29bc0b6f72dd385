import type { linkRoutes } from '@noted/api';
import type { Handlers } from '@noted/kit';
import type { NotesContext } from '../context.js';
import { noteGraph, noteLinkAdd, noteLinkRemove, noteLinksGet } from './usecases.js';

export const linkHandlers = (ctx: NotesContext): Handlers<typeof linkRoutes> => ({
  noteGraph: ({ userId, query }) => noteGraph(ctx, userId, query),
  noteLinks: ({ userId, params }) => noteLinksGet(ctx, userId, params),
  noteAddLink: ({ userId, body }) => noteLinkAdd(ctx, userId, body),
  noteRemoveLink: ({ userId, body }) => noteLinkRemove(ctx, userId, body),
});
