import * as z from 'zod';
import { ok, routesFor } from './contract.js';
import { listOf } from './notes.js';

export const Todo = z
  .object({
    noteId: z.uuid(),
    noteTitle: z.string(),
    index: z.number().int().meta({ description: 'The nth checkbox of the note, from 0' }),
    line: z.number().int().meta({ description: 'The 0-based line of the note body' }),
    text: z.string(),
    done: z.boolean(),
    noteUpdatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Todo' });
export type Todo = z.infer<typeof Todo>;

export const TodoList = listOf(Todo).meta({ id: 'TodoList' });
export type TodoList = z.infer<typeof TodoList>;

export const TodoRecentQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(200).default(50),
    done: z
      .enum(['false', 'true', 'all'])
      .default('false')
      .meta({ description: 'Open todos (false, the default), done ones (true) or all' }),
  })
  .meta({ id: 'TodoRecentQuery' });
export interface TodoRecentQuery {
  limit?: number;
  done?: 'false' | 'true' | 'all';
}

export const TodoParams = z.object({
  id: z.uuid({ message: 'Not a note id' }),
  index: z
    .string()
    .regex(/^\d{1,6}$/, 'Not a checkbox index')
    .transform(Number)
    .meta({ description: 'The nth checkbox of the note, from 0' }),
});

export const TodoSet = z
  .object({
    done: z.boolean(),
    expectedText: z
      .string()
      .max(10_000)
      .optional()
      .meta({
        description:
          'The text the caller saw; when the checkbox at that index now has other text, ' +
          'nothing changes and the answer is 409 CONFLICT',
      }),
  })
  .meta({ id: 'TodoSet' });
export type TodoSet = z.infer<typeof TodoSet>;

const todosApi = routesFor('notes', 'todos');

/** The routes of todos (the checkboxes of notes). */
export const todoRoutes = {
  todoRecent: todosApi.get('/api/todos/recent', {
    summary:
      'Checkboxes (GFM task list items) of the most recently updated notes: newest note ' +
      'first, document order within a note',
    query: TodoRecentQuery,
    answer: ok(TodoList, 'The todos'),
  }),
  todoSet: todosApi.put('/api/notes/:id/todos/:index', {
    summary: 'Check or uncheck the nth checkbox of a note (only its [ ] / [x] changes)',
    params: TodoParams,
    body: TodoSet,
    answer: ok(Todo, 'The todo now'),
    errors: [404, 409],
  }),
};
