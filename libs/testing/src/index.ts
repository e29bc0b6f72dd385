export * from './infra.js';
export * from './tokens.js';
export * from './openai-server.js';
export * from './keycloak.js';
export * from './stripe-server.js';
export * from './files.js';
export * from './zip.js';
export * from './hostile.js';
