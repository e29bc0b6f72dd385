import type { Knex } from 'knex';
import {
  deleteInBatches,
  erasedUsers,
  forgetOutboxOf,
  startErasedUsersPruning,
  startUserErasure,
} from '@noted/db';
import type { EventBus } from '@noted/events';
import type { Logger } from '@noted/kit';
import { userEvents } from '@noted/proto';

/** Every table of the ai schema that holds a user's rows, in the order they are erased. */
export const USER_TABLES = [
  'chunks',
  'indexed_notes',
  'index_versions',
  'excluded_tags',
  'chat_messages',
  'chats',
  'summaries',
  'token_usage',
] as const;

/**
 * Erases everything ai holds of a user (the index, chats, summaries, settings, token use and
 * outbox rows naming them), in batches. Idempotent. A cached index of the user is no longer
 * used: each use compares the stored index version, which is gone. The user is first recorded
 * as erased (`erased_users`), so a note event that comes later indexes nothing.
 */
export const userErase = async (knex: Knex, userId: string): Promise<Record<string, number>> => {
  await erasedUsers.record(knex, userId);
  const erased: Record<string, number> = {};
  for (const table of USER_TABLES) {
    erased[table] = await deleteInBatches(knex, table, { user_id: userId });
  }
  erased.outbox = await forgetOutboxOf(knex, userId);
  return erased;
};

/** `ai-user-deleted`, and the pruning of the erased users' record once no event can come. */
export const startUserDeletion = (options: { bus: EventBus; knex: Knex; logger: Logger }) => {
  const erasure = startUserErasure({
    service: 'ai',
    bus: options.bus,
    logger: options.logger,
    event: userEvents.deleted,
    erase: ({ userId }) => userErase(options.knex, userId),
  });
  const pruning = startErasedUsersPruning(options);
  return {
    stop: async () => {
      await Promise.all([erasure.stop(), pruning.stop()]);
    },
  };
};
