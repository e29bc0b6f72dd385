import type { ComponentType } from 'react';
import { RemoteLoadError, isRemoteFallback } from './fallbackPlugin';

export interface RemoteTarget {
  /** The remote's container name, as in its ModuleFederationPlugin `name`. */
  name: string;
  /** Address of the remote's mf-manifest.json, from config.json; undefined when not configured. */
  entry: string | undefined;
  /** The exposed module without './'. */
  expose: string;
}

export interface RemoteLoaderOptions {
  /** First layer of failure handling: further attempts before giving up. */
  retries?: number;
  retryDelayMs?: number;
}

/** The two calls of the Module Federation runtime instance the loader needs. */
export interface Federation {
  registerRemotes: (
    remotes: { name: string; entry: string }[],
    options: { force: boolean },
  ) => void;
  loadRemote: (id: string) => Promise<unknown>;
}

export interface ComponentModule<P> {
  default: ComponentType<P>;
}

const isComponentModule = <P>(value: unknown): value is ComponentModule<P> =>
  typeof value === 'object' &&
  value !== null &&
  'default' in value &&
  (typeof value.default === 'function' ||
    (typeof value.default === 'object' && value.default !== null));

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Returns load() for a remote's exposed component. Each call after a failure really fetches
 * again: re-registering the remote with force drops the runtime's cached manifest, entry and
 * module.
 */
export const createRemoteLoader = <P>(
  federation: Federation,
  target: RemoteTarget,
  { retries = 1, retryDelayMs = 400 }: RemoteLoaderOptions = {},
): (() => Promise<ComponentModule<P>>) => {
  const id = `${target.name}/${target.expose}`;
  let stale = false;

  const attempt = async (entry: string): Promise<ComponentModule<P>> => {
    federation.registerRemotes([{ name: target.name, entry }], { force: stale });
    stale = true;
    const module = await federation.loadRemote(id).catch((error: unknown) => {
      throw new RemoteLoadError(id, error);
    });
    if (isRemoteFallback(module)) throw module.remoteUnavailable;
    if (!isComponentModule<P>(module)) {
      throw new RemoteLoadError(id, new Error('The module has no default export to render'));
    }
    stale = false;
    return module;
  };

  return async () => {
    const { entry } = target;
    if (!entry) {
      throw new RemoteLoadError(id, new Error(`No address is configured for ${target.name}`));
    }
    for (let tried = 0; ; tried += 1) {
      try {
        return await attempt(entry);
      } catch (error) {
        if (tried >= retries) throw error;
        await delay(retryDelayMs * (tried + 1));
      }
    }
  };
};
