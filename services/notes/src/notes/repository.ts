import type { Knex } from 'knex';

export interface NoteRow {
  id: string;
  user_id: string;
  title: string;
  body: string;
  tags: string[];
  images: string[];
  is_pinned: boolean;
  created_at: Date;
  updated_at: Date;
}

type Db = Knex | Knex.Transaction;

/** Every query names the owner: another user's id simply finds nothing. */
export const notesRepository = {
  insert: async (
    db: Db,
    row: Omit<NoteRow, 'created_at' | 'updated_at' | 'is_pinned' | 'images'>,
  ) => {
    const [created] = await db<NoteRow>('notes').insert(row).returning('*');
    return created as NoteRow;
  },

  find: async (db: Db, userId: string, id: string) =>
    db<NoteRow>('notes').where({ user_id: userId, id }).first(),

  page: async (db: Db, userId: string, page: number, limit: number) => {
    const [rows, count] = await Promise.all([
      db<NoteRow>('notes')
        .where({ user_id: userId })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(limit)
        .offset((page - 1) * limit),
      db('notes').where({ user_id: userId }).count<{ count: string | number }[]>({ count: '*' }),
    ]);
    return { rows, total: Number(count[0]?.count ?? 0) };
  },

  update: async (
    db: Db,
    userId: string,
    id: string,
    patch: Partial<Pick<NoteRow, 'title' | 'body' | 'tags'>>,
  ) => {
    const [updated] = await db<NoteRow>('notes')
      .where({ user_id: userId, id })
      .update({ ...patch, updated_at: new Date() })
      .returning('*');
    return updated;
  },

  remove: async (db: Db, userId: string, id: string) => {
    const [removed] = await db<NoteRow>('notes')
      .where({ user_id: userId, id })
      .delete()
      .returning('*');
    return removed;
  },
};
