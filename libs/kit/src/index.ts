export * from './config.js';
export * from './context.js';
export * from './logger.js';
export * from './metrics.js';
export * from './identity.js';
export * from './http.js';
export * from './module.js';
export * from './nul.js';
