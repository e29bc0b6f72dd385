import type { Knex } from 'knex';
import { noteColumns, type NoteRow } from '../notes/repository.js';

type Db = Knex | Knex.Transaction;

export interface TagCountRow {
  tag: string;
  count: string | number;
  /** How many tags the user has in all, on every row. */
  tags: string | number;
}

/** Tags are not stored apart: they are read from, and rewritten in, the user's notes. */
export const tagsRepository = {
  /** The user's tags with how many notes carry each, most used first, at most `limit`. */
  counts: async (db: Db, userId: string, limit: number): Promise<TagCountRow[]> =>
    db
      .select('tag', db.raw('count(*) over () as tags'))
      .count<TagCountRow[]>({ count: '*' })
      .from(db.raw('notes, unnest(notes.tags) as tag'))
      .where('notes.user_id', userId)
      .groupBy('tag')
      .orderBy([
        { column: 'count', order: 'desc' },
        { column: 'tag', order: 'asc' },
      ])
      .limit(limit),

  /** How many of the user's notes carry `tag`. */
  countTagged: async (db: Db, userId: string, tag: string): Promise<number> => {
    const row = await db('notes')
      .where({ user_id: userId })
      .whereRaw('tags @> ?', [[tag]])
      .count<{ count: string | number }[]>({ count: '*' })
      .first();
    return Number(row?.count ?? 0);
  },

  /** The user's notes that carry `tag`, locked until the transaction ends. */
  lockTagged: async (trx: Knex.Transaction, userId: string, tag: string): Promise<NoteRow[]> =>
    trx<NoteRow>('notes')
      .select<NoteRow[]>(noteColumns())
      .where({ user_id: userId })
      .whereRaw('tags @> ?', [[tag]])
      .orderBy('id')
      .forUpdate(),
};
