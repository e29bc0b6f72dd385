import { createLog } from '../log';

const log = createLog('navigation');

export class ExternalNavigationRefused extends Error {
  readonly code = 'EXTERNAL_NAVIGATION_REFUSED';
  constructor(readonly url: string) {
    super(`Navigation to another site was refused: ${url}`);
    this.name = 'ExternalNavigationRefused';
  }
}

export interface NavigateOptions {
  /** Leaving the site must be asked for explicitly; without it, an external URL is refused. */
  allowExternal?: boolean;
  replace?: boolean;
  /** Opens the address in a new tab (without opener). */
  newTab?: boolean;
}

export interface NavigatorDeps {
  /** The router's navigate, for addresses inside the app. */
  navigateInApp: (path: string, options: { replace: boolean; state?: unknown }) => void;
  window?: Pick<Window, 'location' | 'open'>;
}

/**
 * Goes to an address: inside the app through the router; outside only when allowed, and never
 * to a script URL. Refusals are logged and thrown as ExternalNavigationRefused.
 */
export const createNavigator = ({ navigateInApp, window: win = window }: NavigatorDeps) => {
  return (to: string, options: NavigateOptions = {}): void => {
    const { origin } = win.location;
    const url = (() => {
      try {
        return new URL(to, origin);
      } catch {
        return undefined;
      }
    })();
    if (!url || !['http:', 'https:'].includes(url.protocol)) {
      log.warn(`Refused to navigate to ${to}: not a web address.`);
      throw new ExternalNavigationRefused(to);
    }
    const external = url.origin !== origin;
    if (external && !options.allowExternal) {
      log.warn(`Refused to navigate to ${to}: it is outside Noted and was not allowed.`);
      throw new ExternalNavigationRefused(to);
    }
    if (options.newTab) {
      win.open(url.href, '_blank', 'noopener,noreferrer');
      return;
    }
    if (external) {
      if (options.replace) win.location.replace(url.href);
      else win.location.assign(url.href);
      return;
    }
    navigateInApp(`${url.pathname}${url.search}${url.hash}`, { replace: options.replace ?? false });
  };
};

export type Navigate = ReturnType<typeof createNavigator>;

/** The note a page handed over when it opened another in the same tab (read once). */
export const currentNoteKey = 'currentNote';

export interface OpenNoteOptions {
  newTab?: boolean;
  /** What the opener already has of the note, so the note page can show it at once. */
  note?: unknown;
}

/** Opens /notes/{id} in this tab (handing over the note) or in a new one. */
export const createNoteOpener =
  (navigate: Navigate, storage: Pick<Storage, 'setItem'> | undefined = globalThis.sessionStorage) =>
  (id: string, { newTab = false, note }: OpenNoteOptions = {}): void => {
    const path = `/notes/${encodeURIComponent(id)}`;
    if (!newTab && note !== undefined) {
      try {
        storage?.setItem(currentNoteKey, JSON.stringify({ id, note }));
      } catch (error) {
        log.warn('The current note could not be handed over; the page loads it.', error);
      }
    }
    navigate(path, { newTab });
  };

/** Takes the note handed over for `id`, if any; it is removed so a reload loads afresh. */
export const takeCurrentNote = (
  id: string,
  storage: Pick<Storage, 'getItem' | 'removeItem'> | undefined = globalThis.sessionStorage,
): unknown => {
  try {
    const raw = storage?.getItem(currentNoteKey);
    if (!raw) return undefined;
    storage?.removeItem(currentNoteKey);
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'object' && parsed !== null && 'id' in parsed && parsed.id === id) {
      return 'note' in parsed ? parsed.note : undefined;
    }
    return undefined;
  } catch {
    return undefined;
  }
};
