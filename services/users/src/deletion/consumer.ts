import type { Knex } from 'knex';
import { startPeriodic, type Logger } from '@noted/kit';
import { startUserErasure } from '@noted/db';
import type { EventBus } from '@noted/events';
import { userEvents } from '@noted/proto';
import { tombstonesPrune, userErase } from './usecases.js';

/**
 * `users-user-deleted`: the user's usage and row go (the other services erase theirs from the
 * same event); the tombstone stays, and is pruned once no token of the account can be valid.
 */
export const startUserDeletion = (options: { bus: EventBus; knex: Knex; logger: Logger }) => [
  startUserErasure({
    service: 'users',
    bus: options.bus,
    logger: options.logger,
    event: userEvents.deleted,
    erase: ({ userId }) => userErase(options, userId),
  }),
  startPeriodic({
    name: 'pruning tombstones',
    intervalMs: 3600_000,
    firstDelayMs: 60_000,
    logger: options.logger,
    run: async () => {
      await tombstonesPrune(options);
    },
  }),
];
