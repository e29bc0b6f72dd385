export {
  openDatabase,
  type Database,
  type DatabaseExtension,
  type DatabaseOptions,
  type Migration,
} from './database.js';
export { DEFAULT_PGLITE_SHARED_BUFFERS_MB, type PgliteSettings } from './pglite.js';
export {
  enqueueEvent,
  outboxEvent,
  writeWithEvent,
  outboxMigrations,
  outboxPending,
  startOutboxRelay,
  type OutboxEvent,
  type OutboxRelay,
  type OutboxRelayOptions,
} from './outbox.js';
export { processOnce, processedEventsMigrations } from './processed.js';
export {
  createUnitOfWork,
  type EventConnection,
  type EventTransaction,
  type UnitOfWork,
} from './unit-of-work.js';
export type { Knex } from 'knex';
export {
  deleteInBatches,
  erasedUsers,
  erasedUsersMigrations,
  forgetOutboxOf,
  startErasedUsersPruning,
  startUserErasure,
  userErasures,
  ERASE_BATCH,
  ERASED_USERS_KEEP_DAYS,
  type DeletedUser,
} from './erase.js';
