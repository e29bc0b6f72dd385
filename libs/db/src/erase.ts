import type { Knex } from 'knex';
import { Counter } from 'prom-client';
import { subscribeWorkers, type EventBus } from '@noted/events';
import { registry, startPeriodic, type Logger } from '@noted/kit';
import type { Migration } from './database.js';

/** Rows deleted per statement when a user's data is erased: no one giant transaction. */
export const ERASE_BATCH = 500;

/**
 * Deletes the rows of `table` that match `where`, `batch` rows per statement, each committed
 * on its own, so a user with 10,000 notes never holds one long transaction; the number deleted.
 * A crash midway leaves fewer rows, and running it again deletes the rest.
 */
export const deleteInBatches = async (
  knex: Knex,
  table: string,
  where: Record<string, string>,
  batch = ERASE_BATCH,
): Promise<number> => {
  let total = 0;
  for (;;) {
    const deleted = await knex(table)
      .whereIn('ctid', knex(table).select('ctid').where(where).limit(batch))
      .delete();
    total += deleted;
    if (deleted < batch) return total;
  }
};

/**
 * Deletes a service's outbox rows that name `userId` in a header or anywhere in the payload
 * (protobuf writes string fields as their UTF-8 bytes), published or not: nothing about a
 * deleted user is announced any more. `keepSubjects` keeps the events that must still go out.
 */
export const forgetOutboxOf = async (
  knex: Knex,
  userId: string,
  options: { keepSubjects?: string[]; batch?: number } = {},
): Promise<number> => {
  const batch = options.batch ?? ERASE_BATCH;
  const keep = options.keepSubjects ?? [];
  let total = 0;
  for (;;) {
    const rows: unknown = await knex.raw(
      `delete from outbox where ctid in (
         select ctid from outbox
          where (headers::text like ? or position(convert_to(?, 'UTF8') in payload) > 0)
            and not (subject = any(?::text[]))
          limit ?)`,
      [`%${userId}%`, userId, keep, batch],
    );
    const deleted = (rows as { rowCount?: number }).rowCount ?? 0;
    total += deleted;
    if (deleted < batch) return total;
  }
};

export const userErasures = new Counter({
  name: 'noted_user_erasures_total',
  help:
    "Deleted accounts' data erased, by service and outcome (erased, failed); a redelivered " +
    'event is counted again',
  labelNames: ['service', 'outcome'] as const,
  registers: [registry],
});

/** What a `user.deleted` event names. */
export interface DeletedUser {
  userId: string;
  authId: string;
}

/**
 * A service's durable consumer of `user.deleted` (`<service>-user-deleted`): `erase` removes
 * everything the service holds of the user and must be idempotent (a second delivery finds
 * nothing and succeeds; one that failed midway is redelivered and finishes). Answers what it
 * erased, by kind, for the log.
 */
export const startUserErasure = (options: {
  service: string;
  bus: EventBus;
  logger: Logger;
  /** The `user.deleted` event type (`userEvents.deleted` of `@noted/proto`). */
  event: { subject: string; decode: (data: Uint8Array) => DeletedUser };
  erase: (user: DeletedUser) => Promise<Record<string, number>>;
  /** How long before a failed erasure runs again, and how many runs before it is given up. */
  retryDelayMs?: number;
  maxDeliver?: number;
}) =>
  subscribeWorkers(options.bus, {
    name: 'account erasure',
    logger: options.logger,
    workers: 1,
    durable: `${options.service}-user-deleted`,
    subject: options.event.subject,
    ...(options.retryDelayMs === undefined ? {} : { retryDelayMs: options.retryDelayMs }),
    ...(options.maxDeliver === undefined ? {} : { maxDeliver: options.maxDeliver }),
    handler: async (message) => {
      const user = options.event.decode(message.data);
      try {
        const erased = await options.erase(user);
        userErasures.inc({ service: options.service, outcome: 'erased' });
        options.logger.info({ userId: user.userId, erased }, 'account data erased');
      } catch (error) {
        userErasures.inc({ service: options.service, outcome: 'failed' });
        options.logger.warn(
          { err: error, userId: user.userId, delivery: message.deliveryCount },
          'account data erasure failed; it is retried',
        );
        throw error;
      }
    },
  });

