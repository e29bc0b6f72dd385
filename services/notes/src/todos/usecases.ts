import type { TodoParams, TodoRecentQuery, TodoSet } from '@noted/api';
import { AppError, type Todo, type TodoList, type Parsed } from '@noted/api';
import { noteOutbox } from '../notes/events.js';
import { notesRepository, type NoteRow } from '../notes/repository.js';
import type { NotesContext } from '../context.js';
import { parseTasks, setTaskState, type TaskItem } from './markdown.js';
import { todosRepository, type NotesAfter } from './repository.js';

/** Notes read per query: bodies can be up to 1 MB each, so a page stays small. */
const NOTES_PER_PAGE = 20;
/** However few todos match, the list never reads more notes than this. */
const NOTES_SCANNED_AT_MOST = 400;

const presentTodo = (note: Pick<NoteRow, 'id' | 'title' | 'updated_at'>, task: TaskItem): Todo => ({
  noteId: note.id,
  noteTitle: note.title,
  index: task.index,
  line: task.line,
  text: task.text,
  done: task.done,
  noteUpdatedAt: note.updated_at.toISOString(),
});

/**
 * The user's todos from their most recently updated notes that have checkboxes: newest note
 * first, document order within a note. Reads at most NOTES_SCANNED_AT_MOST notes.
 */
export const todosRecent = async (
  ctx: NotesContext,
  userId: string,
  input: Parsed<typeof TodoRecentQuery>,
): Promise<TodoList> => {
  const { limit, done } = input;
  const wanted = (task: TaskItem) => done === 'all' || task.done === (done === 'true');
  const items: Todo[] = [];
  let after: NotesAfter | undefined;
  for (let scanned = 0; scanned < NOTES_SCANNED_AT_MOST && items.length < limit;) {
    const notes = await todosRepository.notesWithCheckboxes(ctx.knex, userId, {
      after,
      limit: Math.min(NOTES_PER_PAGE, NOTES_SCANNED_AT_MOST - scanned),
    });
    for (const note of notes) {
      for (const task of parseTasks(note.body)) {
        if (wanted(task)) items.push(presentTodo(note, task));
      }
    }
    const last = notes.at(-1);
    if (!last || notes.length < NOTES_PER_PAGE) break;
    scanned += notes.length;
    after = { cursor: last.cursor, id: last.id };
  }
  const found = items.slice(0, limit);
  return { items: found, total: found.length, page: 1, limit };
};

/**
 * Checks or unchecks the nth checkbox of a note, changing only the character between its
 * brackets. The note is locked while it is read and written, so the index means the same
 * checkbox throughout; if the body no longer has it (or it reads otherwise than the caller
 * saw), nothing changes and the caller is told to reload.
 */
export const todoSet = async (
  ctx: NotesContext,
  userId: string,
  params: Parsed<typeof TodoParams>,
  input: Parsed<typeof TodoSet>,
): Promise<Todo> => {
  const { id, index } = params;
  const { done, expectedText } = input;
  return ctx.unitOfWork(async (trx) => {
    const note = await notesRepository.lock(trx, userId, id);
    if (!note) throw new AppError('NOT_FOUND', 'There is no such note');
    const task = parseTasks(note.body)[index];
    if (!task) {
      throw new AppError(
        'CONFLICT',
        `The note no longer has a checkbox at index ${index}; it changed, so reload it and try again`,
      );
    }
    if (expectedText !== undefined && task.text !== expectedText) {
      throw new AppError(
        'CONFLICT',
        `The checkbox at index ${index} now reads differently; reload the note and try again`,
        { text: task.text },
      );
    }
    if (task.done === done) return presentTodo(note, task);
    const updated = await notesRepository.update(trx, userId, id, {
      body: setTaskState(note.body, task, done),
    });
    if (!updated) throw new AppError('NOT_FOUND', 'There is no such note');
    await noteOutbox.updated(trx, updated);
    return presentTodo(updated, { ...task, done });
  });
};
