import { createStore, type Store } from '../store';
import { isChunkLoadError, reloadOnceFor } from './chunkReload';

declare const __NOTED_BUILD_ID__: string | undefined;

/** The build this page runs; 'development' outside a production build (tests). */
export const currentBuildId =
  typeof __NOTED_BUILD_ID__ === 'string' ? __NOTED_BUILD_ID__ : 'development';

/** How often the latest-build file is checked while the page is open. */
export const buildPollMs = 5 * 60_000;
/** The stored flag that hides the install prompt for good. */
export const installHiddenKey = 'installPromptHidden';
/** The stored time (ms since 1970) until which "Not now" put the install prompt off. */
export const installSnoozedKey = 'installPromptSnoozedUntil';
/**
 * How long "Not now" puts the offer off: long enough not to come back on the next page (it
 * did, on every load), short enough that a reader who meant "not now" is asked again.
 */
export const installSnoozeMs = 14 * 24 * 60 * 60_000;

/** Chromium's install prompt event (not in the DOM typings). */
export interface InstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

export interface PwaState {
  /** The service worker has just cached the app for the first time: it now opens offline. */
  offlineReady: boolean;
  /** A newer build is out (the latest-build file names another build than this page). */
  newBuild: boolean;
  /** The new version is ready: `applyUpdate` switches to it. */
  updateReady: boolean;
  /** The browser offers installing the app and the user has not hidden the prompt. */
  installable: boolean;
}

/** What the shell needs of workbox-window's Workbox, so tests can give a stand-in. */
export interface ServiceWorkerClient {
  addEventListener: (
    type: 'waiting' | 'controlling' | 'activated',
    listener: (event: { isUpdate?: boolean }) => void,
  ) => void;
  register: () => Promise<unknown>;
  update: () => Promise<unknown>;
  messageSkipWaiting: () => void;
}

export interface PwaOptions {
  window?: Window;
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
  fetch?: typeof fetch;
  /** The service worker at the site root; undefined where there is none (tests, old browsers). */
  createServiceWorker?: () => Promise<ServiceWorkerClient | undefined>;
  buildId?: string;
  pollMs?: number;
  log?: { warn: (message: string, detail?: unknown) => void };
  /** The time now, in ms (tests). */
  now?: () => number;
}

export interface Pwa {
  state: Store<PwaState>;
  /** Registers the service worker, starts polling for builds and listens for the install offer. */
  start: () => void;
  /** Checks the latest-build file now. */
  checkForBuild: () => Promise<void>;
  /** Switches to the new version: activates the waiting service worker, then reloads. */
  applyUpdate: () => void;
  /** Shows the browser's install dialog. */
  install: () => Promise<void>;
  /** Hides the install prompt: for `installSnoozeMs` ("Not now"), or for good. */
  hideInstall: (forGood: boolean) => void;
  /**
   * A page or remote failed to load its code: after a new build that is expected, so the page
   * reloads (at most once per 10 s per path). True when it reloads.
   */
  recoverFromLoadError: (error: unknown) => boolean;
}

export const createPwa = ({
  window: win = window,
  storage = globalThis.localStorage,
  fetch: fetchFn = (...args) => fetch(...args),
  createServiceWorker = async () => undefined,
  buildId = currentBuildId,
  pollMs = buildPollMs,
  log,
  now = Date.now,
}: PwaOptions = {}): Pwa => {
  const state = createStore<PwaState>({
    offlineReady: false,
    newBuild: false,
    updateReady: false,
    installable: false,
  });
  const patch = (next: Partial<PwaState>) => state.set((current) => ({ ...current, ...next }));
  let serviceWorker: ServiceWorkerClient | undefined;
  let installEvent: InstallPromptEvent | undefined;
  let started = false;

  const installHidden = () => {
    try {
      if (storage.getItem(installHiddenKey) === '1') return true;
      return Number(storage.getItem(installSnoozedKey) ?? 0) > now();
    } catch {
      return false;
    }
  };

  const checkForBuild = async () => {
    try {
      const response = await fetchFn('/build.json', { cache: 'no-store' });
      if (!response.ok) return;
      const { buildId: latest } = (await response.json()) as { buildId?: unknown };
      if (typeof latest !== 'string' || latest === buildId) return;
      patch({ newBuild: true });
      // The service worker of the new build installs and waits; without one, a reload is it.
      if (serviceWorker) await serviceWorker.update();
      else patch({ updateReady: true });
    } catch (error) {
      log?.warn('Checking for a new version failed.', error);
    }
  };

  const start = () => {
    if (started) return;
    started = true;
    win.addEventListener('beforeinstallprompt', (event) => {
      event.preventDefault();
      installEvent = event as InstallPromptEvent;
      if (!installHidden()) patch({ installable: true });
    });
    win.addEventListener('appinstalled', () => {
      installEvent = undefined;
      patch({ installable: false });
    });
    createServiceWorker()
      .then(async (client) => {
        if (!client) return;
        client.addEventListener('waiting', () => patch({ newBuild: true, updateReady: true }));
        client.addEventListener('activated', ({ isUpdate }) => {
          if (!isUpdate) patch({ offlineReady: true });
        });
        await client.register();
        // Only a registered worker can bring a new build; without one, a reload does.
        serviceWorker = client;
      })
      .catch((error: unknown) => log?.warn('The service worker could not be registered.', error));
    win.setInterval(() => void checkForBuild(), pollMs);
    win.document.addEventListener('visibilitychange', () => {
      if (win.document.visibilityState === 'visible') void checkForBuild();
    });
  };

  const applyUpdate = () => {
    if (!serviceWorker) {
      win.location.reload();
      return;
    }
    serviceWorker.addEventListener('controlling', () => win.location.reload());
    serviceWorker.messageSkipWaiting();
  };

  const install = async () => {
    const event = installEvent;
    if (!event) return;
    installEvent = undefined;
    patch({ installable: false });
    await event.prompt();
    await event.userChoice;
  };

  const hideInstall = (forGood: boolean) => {
    patch({ installable: false });
    try {
      if (forGood) storage.setItem(installHiddenKey, '1');
      else storage.setItem(installSnoozedKey, String(now() + installSnoozeMs));
    } catch {
      // Refused storage: hidden for this page only.
    }
  };

  const recoverFromLoadError = (error: unknown) =>
    state.get().newBuild && isChunkLoadError(error)
      ? reloadOnceFor(win.location.pathname, { reload: () => win.location.reload() })
      : false;

  return { state, start, checkForBuild, applyUpdate, install, hideInstall, recoverFromLoadError };
};

/** The service worker through workbox-window, loaded after the first render. */
export const workboxServiceWorker = async (): Promise<ServiceWorkerClient | undefined> => {
  if (!('serviceWorker' in navigator)) return undefined;
  const { Workbox } = await import('workbox-window');
  return new Workbox('/sw.js', { scope: '/' });
};
