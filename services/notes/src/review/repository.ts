import type { Knex } from 'knex';
import { noteColumns, type NoteRow } from '../notes/repository.js';

type Db = Knex | Knex.Transaction;

export interface ReviewRow {
  note_id: string;
  user_id: string;
  repetitions: number;
  interval_days: number;
  /** numeric: node-postgres answers it as a string. */
  ease: string | number;
  due_at: Date;
  last_reviewed_at: Date | null;
  notified_at: Date | null;
}

/** A note to enrol, as its created event names it. */
export interface NewNote {
  userId: string;
  noteId: string;
}

/** Every query names the owner, except the scheduler's, which works across users by design. */
export const reviewRepository = {
  /**
   * Gives up to `limit` of the user's notes without a schedule one that falls due
   * `firstDueSeconds` after the note was created, oldest notes first. Running it twice changes
   * nothing.
   */
  enrol: async (db: Db, userId: string, limit: number, firstDueSeconds: number): Promise<void> => {
    await db.raw(
      `insert into note_reviews (note_id, user_id, repetitions, interval_days, ease, due_at)
       select n.id, n.user_id, 0, 0, 2.5, n.created_at + make_interval(secs => ?)
       from notes n
       where n.user_id = ?
         and not exists (select 1 from note_reviews r where r.note_id = n.id)
       order by n.created_at, n.id
       limit ?
       on conflict (note_id) do nothing`,
      [firstDueSeconds, userId, limit],
    );
  },

  /**
   * Enrols new notes, each first due `firstDueSeconds` after it was created; a note that is
   * gone, is not its user's, or already has a schedule is left as it is.
   */
  enrolNewNotes: async (db: Db, notes: NewNote[], firstDueSeconds: number): Promise<void> => {
    if (notes.length === 0) return;
    await db.raw(
      `insert into note_reviews (note_id, user_id, repetitions, interval_days, ease, due_at)
       select distinct n.id, n.user_id, 0, 0, 2.5, n.created_at + make_interval(secs => ?)
       from unnest(?::uuid[], ?::uuid[]) as e(user_id, note_id)
       join notes n on n.id = e.note_id and n.user_id = e.user_id
       on conflict (note_id) do nothing`,
      [firstDueSeconds, notes.map((note) => note.userId), notes.map((note) => note.noteId)],
    );
  },

  /** Enrols one of the user's notes (a due date of now); nothing when it is not theirs. */
  enrolNote: async (db: Db, userId: string, noteId: string, now: Date): Promise<void> => {
    await db.raw(
      `insert into note_reviews (note_id, user_id, repetitions, interval_days, ease, due_at)
       select n.id, n.user_id, 0, 0, 2.5, ?
       from notes n
       where n.user_id = ? and n.id = ?
       on conflict (note_id) do nothing`,
      [now, userId, noteId],
    );
  },

  /** The user's notes due by `now`, most overdue first. */
  due: async (db: Db, userId: string, now: Date, limit: number): Promise<NoteRow[]> =>
    db<NoteRow>('notes')
      .join('note_reviews as r', 'r.note_id', 'notes.id')
      .select<NoteRow[]>(noteColumns())
      .where('notes.user_id', userId)
      .where('r.user_id', userId)
      .where('r.due_at', '<=', now)
      .orderBy([
        { column: 'r.due_at', order: 'asc' },
        { column: 'notes.id', order: 'asc' },
      ])
      .limit(limit),

  /** The schedule of one of the user's notes, locked until the transaction ends. */
  lock: async (trx: Knex.Transaction, userId: string, noteId: string) =>
    trx<ReviewRow>('note_reviews').where({ user_id: userId, note_id: noteId }).forUpdate().first(),

  reschedule: async (
    trx: Knex.Transaction,
    userId: string,
    noteId: string,
    next: { repetitions: number; intervalDays: number; ease: number; dueAt: Date; now: Date },
  ): Promise<ReviewRow> => {
    const [row] = await trx<ReviewRow>('note_reviews')
      .where({ user_id: userId, note_id: noteId })
      .update({
        repetitions: next.repetitions,
        interval_days: next.intervalDays,
        ease: next.ease,
        due_at: next.dueAt,
        last_reviewed_at: next.now,
      })
      .returning('*');
    return row as ReviewRow;
  },

  /**
   * Schedules due by `now` that have not been announced since they fell due, most overdue
   * first, locked and skipping rows another transaction holds.
   */
  unnotified: async (trx: Knex.Transaction, now: Date, limit: number): Promise<NoteRow[]> =>
    trx<NoteRow>('notes')
      .join('note_reviews as r', function joinOwner() {
        this.on('r.note_id', '=', 'notes.id').andOn('r.user_id', '=', 'notes.user_id');
      })
      .select<NoteRow[]>(noteColumns())
      .where('r.due_at', '<=', now)
      .where((q) => q.whereNull('r.notified_at').orWhereRaw('r.notified_at < r.due_at'))
      .orderBy([
        { column: 'r.due_at', order: 'asc' },
        { column: 'notes.id', order: 'asc' },
      ])
      .limit(limit)
      .forUpdate('r')
      .skipLocked(),

  /**
   * Takes the lock named `key` until the transaction ends, unless another transaction holds
   * it; answers whether it was taken.
   */
  tryLeaderLock: async (trx: Knex.Transaction, key: string): Promise<boolean> => {
    const lock = await trx
      .select(trx.raw('pg_try_advisory_xact_lock(hashtext(?)) as leader', [key]))
      .first<{ leader: boolean } | undefined>();
    return Boolean(lock?.leader);
  },

  markNotified: async (trx: Knex.Transaction, noteIds: string[], now: Date): Promise<void> => {
    await trx('note_reviews').whereIn('note_id', noteIds).update({ notified_at: now });
  },
};
