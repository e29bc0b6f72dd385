export * from './config.js';
export * from './service.js';
export { noteSubjects } from './notes/events.js';
