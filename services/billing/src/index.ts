export * from './config.js';
export * from './service.js';
export { billingMigrations } from './migrations.js';
export type { BillingContext } from './context.js';
