import { afterEach, describe, expect, it, vi } from 'vitest';
import { chunkReloadGuardMs, isChunkLoadError, reloadOnceFor } from './chunkReload';
import { createPwa, installSnoozeMs, type ServiceWorkerClient } from './pwa';

type Listener = (event: { isUpdate?: boolean }) => void;

const fakeServiceWorker = () => {
  const listeners = new Map<string, Listener[]>();
  const client: ServiceWorkerClient = {
    addEventListener: (type, listener) =>
      listeners.set(type, [...(listeners.get(type) ?? []), listener]),
    register: vi.fn(async () => undefined),
    update: vi.fn(async () => undefined),
    messageSkipWaiting: vi.fn(),
  };
  const emit = (type: string, event: { isUpdate?: boolean } = {}) => {
    for (const listener of listeners.get(type) ?? []) listener(event);
  };
  return { client, emit };
};

const fakeWindow = () => {
  const reload = vi.fn();
  const win = Object.assign(new EventTarget(), {
    document,
    location: { pathname: '/notes/1', reload },
    setInterval: vi.fn(() => 0),
  }) as unknown as Window;
  return { win, reload };
};

const latestBuild = (buildId: string) => vi.fn(async () => Response.json({ buildId }));

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});

describe('new versions', () => {
  it('sees a newer build in the latest-build file and, without a service worker, reloads on apply', async () => {
    const { win, reload } = fakeWindow();
    const pwa = createPwa({ window: win, fetch: latestBuild('b2'), buildId: 'b1' });
    await pwa.checkForBuild();
    expect(pwa.state.get()).toMatchObject({ newBuild: true, updateReady: true });
    pwa.applyUpdate();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('stays quiet while the latest build is this one, or the file cannot be read', async () => {
    const { win } = fakeWindow();
    const same = createPwa({ window: win, fetch: latestBuild('b1'), buildId: 'b1' });
    await same.checkForBuild();
    const broken = createPwa({
      window: win,
      fetch: vi.fn(async () => new Response('gone', { status: 503 })),
      buildId: 'b1',
    });
    await broken.checkForBuild();
    expect(same.state.get().newBuild).toBe(false);
    expect(broken.state.get().newBuild).toBe(false);
  });

  it('with a service worker: fetches the new one, offers it once it waits, activates it, then reloads', async () => {
    const { win, reload } = fakeWindow();
    const { client, emit } = fakeServiceWorker();
    const pwa = createPwa({
      window: win,
      fetch: latestBuild('b2'),
      buildId: 'b1',
      createServiceWorker: async () => client,
    });
    pwa.start();
    await settle();
    expect(client.register).toHaveBeenCalledTimes(1);
    emit('activated', { isUpdate: false });
    expect(pwa.state.get().offlineReady).toBe(true);

    await pwa.checkForBuild();
    expect(client.update).toHaveBeenCalledTimes(1);
    expect(pwa.state.get()).toMatchObject({ newBuild: true, updateReady: false });
    emit('waiting');
    expect(pwa.state.get().updateReady).toBe(true);

    pwa.applyUpdate();
    expect(client.messageSkipWaiting).toHaveBeenCalledTimes(1);
    expect(reload).not.toHaveBeenCalled();
    emit('controlling');
    expect(reload).toHaveBeenCalledTimes(1);
  });
});

describe('chunk errors', () => {
  const chunkError = Object.assign(new Error('Loading chunk 441 failed.'), {
    name: 'ChunkLoadError',
  });

  it('with a service worker that cannot be registered: offers the new build as a reload', async () => {
    const { win, reload } = fakeWindow();
    const { client } = fakeServiceWorker();
    vi.mocked(client.register).mockRejectedValueOnce(new Error('blocked'));
    const pwa = createPwa({
      window: win,
      fetch: latestBuild('b2'),
      buildId: 'b1',
      createServiceWorker: async () => client,
      log: { warn: vi.fn() },
    });
    pwa.start();
    await settle();
    await pwa.checkForBuild();
    expect(client.update).not.toHaveBeenCalled();
    expect(pwa.state.get()).toMatchObject({ newBuild: true, updateReady: true });
    pwa.applyUpdate();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('recognises failed code loads, and nothing else', () => {
    expect(isChunkLoadError(chunkError)).toBe(true);
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /a.js')),
    ).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError('Loading chunk 1 failed')).toBe(false);
  });

  it('reloads on a chunk error only after a new build was seen', async () => {
    const { win, reload } = fakeWindow();
    const pwa = createPwa({ window: win, fetch: latestBuild('b2'), buildId: 'b1' });
    expect(pwa.recoverFromLoadError(chunkError)).toBe(false);
    await pwa.checkForBuild();
    expect(pwa.recoverFromLoadError(new Error('a bug'))).toBe(false);
    expect(pwa.recoverFromLoadError(chunkError)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('reloads a path at most once per 10 s', () => {
    const reload = vi.fn();
    const storage = new Map<string, string>();
    const store = {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
    };
    expect(reloadOnceFor('/notes/1', { now: 1_000, storage: store, reload })).toBe(true);
    expect(reloadOnceFor('/notes/1', { now: 5_000, storage: store, reload })).toBe(false);
    expect(reloadOnceFor('/todos', { now: 5_000, storage: store, reload })).toBe(true);
    expect(
      reloadOnceFor('/notes/1', { now: 1_000 + chunkReloadGuardMs, storage: store, reload }),
    ).toBe(true);
    expect(reload).toHaveBeenCalledTimes(3);
  });
});

describe('install prompt', () => {
  it('offers the install the browser allows, and prompts on install', async () => {
    const { win } = fakeWindow();
    const pwa = createPwa({ window: win, fetch: latestBuild('b1'), buildId: 'b1' });
    pwa.start();
    const prompt = vi.fn(async () => undefined);
    const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt,
      userChoice: Promise.resolve({ outcome: 'accepted' as const }),
    });
    win.dispatchEvent(offer);
    expect(offer.defaultPrevented).toBe(true);
    expect(pwa.state.get().installable).toBe(true);
    await pwa.install();
    expect(prompt).toHaveBeenCalledTimes(1);
    expect(pwa.state.get().installable).toBe(false);
  });

  it('"not now" puts it off for two weeks, on every page, and "don\'t ask again" for good', () => {
    let time = Date.parse('2026-12-01T09:00:00Z');
    const offered = () => {
      const { win } = fakeWindow();
      const pwa = createPwa({
        window: win,
        fetch: latestBuild('b1'),
        buildId: 'b1',
        now: () => time,
      });
      pwa.start();
      win.dispatchEvent(new Event('beforeinstallprompt', { cancelable: true }));
      return pwa;
    };
    const first = offered();
    expect(first.state.get().installable).toBe(true);
    first.hideInstall(false);
    expect(first.state.get().installable).toBe(false);

    // The next page, and the next day: not offered again.
    time += 24 * 60 * 60_000;
    expect(offered().state.get().installable).toBe(false);
    // Two weeks on: offered again.
    time += installSnoozeMs;
    const later = offered();
    expect(later.state.get().installable).toBe(true);

    later.hideInstall(true);
    time += 10 * installSnoozeMs;
    expect(offered().state.get().installable).toBe(false);
    expect(localStorage.getItem('installPromptHidden')).toBe('1');
  });
});
