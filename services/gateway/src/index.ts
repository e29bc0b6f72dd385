export * from './config.js';
export * from './gateway.js';
