import { describe, expect, it } from 'vitest';
import { createLogger } from '@noted/kit';
import { TargetError, resolveTargets, startModules, type ModuleMap } from './manager.js';

type Name = 'server' | 'store' | 'api' | 'worker' | 'client';
const logger = createLogger({ level: 'silent' });

const recordingModules = (
  events: string[],
  failOn?: Name,
  given: Partial<Record<Name, unknown>> = {},
): ModuleMap<Name, undefined> => {
  const module = (name: Name, deps: Name[], reads: Name[] = []) => ({
    deps,
    reads,
    start: async (_context: undefined, handed: Partial<Record<Name, unknown>>) => {
      if (name === failOn) throw new Error(`${name} failed`);
      events.push(`start ${name}`);
      given[name] = handed;
      return {
        ready: () => true,
        stop: async () => {
          events.push(`stop ${name}`);
        },
        provides: `${name} endpoint`,
      };
    },
  });
  return {
    server: module('server', []),
    store: module('store', ['server']),
    api: module('api', ['store', 'server']),
    worker: module('worker', ['store']),
    client: module('client', [], ['api']),
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

  it('starts a module after the modules it reads that run here, without pulling them in', () => {
    expect(resolveTargets(modules, ['client'], [])).toEqual(['client']);
    expect(resolveTargets(modules, ['client', 'api'], [])).toEqual([
      'server',
      'store',
      'api',
      'client',
    ]);
  });

  it('refuses a cycle through reads', () => {
    const cyclic = { ...modules, api: { ...modules.api, reads: ['client' as const] } };
    expect(() => resolveTargets(cyclic, ['client', 'api'], [])).toThrow(/cycle/);
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

  it('hands a module what its deps and the modules it reads provide, and nothing else', async () => {
    const given: Partial<Record<Name, unknown>> = {};
    const modules = recordingModules([], undefined, given);
    const order: Name[] = ['server', 'store', 'api', 'client'];
    const running = await startModules(modules, order, undefined, logger);
    expect(given).toEqual({
      server: {},
      store: { server: 'server endpoint' },
      api: { store: 'store endpoint', server: 'server endpoint' },
      client: { api: 'api endpoint' },
    });
    expect(running.provided).toMatchObject({ client: 'client endpoint' });
    await running.stop();

    const alone: Partial<Record<Name, unknown>> = {};
    await (
      await startModules(recordingModules([], undefined, alone), ['client'], undefined, logger)
    ).stop();
    expect(alone).toEqual({ client: {} });
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
