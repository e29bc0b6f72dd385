export * from './config.js';
export * from './service.js';
export { notesMigrations } from './migrations.js';