/**
 * How long a service remembers a user it erased: twice the longest an event waits on the bus
 * (JetStream keeps one 7 days), so no event about the user can come later.
 */
export const ERASED_USERS_KEEP_DAYS = 14;

/**
 * `erased_users`: the ids (nothing else) of the users a service erased, kept for
 * `ERASED_USERS_KEEP_DAYS`. In the migrations of a service whose event consumers write a user's
 * rows, so that an event published before the erasure and delivered after it is dropped.
 */
export const erasedUsersMigrations: Migration[] = [
  {
    name: '0000_noted_erased_users',
    async up(knex) {
      await knex.schema.createTable('erased_users', (table) => {
        table.text('user_id').primary();
        table.timestamp('erased_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
    },
    async down(knex) {
      await knex.schema.dropTable('erased_users');
    },
  },
];

/** The advisory lock of a user's rows: shared by their writers, exclusive while erasure starts. */
const userLock = `hashtextextended('noted:erased-user:' || ?, 0)`;

/**
 * The service's own record of the users it erased, known from `user.deleted` (no service asks
 * another): writers of a user's rows from events check it in their transaction.
 */
export const erasedUsers = {
  /**
   * Records, before the user's rows go, that the user is erased. It waits for the writers of
   * the user's rows in flight (`among` holds the user's lock shared), so each of them either
   * committed before (and the erasure that follows deletes what it wrote) or sees the record.
   */
  record: async (knex: Knex, userId: string): Promise<void> => {
    await knex.transaction(async (trx) => {
      await trx.raw(`select pg_advisory_xact_lock(${userLock})`, [userId]);
      await trx('erased_users').insert({ user_id: userId }).onConflict('user_id').ignore();
    });
  },

  /**
   * In a transaction that writes rows of these users: the ones erased, whose rows the caller
   * must not write. Holds each user's lock, shared, until the transaction ends.
   */
  among: async (trx: Knex.Transaction, userIds: string[]): Promise<Set<string>> => {
    const ids = [...new Set(userIds)];
    if (ids.length === 0) return new Set();
    await trx.raw(
      `select pg_advisory_xact_lock_shared(key) from
         (select hashtextextended('noted:erased-user:' || id, 0) as key
            from unnest(?::text[]) as id order by 1) as keys`,
      [ids],
    );
    return erasedUsers.peek(trx, ids);
  },

  /** The erased ones among these users, without a lock: to skip work early, not to decide. */
  peek: async (db: Knex | Knex.Transaction, userIds: string[]): Promise<Set<string>> => {
    const ids = [...new Set(userIds)];
    if (ids.length === 0) return new Set();
    const rows = await db<{ user_id: string }>('erased_users')
      .whereIn('user_id', ids)
      .select('user_id');
    return new Set(rows.map((row) => row.user_id));
  },

  /** Forgets the users erased before `before`; how many. */
  prune: async (knex: Knex, before: Date): Promise<number> =>
    knex('erased_users').where('erased_at', '<', before).delete(),
};

/** Prunes `erased_users` every hour of what is older than `ERASED_USERS_KEEP_DAYS`. */
export const startErasedUsersPruning = (options: { knex: Knex; logger: Logger }) =>
  startPeriodic({
    name: 'pruning erased users',
    intervalMs: 3600_000,
    firstDelayMs: 60_000,
    logger: options.logger,
    run: async () => {
      await erasedUsers.prune(
        options.knex,
        new Date(Date.now() - ERASED_USERS_KEEP_DAYS * 24 * 3600_000),
      );
    },
  });
