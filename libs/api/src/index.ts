export * from './errors.js';
export * from './links.js';
export * from './notes.js';
export * from './note-form.js';
export * from './search.js';
export * from './todos.js';
export * from './users.js';
export * from './client.js';
