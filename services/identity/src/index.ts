import type { IdentityOptions, RunningIdentity } from './identity.js';

export type { IdentityOptions, RunningIdentity } from './identity.js';
export { identityConfig, identityConfigSchema, type IdentityConfig } from './config.js';
export { API_AUDIENCE, CLI_CLIENT_ID, WEB_CLIENT_ID } from './constants.js';

/** Loads oidc-provider only where the development provider runs, not in every process. */
export const startIdentity = async (options: IdentityOptions): Promise<RunningIdentity> =>
  (await import('./identity.js')).startIdentity(options);
