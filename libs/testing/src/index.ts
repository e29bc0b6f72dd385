export * from './infra.js';
export * from './tokens.js';
