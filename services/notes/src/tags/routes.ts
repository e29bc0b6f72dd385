import type { tagRoutes } from '@noted/api';
import type { Handlers } from '@noted/kit';
import type { NotesContext } from '../context.js';
import { tagDelete, tagList, tagRename } from './usecases.js';

export const tagHandlers = (ctx: NotesContext): Handlers<typeof tagRoutes> => ({
  tagList: ({ userId }) => tagList(ctx, userId),
  tagRename: ({ userId, params, body }) => tagRename(ctx, userId, params, body),
  tagDelete: ({ userId, params }) => tagDelete(ctx, userId, params),
});
