export { startIdentity, type IdentityOptions, type RunningIdentity } from './identity.js';
export { identityConfig, identityConfigSchema, type IdentityConfig } from './config.js';
export { API_AUDIENCE, CLI_CLIENT_ID, WEB_CLIENT_ID } from './constants.js';
