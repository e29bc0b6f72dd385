import type { LiveMessage, LiveToken } from '@noted/api';
import { createLiveHub, type LiveHub } from '@noted/ui';

/** The first wait before connecting again after a drop; it doubles up to MAX_DELAY_MS. */
export const BASE_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 30_000;
/** A connection that stayed open this long counts as healthy: the next drop starts over. */
export const STABLE_MS = 10_000;

/** The part of the browser's WebSocket the connection uses (a test gives its own). */
export interface LiveSocket {
  onopen: (() => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: (() => void) | null;
  onerror: (() => void) | null;
  close(code?: number): void;
}

export interface LiveConnectionOptions {
  /** A token for the signed-in user (POST /ws/token through the API client). */
  token: () => Promise<LiveToken>;
  /** The page's origin or the API's, against which the token's relative `url` is resolved. */
  baseUrl: string;
  openSocket?: (url: string) => LiveSocket;
  log: {
    warn: (message: string, error?: unknown) => void;
    error: (message: string, error: unknown) => void;
  };
  random?: () => number;
  /** The browser's online state and its changes. */
  network?: {
    online: () => boolean;
    onChange: (listener: () => void) => () => void;
  };
}

export interface LiveConnection {
  live: LiveHub;
  /** Connects for the signed-in user (again with a new token, when the user changed). */
  start: (userId: string) => void;
  /** Signed out: closes and stays closed. */
  stop: () => void;
}

const browserNetwork = {
  online: () => navigator.onLine,
  onChange: (listener: () => void) => {
    window.addEventListener('online', listener);
    window.addEventListener('offline', listener);
    return () => {
      window.removeEventListener('online', listener);
      window.removeEventListener('offline', listener);
    };
  },
};

const isLiveMessage = (value: unknown): value is LiveMessage =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { type?: unknown }).type === 'string';

/** `/ws?token=…` on the API's origin, as ws: or wss:. */
export const socketUrl = (url: string, baseUrl: string) => {
  const address = new URL(url, baseUrl);
  address.protocol = address.protocol === 'https:' ? 'wss:' : 'ws:';
  return address.toString();
};

/**
 * The shell's live connection (spec sections 4 and 7): opened after sign-in with a fresh token,
 * reopened after a drop with exponential backoff and full jitter (so a server restart does not
 * bring every client back in the same second), at once when the browser comes back online,
 * never while it is offline; every message re-emitted in the page through `live`.
 */
export const createLiveConnection = (options: LiveConnectionOptions): LiveConnection => {
  const live = createLiveHub(options.log);
  const random = options.random ?? Math.random;
  const network = options.network ?? browserNetwork;
  const openSocket =
    options.openSocket ?? ((url: string) => new WebSocket(url) as unknown as LiveSocket);
  let user: string | undefined;
  let socket: LiveSocket | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let openedAt = 0;
  /** Bumped on every start and stop: a connect begun before is dropped when it lands. */
  let generation = 0;
  let stopNetwork: (() => void) | undefined;

  const clearTimer = () => {
    clearTimeout(timer);
    timer = undefined;
  };

  const retryLater = () => {
    if (user === undefined) return;
    clearTimer();
    if (!network.online()) {
      live.setStatus('waiting');
      return; // the 'online' event connects again
    }
    const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
    attempt += 1;
    live.setStatus('waiting');
    timer = setTimeout(() => void connect(), Math.round(random() * ceiling));
  };

  const connect = async () => {
    clearTimer();
    if (user === undefined || socket) return;
    const started = generation;
    live.setStatus('connecting');
    let token: LiveToken;
    try {
      token = await options.token();
    } catch (error) {
      if (started !== generation) return;
      options.log.warn('The live connection could not get a token; trying again later.', error);
      retryLater();
      return;
    }
    if (started !== generation) return;
    const opened = openSocket(socketUrl(token.url, options.baseUrl));
    socket = opened;
    opened.onopen = () => {
      openedAt = Date.now();
      live.setStatus('open');
    };
    opened.onmessage = (event) => {
      let message: unknown;
      try {
        message = JSON.parse(String(event.data));
      } catch (error) {
        options.log.warn('A live message was not JSON; ignored.', error);
        return;
      }
      if (isLiveMessage(message)) live.emit(message);
    };
    opened.onerror = () => undefined; // a close follows
    opened.onclose = () => {
      if (socket !== opened) return;
      socket = undefined;
      if (openedAt && Date.now() - openedAt >= STABLE_MS) attempt = 0;
      openedAt = 0;
      retryLater();
    };
  };

  const onNetwork = () => {
    if (user === undefined) return;
    if (network.online()) {
      // Back online: the wait is over.
      attempt = 0;
      if (!socket) void connect();
    } else {
      // A socket may not notice for a long while that the network went away.
      socket?.close();
    }
  };

  const close = () => {
    generation += 1;
    clearTimer();
    const closing = socket;
    socket = undefined;
    if (closing) {
      closing.onclose = null;
      closing.close(1000);
    }
  };

  return {
    live,
    start: (userId) => {
      if (user === userId && (socket || timer)) return;
      close();
      user = userId;
      attempt = 0;
      stopNetwork ??= network.onChange(onNetwork);
      void connect();
    },
    stop: () => {
      user = undefined;
      close();
      stopNetwork?.();
      stopNetwork = undefined;
      live.setStatus('off');
    },
  };
};
