import type { Knex } from 'knex';
import { writeWithEvent, type EventConnection, type OutboxEvent } from '@noted/db';
import type { CaptureState } from '../capture/state.js';

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
  /** Set on notes made from an image, audio, a link or a PDF (`capture/state.ts`). */
  capture: CaptureState | null;
}

export interface NoteFilter {
  tag?: string | undefined;
  sharedOnly?: boolean;
  pinned?: boolean | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * The columns of a note, named: `notes` also holds its search document (a stored tsvector as
 * large as the body), which no read outside search needs.
 */
export const noteColumns = (table = 'notes') =>
  [
    'id',
    'user_id',
    'title',
    'body',
    'tags',
    'images',
    'is_pinned',
    'public_id',
    'created_at',
    'updated_at',
    'capture',
  ].map((column) => `${table}.${column}`);
const NOTE_COLUMNS = noteColumns();
const RETURNED = noteColumns('notes').map((column) => column.slice('notes.'.length));

type Db = Knex | Knex.Transaction;

const CONTENT_FIELDS = ['title', 'body', 'tags', 'images'] as const;

/** A list counts its notes up to this many; past it, the total says "at least". */
export const COUNTED_NOTES = 1000;
type Patch = Partial<
  Pick<NoteRow, 'title' | 'body' | 'tags' | 'images' | 'is_pinned' | 'public_id' | 'capture'>
>;

/** jsonb goes in as its JSON text: node-postgres would send a JS array as a Postgres array. */
const stored = <P extends Patch>(patch: P): P =>
  patch.capture === undefined || patch.capture === null
    ? patch
    : ({ ...patch, capture: JSON.stringify(patch.capture) } as unknown as P);

/** The user's notes matching the list filters (columns qualified, so search can join). */
export const filteredNotes = (db: Db, userId: string, filter: NoteFilter) => {
  const query = db<NoteRow>('notes').select<NoteRow[]>(NOTE_COLUMNS).where('notes.user_id', userId);
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
    row: Omit<
      NoteRow,
      'created_at' | 'updated_at' | 'is_pinned' | 'images' | 'public_id' | 'capture'
    > &
      Partial<Pick<NoteRow, 'images' | 'capture'>>,
  ) => {
    const [created] = await db<NoteRow>('notes').insert(stored(row)).returning<NoteRow[]>(RETURNED);
    return created as NoteRow;
  },

  /**
   * Inserts a whole note and records `event` in one statement (see writeWithEvent), unless a
   * note of the user names its title in [[...]]: then it writes nothing and answers undefined,
   * since the create has links to make.
   */
  insertUnlessNamed: async (
    knex: EventConnection,
    row: NoteRow,
    event: OutboxEvent,
  ): Promise<NoteRow | undefined> => {
    const titleKey = row.title.trim().toLowerCase();
    const insert = knex.raw(
      `insert into notes (${RETURNED.join(', ')})
       select ?::uuid, ?::uuid, ?::text, ?::text, ?::text[], ?::text[], ?::boolean, ?::text,
              ?::timestamptz, ?::timestamptz, ?::jsonb
       where ?::text = '' or not exists
         (select 1 from note_wiki_refs where user_id = ?::uuid and title_key = ?::text)
       returning ${RETURNED.join(', ')}`,
      [
        row.id,
        row.user_id,
        row.title,
        row.body,
        row.tags,
        row.images,
        row.is_pinned,
        row.public_id,
        row.created_at,
        row.updated_at,
        row.capture === null ? null : JSON.stringify(row.capture),
        titleKey,
        row.user_id,
        titleKey,
      ],
    );
    const [created] = await writeWithEvent<NoteRow>(knex, insert, event);
    return created;
  },

  find: async (db: Db, userId: string, id: string): Promise<NoteRow | undefined> =>
    db<NoteRow>('notes').where({ user_id: userId, id }).select<NoteRow[]>(NOTE_COLUMNS).first(),

