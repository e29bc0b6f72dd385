export * from './errors.js';
export * from './notes.js';
export * from './users.js';
export * from './client.js';
