export * from './config.js';
export * from './service.js';
export { entitlementsFromMessage } from './users/presenter.js';
export { usersRouter } from './users/routes.js';