  /**
   * What a client-chosen id stands for: the user's note with it, 'taken' when it is another
   * user's note (nothing of which leaves here), or undefined when no note has it.
   */
  findOwnOrTaken: async (
    db: Db,
    userId: string,
    id: string,
  ): Promise<NoteRow | 'taken' | undefined> => {
    const row = await db<NoteRow>('notes').where({ id }).select<NoteRow[]>(NOTE_COLUMNS).first();
    if (row === undefined) return undefined;
    return row.user_id === userId ? row : 'taken';
  },

  /** The note, locked until the transaction ends. */
  lock: async (trx: Knex.Transaction, userId: string, id: string): Promise<NoteRow | undefined> =>
    trx<NoteRow>('notes')
      .where({ user_id: userId, id })
      .forUpdate()
      .select<NoteRow[]>(NOTE_COLUMNS)
      .first(),

  /** Whether the user has this note. */
  exists: async (db: Db, userId: string, id: string): Promise<boolean> =>
    (await db<NoteRow>('notes').where({ user_id: userId, id }).first('id')) !== undefined,

  /** The ids among `ids` of notes the user has. */
  existingIds: async (db: Db, userId: string, ids: string[]): Promise<string[]> =>
    ids.length === 0
      ? []
      : db<NoteRow>('notes').where({ user_id: userId }).whereIn('id', ids).pluck('id'),

  /** The user's notes among `ids`, held (FOR SHARE) so none can be deleted until the end. */
  hold: async (trx: Knex.Transaction, userId: string, ids: string[]): Promise<NoteRow[]> =>
    trx<NoteRow>('notes')
      .select<NoteRow[]>(NOTE_COLUMNS)
      .where({ user_id: userId })
      .whereIn('id', ids)
      .forShare(),

  findMany: async (db: Db, userId: string, ids: string[]): Promise<NoteRow[]> =>
    db<NoteRow>('notes')
      .select<NoteRow[]>(NOTE_COLUMNS)
      .where({ user_id: userId })
      .whereIn('id', ids),

