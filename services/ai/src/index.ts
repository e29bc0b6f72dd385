export * from './config.js';
export * from './service.js';
export type { AiProvider } from './providers/port.js';
export type { AiContext } from './context.js';
export { aiMigrations } from './migrations.js';
