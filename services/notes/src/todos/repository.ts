import type { Knex } from 'knex';
import type { NoteRow } from '../notes/repository.js';

type Db = Knex | Knex.Transaction;

/** What the todo list reads of a note, and where the next page of notes starts. */
export interface TodoNoteRow extends Pick<NoteRow, 'id' | 'title' | 'body' | 'updated_at'> {
  /** updated_at as Postgres prints it: exact to the microsecond, unlike a JS Date. */
  cursor: string;
}

export interface NotesAfter {
  cursor: string;
  id: string;
}

/**
 * A POSIX regex any task list item's note matches; notes without one are not read at all.
 * It also matches checkboxes the parser then rejects (in code, mid-line): it only narrows.
 */
const CHECKBOX = '\\[[ xX]\\]';

export const todosRepository = {
  /** The user's notes with a checkbox, most recently updated first, after a cursor. */
  notesWithCheckboxes: async (
    db: Db,
    userId: string,
    options: { after?: NotesAfter | undefined; limit: number },
  ): Promise<TodoNoteRow[]> => {
    const query = db('notes')
      .select<TodoNoteRow[]>(
        'id',
        'title',
        'body',
        'updated_at',
        db.raw('updated_at::text as cursor'),
      )
      .where({ user_id: userId })
      .whereRaw('body ~ ?', [CHECKBOX]);
    if (options.after) {
      query.whereRaw('(updated_at, id) < (?::timestamptz, ?::uuid)', [
        options.after.cursor,
        options.after.id,
      ]);
    }
    return query
      .orderBy([
        { column: 'updated_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(options.limit);
  },
};