  findPublic: async (db: Db, publicId: string): Promise<NoteRow | undefined> =>
    db<NoteRow>('notes').where({ public_id: publicId }).select<NoteRow[]>(NOTE_COLUMNS).first(),

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
    const countOf = () =>
      db
        .from(
          filteredNotes(db, userId, options.filter)
            .clearSelect()
            .select(db.raw('1'))
            .limit(COUNTED_NOTES + 1)
            .as('counted'),
        )
        .count<{ count: string | number }[]>({ count: '*' });
    // One statement: the count rides along as a subquery evaluated once, not as a second query.
    const found = await filteredNotes(db, userId, options.filter)
      .select<(NoteRow & { counted: string | number })[]>(db.raw('(?) as counted', [countOf()]))
      .orderBy(order)
      .limit(options.limit)
      .offset((options.page - 1) * options.limit);
    let counted = Number(found[0]?.counted ?? 0);
    if (found.length === 0 && options.page > 1) {
      // A page past the last one has no row to carry the count.
      counted = Number((await countOf())[0]?.count ?? 0);
    }
    const rows = found.map(({ counted: _, ...row }) => row);
    return { rows, total: Math.min(counted, COUNTED_NOTES), totalExact: counted <= COUNTED_NOTES };
  },

  /** How many notes the user has. */
  count: async (db: Db, userId: string): Promise<number> => {
    const [row] = await db<NoteRow>('notes')
      .where({ user_id: userId })
      .count<{ count: string | number }[]>({ count: '*' });
    return Number(row?.count ?? 0);
  },

  /** A page of the user's pinned notes, newest first. */
  pinned: async (db: Db, userId: string, page: number, limit: number): Promise<NoteRow[]> =>
    filteredNotes(db, userId, { pinned: true })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit)
      .offset((page - 1) * limit),

  /** How many notes the user has pinned (an index range: pinned notes are few). */
  countPinned: async (db: Db, userId: string): Promise<number> => {
    const [row] = await db<NoteRow>('notes')
      .where({ user_id: userId, is_pinned: true })
      .count<{ count: string | number }[]>({ count: '*' });
    return Number(row?.count ?? 0);
  },

  /** Notes created in [from, to), oldest first, and how many there are in all. */
  createdBetween: async (db: Db, userId: string, from: Date, to: Date, limit: number) => {
    const range = () =>
      db<NoteRow>('notes')
        .where({ user_id: userId })
        .andWhere('created_at', '>=', from)
        .andWhere('created_at', '<', to);
    const [rows, [counted]] = await Promise.all([
      range()
        .select<NoteRow[]>(NOTE_COLUMNS)
        .orderBy([
          { column: 'created_at', order: 'asc' },
          { column: 'id', order: 'asc' },
        ])
        .limit(limit),
      range().count<{ count: string | number }[]>({ count: '*' }),
    ]);
    return { rows, total: Number(counted?.count ?? 0) };
  },

  /**
   * Every user's notes (or one user's) after `afterId` in id order, and how many in all
   * (unless `skipTotal`); with `updatedBefore`, only notes last changed at or before it.
   */
  scan: async (
    db: Db,
    options: {
      afterId: string;
      limit: number;
      userId?: string;
      updatedBefore?: Date;
      skipTotal?: boolean;
    },
  ) => {
    const owned = () =>
      db<NoteRow>('notes').modify((query) => {
        if (options.userId) query.where('user_id', options.userId);
        if (options.updatedBefore) query.where('updated_at', '<=', options.updatedBefore);
      });
    const [rows, [counted]] = await Promise.all([
      owned()
        .select<NoteRow[]>(NOTE_COLUMNS)
        .modify((query) => {
          if (options.afterId) query.where('id', '>', options.afterId);
        })
        .orderBy('id')
        .limit(options.limit),
      options.skipTotal
        ? [{ count: 0 }]
        : owned().count<{ count: string | number }[]>({ count: '*' }),
    ]);
    return { rows, total: Number(counted?.count ?? 0) };
  },

  /** Notes created or updated in [from, to), newest change first. */
  changedBetween: async (db: Db, userId: string, from: string, to: string, limit: number) =>
    db<NoteRow>('notes')
      .select<NoteRow[]>(NOTE_COLUMNS)
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

  /**
   * Changes a note; `updated_at` moves only when its content (title, body, tags, images)
   * changes, not when it is pinned or shared, so an editor's version stays current. It moves
   * past the version it replaces (by a millisecond at least, what a JS Date holds) even when
   * this clock has not moved or lags another replica's, so the later of two versions always
   * has the later `updated_at`: editors and the AI index tell versions apart by it.
   */
  update: async (db: Db, userId: string, id: string, patch: Patch) => {
    const content = CONTENT_FIELDS.some((field) => patch[field] !== undefined);
    const version = db.raw(`greatest(?::timestamptz, updated_at + interval '1 millisecond')`, [
      new Date(),
    ]);
    const [updated] = await db<NoteRow>('notes')
      .where({ user_id: userId, id })
      .update(content ? { ...stored(patch), updated_at: version } : stored(patch))
      .returning<NoteRow[]>(RETURNED);
    return updated;
  },

  /** Of any user: captures waiting for a model, oldest first, locked (others skip them). */
  waitingCaptures: async (trx: Knex.Transaction, limit: number): Promise<NoteRow[]> =>
    trx<NoteRow>('notes')
      .select<NoteRow[]>(NOTE_COLUMNS)
      .whereNotNull('capture')
      .whereRaw(`capture->>'status' = 'waiting'`)
      .orderBy('updated_at')
      .limit(limit)
      .forUpdate()
      .skipLocked(),

  remove: async (db: Db, userId: string, id: string) => {
    const [removed] = await db<NoteRow>('notes')
      .where({ user_id: userId, id })
      .delete()
      .returning<NoteRow[]>(RETURNED);
    return removed;
  },
};
