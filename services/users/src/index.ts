export * from './config.js';
export * from './service.js';
export { usersMigrations } from './migrations.js';
