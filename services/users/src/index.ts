export * from './config.js';
export * from './service.js';
export { entitlementsFromMessage } from './users/presenter.js';
export { usersMigrations } from './migrations.js';
