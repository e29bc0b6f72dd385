import type { todoRoutes } from '@noted/api';
import type { Handlers } from '@noted/kit';
import type { NotesContext } from '../context.js';
import { todoSet, todosRecent } from './usecases.js';

export const todoHandlers = (ctx: NotesContext): Handlers<typeof todoRoutes> => ({
  todoRecent: ({ userId, query }) => todosRecent(ctx, userId, query),
  todoSet: ({ userId, params, body }) => todoSet(ctx, userId, params, body),
});
