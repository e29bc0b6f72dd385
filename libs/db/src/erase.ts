import type { Knex } from 'knex';
import { Counter } from 'prom-client';
import { subscribeWorkers, type EventBus } from '@noted/events';
import { registry, type Logger } from '@noted/kit';

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
}) =>
  subscribeWorkers(options.bus, {
    name: 'account erasure',
    logger: options.logger,
    workers: 1,
    durable: `${options.service}-user-deleted`,
    subject: options.event.subject,
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
