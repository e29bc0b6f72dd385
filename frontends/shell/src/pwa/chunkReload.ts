/** The spec's reload guard: after a chunk error, at most one reload per path every 10 s. */
export const chunkReloadGuardMs = 10_000;
const storageKey = (path: string) => `noted:chunkReload:${path}`;

/** A failed fetch of code: a chunk of this build or of a remote that a newer build replaced. */
export const isChunkLoadError = (error: unknown): boolean => {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'ChunkLoadError' ||
    /Loading (CSS )?chunk [^ ]+ failed|Failed to fetch dynamically imported module|error loading dynamically imported module|RUNTIME-00[0-9]/i.test(
      error.message,
    )
  );
};

/**
 * Reloads the page for `path` unless it was reloaded for the same reason less than 10 s ago
 * (a chunk that is missing for good must not reload the page forever). True when it reloads.
 */
export const reloadOnceFor = (
  path: string,
  {
    now = Date.now(),
    storage = globalThis.sessionStorage,
    reload = () => window.location.reload(),
  }: { now?: number; storage?: Pick<Storage, 'getItem' | 'setItem'>; reload?: () => void } = {},
): boolean => {
  try {
    const last = storage.getItem(storageKey(path));
    if (last !== null && now - Number(last) < chunkReloadGuardMs) return false;
    storage.setItem(storageKey(path), String(now));
  } catch {
    // Without storage there is no guard: better no automatic reload than a loop.
    return false;
  }
  reload();
  return true;
};
