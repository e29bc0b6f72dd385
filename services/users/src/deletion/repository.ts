import type { Knex } from 'knex';
import { deleteInBatches, forgetOutboxOf } from '@noted/db';
import { feedbackRepository } from '../feedback/repository.js';

export interface TombstoneRow {
  user_id: string;
  auth_id: string;
  deleted_at: Date;
}

/** How long a tombstone outlives its account: longer than any access token lives. */
export const TOMBSTONE_DAYS = 7;

export const deletionRepository = {
  /** The latest deletion of an account of this subject, if any. */
  latestOf: async (knex: Knex, authId: string) =>
    knex<TombstoneRow>('deleted_users')
      .where({ auth_id: authId })
      .orderBy('deleted_at', 'desc')
      .first(),

  /** Records the deletion; undefined when the user was already deleted. */
  tombstone: async (trx: Knex.Transaction, row: Pick<TombstoneRow, 'user_id' | 'auth_id'>) => {
    const [inserted] = await trx<TombstoneRow>('deleted_users')
      .insert(row)
      .onConflict('user_id')
      .ignore()
      .returning('*');
    return inserted as TombstoneRow | undefined;
  },

  /**
   * Everything of the user but the tombstone: usage and feedback first, the user's row last.
   * Feedback goes rather than staying without a name: its text and screenshot (the user's own
   * notes on screen) are the user's data as much as the notes are.
   */
  eraseUser: async (knex: Knex, userId: string, keepSubjects: string[]) => {
    const usage = await deleteInBatches(knex, 'usage_counters', { user_id: userId });
    const feedback = await feedbackRepository.eraseOf(knex, userId);
    const users = await knex('users').where({ id: userId }).delete();
    const outbox = await forgetOutboxOf(knex, userId, { keepSubjects });
    return { usage, feedback, users, outbox };
  },

  pruneTombstones: async (knex: Knex, before: Date) =>
    knex('deleted_users').where('deleted_at', '<', before).delete(),
};
