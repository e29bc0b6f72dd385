import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { log } from '../log';

export class RemoteLoadError extends Error {
  constructor(
    readonly remoteId: string,
    readonly reason: unknown,
  ) {
    super(`The remote module ${remoteId} could not be loaded`);
    this.name = 'RemoteLoadError';
  }
}

/** What loadRemote resolves to once every attempt to fetch a remote module has failed. */
export interface RemoteFallbackModule {
  default: () => never;
  remoteUnavailable: RemoteLoadError;
}

export const isRemoteFallback = (value: unknown): value is RemoteFallbackModule =>
  typeof value === 'object' &&
  value !== null &&
  'remoteUnavailable' in value &&
  value.remoteUnavailable instanceof RemoteLoadError;

export const createRemoteFallback = (id: string, reason: unknown): RemoteFallbackModule => {
  const remoteUnavailable = new RemoteLoadError(id, reason);
  return {
    // Rendered by a caller that did not check: throwing hands the failure to the nearest
    // ErrorBoundary instead of showing a blank area.
    default: () => {
      throw remoteUnavailable;
    },
    remoteUnavailable,
  };
};

/**
 * Second layer of remote failure handling: log the failure and resolve with a fallback
 * module. Only the final 'onLoad' stage is answered; an earlier answer would be taken for a
 * manifest or a request rewrite.
 */
export const remoteFallbackPlugin = (): ModuleFederationRuntimePlugin => ({
  name: 'noted-remote-fallback',
  errorLoadRemote: ({ id, error, lifecycle }) => {
    if (lifecycle !== 'onLoad') return undefined;
    log.error(`Loading the remote module ${id} failed.`, error);
    return createRemoteFallback(id, error);
  },
});
