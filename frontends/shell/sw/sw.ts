/// <reference lib="webworker" />
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { sendMessage, syncTag } from '../src/offline/sync';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

/** Where the micro-frontends' files are kept once fetched (any origin they are served from). */
const remotesCache = 'noted-remotes';
const configCache = 'noted-config';
const hashedFile = /\.[0-9a-f]{8}\.(js|css)$/;
/** Paths of the API and the identity provider: never the app, never cached. */
const serverPaths = /^\/(api|user|ai|export|public|ws|realms)(\/|$)/;

// The shell's own files, listed at build time; a new list installs as a new version.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/** A file's address, not a page's: matched against the path and the query. */
const filePath = /^[^?]*\/[^/?]+\.[a-z0-9]+(\?.*)?$/i;
/** The site's pages, prerendered by the server (a missing post or chapter a real 404). */
const sitePaths = /^\/(landing|guide|blog|about|pricing|privacy|terms|faq)(\/|\?|$)/;
const appPage = createHandlerBoundToURL('/index.html');

// The site's pages come from the server, as for a visitor who never opened the app: whole
// documents that do not load the shell. Offline, the shell shows them (or says it cannot).
registerRoute(
  new NavigationRoute(
    async (options) => {
      try {
        return await fetch(options.request);
      } catch {
        return appPage(options);
      }
    },
    { allowlist: [sitePaths], denylist: [filePath] },
  ),
);

// Every other page of the app is the shell's index.html, which routes it; offline too. Files
// (silent-check-sso.html in keycloak-js's iframe) are not pages.
registerRoute(
  new NavigationRoute(appPage, {
    denylist: [serverPaths, /^\/remotes\//, filePath],
  }),
);

// The runtime configuration: fresh when online, the last one seen when not.
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && url.pathname === '/config.json',
  new NetworkFirst({ cacheName: configCache, networkTimeoutSeconds: 3 }),
);

// A remote's entry files name the current build: fresh when online.
registerRoute(
  ({ url }) =>
    !serverPaths.test(url.pathname) &&
    /\/(mf-manifest\.json|remoteEntry\.js|assets\.json)$/.test(url.pathname),
  new NetworkFirst({ cacheName: remotesCache, networkTimeoutSeconds: 3 }),
);

// Content-hashed files never change: once cached, served from the cache.
registerRoute(
  ({ url, request }) =>
    request.method === 'GET' && !serverPaths.test(url.pathname) && hashedFile.test(url.pathname),
  new CacheFirst({ cacheName: remotesCache }),
);

interface RuntimeConfig {
  remotes?: Record<string, string>;
}

/**
 * Fetches the configuration and every file of every remote it names (from the `assets.json` each
 * remote build writes beside its `mf-manifest.json`), so the whole app works offline after
 * one visit, not only the pages that were opened.
 */
const warmRemotes = async (): Promise<void> => {
  const configResponse = await fetch('/config.json', { cache: 'no-store' });
  // Kept too, so a page opened offline after one visit (never under this worker) can start.
  await (await caches.open(configCache)).put('/config.json', configResponse.clone());
  const config = (await configResponse.json()) as RuntimeConfig;
  const cache = await caches.open(remotesCache);
  for (const manifestAddress of Object.values(config.remotes ?? {})) {
    const manifestUrl = new URL(manifestAddress, self.location.origin);
    const listUrl = new URL('assets.json', manifestUrl);
    const response = await fetch(listUrl, { cache: 'no-store' });
    if (!response.ok) throw new Error(`${listUrl.href} answered ${response.status}`);
    const { files } = (await response.json()) as { files: string[] };
    await cache.addAll([manifestUrl.href, ...files.map((file) => new URL(file, listUrl).href)]);
  }
};

self.addEventListener('install', (event) => {
  // A remote that cannot be fetched now is cached when it is first used instead.
  event.waitUntil(
    warmRemotes().catch((error: unknown) => {
      console.warn('[noted/sw] The micro-frontends could not be cached ahead.', error);
    }),
  );
});

/**
 * Background Sync: the browser wakes the worker once the network is back, and the worker asks
 * the open pages to send the changes kept while offline (only a page holds the user's session;
 * the worker holds no token). With no page open, the next start sends them.
 */
self.addEventListener('sync', (event: Event) => {
  const sync = event as ExtendableEvent & { tag?: string };
  if (sync.tag !== syncTag) return;
  sync.waitUntil(
    self.clients.matchAll({ type: 'window' }).then((pages) => {
      for (const page of pages) page.postMessage({ type: sendMessage });
    }),
  );
});

// The page asks for the new version once the user chose to refresh (workbox-window).
self.addEventListener('message', (event: ExtendableMessageEvent) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
