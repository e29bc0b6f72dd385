import { describe, expect, it } from 'vitest';
import { createLogger } from '@noted/kit';
import { TargetError, resolveTargets, startModules, type ModuleMap } from './manager.js';

type Name = 'server' | 'store' | 'api' | 'worker';
const logger = createLogger({ level: 'silent' });

const recordingModules = (events: string[], failOn?: Name): ModuleMap<Name, undefined> => {
  const module = (name: Name, deps: Name[]) => ({
    deps,
    start: async () => {
      if (name === failOn) throw new Error(`${name} failed`);
      events.push(`start ${name}`);
      return {
        ready: () => true,
        stop: async () => {
          events.push(`stop ${name}`);
        },
      };
    },
  });
  return {
    server: module('server', []),
    store: module('store', ['server']),
    api: module('api', ['store', 'server']),
    worker: module('worker', ['store']),
  };
};

describe('resolveTargets', () => {
  const modules = recordingModules([]);

  it('pulls in dependencies before the module that needs them', () => {
    expect(resolveTargets(modules, ['api'], [])).toEqual(['server', 'store', 'api']);
  });

  it('expands all to every listed module once, dependencies first', () => {
    expect(resolveTargets(modules, ['all'], ['worker', 'api'])).toEqual([
      'server',
      'store',
      'worker',
      'api',
    ]);
  });

  it('merges a comma list without repeating shared dependencies', () => {
    expect(resolveTargets(modules, ['worker', 'api'], [])).toEqual([
      'server',
      'store',
      'worker',
      'api',
    ]);
  });

  it('refuses an unknown target, naming the known ones', () => {
    expect(() => resolveTargets(modules, ['nope'], [])).toThrow(TargetError);
    expect(() => resolveTargets(modules, ['nope'], [])).toThrow(/server, store, api, worker/);
  });

  it('refuses a dependency cycle', () => {
    const cyclic = { ...modules, server: { ...modules.server, deps: ['api' as const] } };
    expect(() => resolveTargets(cyclic, ['api'], [])).toThrow(/cycle/);
  });
});

describe('startModules', () => {
  it('starts in order and stops in reverse, once', async () => {
    const events: string[] = [];
    const modules = recordingModules(events);
    const running = await startModules(modules, ['server', 'store', 'api'], undefined, logger);
    expect(running.ready()).toBe(true);
    await Promise.all([running.stop(), running.stop()]);
    expect(events).toEqual([
      'start server',
      'start store',
      'start api',
      'stop api',
      'stop store',
      'stop server',
    ]);
  });

  it('stops what had started when a later module fails to start', async () => {
    const events: string[] = [];
    const modules = recordingModules(events, 'api');
    await expect(
      startModules(modules, ['server', 'store', 'api'], undefined, logger),
    ).rejects.toThrow('api failed');
    expect(events).toEqual(['start server', 'start store', 'stop store', 'stop server']);
  });
});
