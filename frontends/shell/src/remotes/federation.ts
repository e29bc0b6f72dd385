import { getInstance } from '@module-federation/enhanced/runtime';
import type { ModuleFederation } from '@module-federation/enhanced/runtime';
import { remoteFallbackPlugin } from './fallbackPlugin';

/** The instance the build plugin created for the shell, with the fallback plugin added. */
export const setUpFederation = (): ModuleFederation => {
  const instance = getInstance();
  if (!instance) throw new Error('The Module Federation runtime has not started');
  instance.registerPlugins([remoteFallbackPlugin()]);
  return instance;
};
