import type { Knex } from 'knex';
import { startPeriodic, type Logger } from '@noted/kit';
import { startUserErasure } from '@noted/db';
import type { EventBus } from '@noted/events';
import { userEvents } from '@noted/proto';
import type { IdentityAccounts } from './identity-accounts.js';
import { tombstonesPrune, userErase } from './usecases.js';

/**
 * How the deletion of an identity account is retried while the provider is away: every 30 s
 * for an hour, then given up (and logged as an error).
 */
export const IDENTITY_RETRY_DELAY_MS = 30_000;
export const IDENTITY_MAX_DELIVER = 120;

/**
 * `users-user-deleted`: the user's usage and row go (the other services erase theirs from the
 * same event); the tombstone stays, and is pruned once no token of the account can be valid.
 * `identity-user-deleted`: the account at the identity provider goes (Keycloak, or the
 * development provider wherever it runs), on its own consumer, so that a provider outage holds
 * up nothing else and is retried by redelivery.
 */
export const startUserDeletion = (options: {
  bus: EventBus;
  knex: Knex;
  logger: Logger;
  /** Undefined: the identity provider's accounts are not deleted here (logged at start). */
  accounts: IdentityAccounts | undefined;
  /** How the account's deletion is retried; `IDENTITY_RETRY_DELAY_MS` and `IDENTITY_MAX_DELIVER`. */
  accountRetry?: { delayMs: number; maxDeliver: number };
}) => [
  startUserErasure({
    service: 'users',
    bus: options.bus,
    logger: options.logger,
    event: userEvents.deleted,
    erase: ({ userId }) => userErase(options, userId),
  }),
  ...(options.accounts
    ? [
        startAccountDeletion({
          ...options,
          accounts: options.accounts,
          retry: options.accountRetry ?? {
            delayMs: IDENTITY_RETRY_DELAY_MS,
            maxDeliver: IDENTITY_MAX_DELIVER,
          },
        }),
      ]
    : []),
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

const startAccountDeletion = (options: {
  bus: EventBus;
  logger: Logger;
  accounts: IdentityAccounts;
  retry: { delayMs: number; maxDeliver: number };
}) =>
  startUserErasure({
    service: 'identity',
    bus: options.bus,
    logger: options.logger.child({ identityProvider: options.accounts.provider }),
    event: userEvents.deleted,
    retryDelayMs: options.retry.delayMs,
    maxDeliver: options.retry.maxDeliver,
    erase: async ({ authId }) => ({
      account: (await options.accounts.delete(authId)) === 'deleted' ? 1 : 0,
    }),
  });
