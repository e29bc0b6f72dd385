import type { Knex } from 'knex';
import { deleteInBatches } from '@noted/db';
import type { FeedbackKind } from '@noted/api';

export interface FeedbackRow {
  id: string;
  kind: FeedbackKind;
  message: string;
  email: string | null;
  user_id: string | null;
  page: string | null;
  user_agent: string | null;
  address_hash: string;
  created_at: Date;
}

export type FeedbackListed = FeedbackRow & { has_screenshot: boolean };

export interface ScreenshotRow {
  feedback_id: string;
  content_type: string;
  bytes: Buffer;
}

/** Feedback one sender sent within the last hour, and how long until the oldest of it leaves. */
export interface SentLastHour {
  count: number;
  /** Seconds until the oldest counted feedback is an hour old; 0 when none is counted. */
  freeInSeconds: number;
}

export const feedbackRepository = {
  /**
   * Holds, until the transaction ends, one lock per sender key (account, address), so two
   * replicas cannot both count nine and both insert the tenth. Taken in one order: no deadlock.
   */
  lockSenders: async (trx: Knex.Transaction, keys: string[]) => {
    for (const key of [...keys].sort()) {
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [key]);
    }
  },

  sentLastHour: async (
    trx: Knex.Transaction,
    sender: { user_id: string } | { address_hash: string },
  ): Promise<SentLastHour> => {
    const row = (await trx('feedback')
      .where(sender)
      .andWhereRaw("created_at > now() - interval '1 hour'")
      .first(
        trx.raw('count(*)::int as count'),
        trx.raw(
          "coalesce(ceil(extract(epoch from min(created_at) + interval '1 hour' - now())), 0)::int as wait",
        ),
      )) as { count: number; wait: number } | undefined;
    return { count: row?.count ?? 0, freeInSeconds: Math.max(0, row?.wait ?? 0) };
  },

  insert: async (
    trx: Knex.Transaction,
    row: Omit<FeedbackRow, 'created_at'>,
    screenshot: Omit<ScreenshotRow, 'feedback_id'> | undefined,
  ): Promise<FeedbackRow> => {
    const [inserted] = (await trx('feedback').insert(row).returning('*')) as FeedbackRow[];
    if (!inserted) throw new Error('feedback was not inserted');
    if (screenshot) {
      await trx('feedback_screenshots').insert({ feedback_id: row.id, ...screenshot });
    }
    return inserted;
  },

  /** A page, newest first, starting after `before` (the last of the page before). */
  page: async (
    knex: Knex,
    options: {
      /** Only this sender's; every sender's when absent. */
      userId?: string;
      kind?: FeedbackKind;
      before?: { createdAt: Date; id: string };
      limit: number;
    },
  ): Promise<FeedbackListed[]> => {
    const query = knex('feedback as f')
      .select(
        'f.*',
        knex.raw(
          'exists (select 1 from feedback_screenshots s where s.feedback_id = f.id) as has_screenshot',
        ),
      )
      .orderBy([
        { column: 'f.created_at', order: 'desc' },
        { column: 'f.id', order: 'desc' },
      ])
      .limit(options.limit);
    if (options.userId) query.where('f.user_id', options.userId);
    if (options.kind) query.where('f.kind', options.kind);
    if (options.before) {
      query.whereRaw('(f.created_at, f.id) < (?, ?)', [
        options.before.createdAt,
        options.before.id,
      ]);
    }
    return (await query) as FeedbackListed[];
  },

  /** The screenshot of one feedback; with `userId`, only if that sender sent it. */
  screenshot: async (
    knex: Knex,
    feedbackId: string,
    userId?: string,
  ): Promise<ScreenshotRow | undefined> => {
    const query = knex('feedback_screenshots as s')
      .select('s.*')
      .where('s.feedback_id', feedbackId)
      .first();
    if (userId) {
      query.whereExists(
        knex('feedback as f').where('f.id', knex.ref('s.feedback_id')).where('f.user_id', userId),
      );
    }
    return (await query) as ScreenshotRow | undefined;
  },

  /** Everything one account sent (its screenshots go with it). */
  eraseOf: (knex: Knex, userId: string) => deleteInBatches(knex, 'feedback', { user_id: userId }),
};
