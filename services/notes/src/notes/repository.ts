import type { Knex } from 'knex';

export interface NoteRow {
  id: string;
  user_id: string;
  title: string;
  body: string;
  tags: string[];
  images: string[];
  is_pinned: boolean;
  public_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface NoteFilter {
  tag?: string | undefined;
  sharedOnly?: boolean;
  pinned?: boolean | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

type Db = Knex | Knex.Transaction;
type Patch = Partial<
  Pick<NoteRow, 'title' | 'body' | 'tags' | 'images' | 'is_pinned' | 'public_id'>
>;

/** The user's notes matching the list filters (columns qualified, so search can join). */
export const filteredNotes = (db: Db, userId: string, filter: NoteFilter) => {
  const query = db<NoteRow>('notes').where('notes.user_id', userId);
  if (filter.tag !== undefined) query.whereRaw('notes.tags @> ?', [[filter.tag]]);
  if (filter.sharedOnly) query.whereNotNull('notes.public_id');
  if (filter.pinned !== undefined) query.where('notes.is_pinned', filter.pinned);
  if (filter.from !== undefined) query.where('notes.created_at', '>=', filter.from);
  if (filter.to !== undefined) query.where('notes.created_at', '<', filter.to);
  return query;
};

/** Every query names the owner: another user's id simply finds nothing. */
export const notesRepository = {
  insert: async (
    db: Db,
    row: Omit<NoteRow, 'created_at' | 'updated_at' | 'is_pinned' | 'images' | 'public_id'>,
  ) => {
    const [created] = await db<NoteRow>('notes').insert(row).returning('*');
    return created as NoteRow;
  },

  find: async (db: Db, userId: string, id: string) =>
    db<NoteRow>('notes').where({ user_id: userId, id }).first(),

  /** The note, locked until the transaction ends. */
  lock: async (trx: Knex.Transaction, userId: string, id: string) =>
    trx<NoteRow>('notes').where({ user_id: userId, id }).forUpdate().first(),

  findMany: async (db: Db, userId: string, ids: string[]) =>
    db<NoteRow>('notes').where({ user_id: userId }).whereIn('id', ids),

  findPublic: async (db: Db, publicId: string) =>
    db<NoteRow>('notes').where({ public_id: publicId }).first(),

  page: async (
    db: Db,
    userId: string,
    options: { page: number; limit: number; pinnedFirst: boolean; filter: NoteFilter },
  ) => {
    const order: { column: string; order: 'asc' | 'desc' }[] = [
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ];
    if (options.pinnedFirst) order.unshift({ column: 'is_pinned', order: 'desc' });
    const [rows, count] = await Promise.all([
      filteredNotes(db, userId, options.filter)
        .orderBy(order)
        .limit(options.limit)
        .offset((options.page - 1) * options.limit),
      filteredNotes(db, userId, options.filter).count<{ count: string | number }[]>({ count: '*' }),
    ]);
    return { rows, total: Number(count[0]?.count ?? 0) };
  },

  /** Notes created or updated in [from, to), newest change first. */
  changedBetween: async (db: Db, userId: string, from: string, to: string, limit: number) =>
    db<NoteRow>('notes')
      .where({ user_id: userId })
      .andWhere((range) =>
        range
          .where((created) =>
            created.where('created_at', '>=', from).andWhere('created_at', '<', to),
          )
          .orWhere((updated) =>
            updated.where('updated_at', '>=', from).andWhere('updated_at', '<', to),
          ),
      )
      .orderBy([
        { column: 'updated_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit),

  update: async (db: Db, userId: string, id: string, patch: Patch) => {
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
