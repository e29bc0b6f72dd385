import type Keycloak from 'keycloak-js';
import type { KeycloakInitOptions } from 'keycloak-js';
import { log } from '../log';
import { noticeForFlowError, noticeForProviderError, type AuthNotice } from './identityErrors';
import { isProviderCallback, dropProviderParams } from './loginRedirect';

export interface AuthUser {
  sub: string;
  name?: string;
  email?: string;
}

export type AuthState =
  | { status: 'loading' }
  | { status: 'signedOut'; notice?: AuthNotice }
  /**
   * `offline`: opened without a network as the user last signed in here, with no tokens; the
   * session is checked as soon as the network is back.
   */
  | { status: 'signedIn'; user: AuthUser; offline?: boolean };

export interface Auth {
  getState: () => AuthState;
  subscribe: (listener: () => void) => () => void;
  /** The silent session check; runs once however often it is called, never rejects. */
  start: () => Promise<void>;
  /**
   * Whether this browser was signed in when last seen here: while the session check runs, a
   * visitor who never signed in sees the page for visitors at once, not a wait.
   */
  wasSignedIn: () => boolean;
  /**
   * Goes to the provider; `idpHint` names a brokered provider (kc_idp_hint), e.g. 'google';
   * `returnTo` is the path of this app to come back to (anything else returns to the root).
   */
  login: (options?: { idpHint?: string; returnTo?: string }) => Promise<void>;
  /** Signs out here and at the provider; `forget` first deletes what this browser keeps. */
  logout: () => Promise<void>;
  /** For the ApiClient: a token valid for at least 30 more seconds, or undefined. */
  getToken: () => Promise<string | undefined>;
  /** For the ApiClient after a 401: force a refresh once; false clears the session. */
  refresh: () => Promise<boolean>;
}

export type KeycloakClient = Pick<
  Keycloak,
  | 'init'
  | 'login'
  | 'logout'
  | 'updateToken'
  | 'clearToken'
  | 'authenticated'
  | 'token'
  | 'tokenParsed'
  | 'idTokenParsed'
>;

export interface AuthOptions {
  /** Creates the adapter; called once by start(), so keycloak-js can load after first render. */
  createKeycloak: () => Promise<KeycloakClient>;
  /** Whether the provider answers at all; check-sso leaves the page, so it must not go nowhere. */
  isProviderReachable: () => Promise<boolean>;
  /** Where the provider sends the browser after sign-out; relative to this origin or absolute. */
  logoutUrl?: string;
  window?: Window;
  /** Where the "was signed in" hint is kept; no tokens are stored. */
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  initTimeoutMs?: number;
  /** Deletes what this browser keeps of the user (their notes' device copy) at sign-out. */
  forget?: () => Promise<void>;
}

const signedInHintKey = 'noted:signedIn';
/**
 * Who was last signed in here (subject, name, e-mail; never a token), so the installed app
 * opens offline in its user's notes.
 */
const identityKey = 'noted:identity';
/** How soon the session is checked again when the network is back but the provider is not. */
const recheckMs = 30_000;

const baseInit: KeycloakInitOptions = {
  pkceMethod: 'S256',
  checkLoginIframe: false,
  responseMode: 'query',
};

const withTimeout = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });

const readUser = (keycloak: KeycloakClient): AuthUser => {
  const claims = keycloak.idTokenParsed ?? keycloak.tokenParsed ?? {};
  const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
  const name =
    text(claims.name) ??
    text(claims.preferred_username) ??
    text([claims.given_name, claims.family_name].filter(Boolean).join(' '));
  return { sub: text(claims.sub) ?? '', name, email: text(claims.email) };
};

/** A path of this app ('/notes/1?x'), never another origin ('//evil.example', 'https://…'). */
export const isAppPath = (value: string): boolean =>
  value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\');

export const createAuth = ({
  createKeycloak,
  isProviderReachable,
  logoutUrl = '/',
  window: win = window,
  storage = globalThis.localStorage,
  initTimeoutMs = 20_000,
  forget = async () => undefined,
}: AuthOptions): Auth => {
  let state: AuthState = { status: 'loading' };
  let keycloak: KeycloakClient | undefined;
  const listeners = new Set<() => void>();
  const remember = (signedIn: boolean) => {
    try {
      if (signedIn) storage.setItem(signedInHintKey, '1');
      else storage.removeItem(signedInHintKey);
    } catch {
      // Refused storage: every visit then waits for the session check.
    }
  };
  const wasSignedIn = () => {
    try {
      return storage.getItem(signedInHintKey) === '1';
    } catch {
      return true;
    }
  };
  const keptIdentity = (): AuthUser | undefined => {
    try {
      const kept = JSON.parse(storage.getItem(identityKey) ?? 'null') as Partial<AuthUser> | null;
      return kept && typeof kept.sub === 'string' && kept.sub
        ? {
            sub: kept.sub,
            ...(typeof kept.name === 'string' ? { name: kept.name } : {}),
            ...(typeof kept.email === 'string' ? { email: kept.email } : {}),
          }
        : undefined;
    } catch {
      return undefined;
    }
  };
  const keepIdentity = (user: AuthUser | undefined) => {
    try {
      if (user) storage.setItem(identityKey, JSON.stringify(user));
      else storage.removeItem(identityKey);
    } catch {
      // Refused storage: no offline start.
    }
  };
  const setState = (next: AuthState) => {
    state = next;
    if (next.status !== 'loading') remember(next.status === 'signedIn');
    if (next.status === 'signedIn' && !next.offline) keepIdentity(next.user);
    if (next.status === 'signedOut') keepIdentity(undefined);
    for (const listener of listeners) listener();
  };
  const signOutLocally = (notice?: AuthNotice) => {
    keycloak?.clearToken();
    setState(notice ? { status: 'signedOut', notice } : { status: 'signedOut' });
  };

  const runSessionCheck = async (again = false) => {
    const url = new URL(win.location.href);
    // An answer from the provider is processed without onLoad, so an unknown state can
    // never send the browser into another round trip to the provider.
    const callback = isProviderCallback(url);
    const providerNotice = callback
      ? noticeForProviderError(url.searchParams.get('error'))
      : undefined;
    try {
      const [client, reachable] = await Promise.all([
        createKeycloak(),
        callback ? Promise.resolve(false) : isProviderReachable(),
      ]);
      keycloak = client;
      const checkSession = !callback && reachable;
      let unreachableNotice: AuthNotice | undefined;
      const offline = win.navigator.onLine === false;
      // No network (or, checking again, still no provider): the user who last signed in
      // here, without tokens until the session can be checked.
      const kept = (offline || again) && !callback && !checkSession ? keptIdentity() : undefined;
      if (kept) {
        if (!again) await withTimeout(client.init(baseInit), initTimeoutMs, 'The session check');
        setState({ status: 'signedIn', user: kept, offline: true });
        win.addEventListener('online', checkAgain, { once: true });
        if (again) setTimeout(checkAgain, recheckMs);
        return;
      }
      if (!callback && !checkSession) {
        log.warn('The identity provider could not be reached; continuing signed out.');
        unreachableNotice = offline ? 'offline' : 'providerUnavailable';
      }
      const authenticated = await withTimeout(
        client.init(
          checkSession
            ? {
                ...baseInit,
                onLoad: 'check-sso',
                // In a hidden iframe, so a visitor's page does not travel to the provider and
                // back; keycloak-js falls back to that redirect where third-party cookies are
                // blocked (a provider on another site).
                silentCheckSsoRedirectUri: `${win.location.origin}/silent-check-sso.html`,
              }
            : baseInit,
        ),
        initTimeoutMs,
        'The session check',
      );
      if (callback) dropProviderParams(win);
      if (authenticated) setState({ status: 'signedIn', user: readUser(client) });
      else
        signOutLocally(providerNotice ?? unreachableNotice ?? (again ? 'sessionEnded' : undefined));
    } catch (error) {
      log.warn('The session check failed; continuing signed out.', error);
      if (callback) dropProviderParams(win);
      signOutLocally(providerNotice ?? (callback ? noticeForFlowError(error) : undefined));
    }
  };
  let started: Promise<void> | undefined;
  const start = () => (started ??= runSessionCheck());
  /** The network is back after an offline start: the session is checked with a new adapter. */
  const checkAgain = () => {
    if (state.status !== 'signedIn' || !state.offline) return;
    started = runSessionCheck(true);
  };

  const login = async ({ idpHint, returnTo }: { idpHint?: string; returnTo?: string } = {}) => {
    try {
      // Sign-in can be asked for while the session check still runs (a visitor's page shows
      // at once); it goes on from where the check ends.
      await start();
      if (state.status === 'signedIn') return;
      if (!keycloak) throw new Error('The session check has not run');
      const path = returnTo && isAppPath(returnTo) ? returnTo : '/';
      await keycloak.login({
        redirectUri: `${win.location.origin}${path}`,
        ...(idpHint ? { idpHint } : {}),
      });
    } catch (error) {
      log.error('Sign-in could not start.', error);
      setState({ status: 'signedOut', notice: 'signInUnavailable' });
    }
  };

  const logout = async () => {
    await forget().catch((error: unknown) =>
      log.warn("Forgetting this browser's copy failed.", error),
    );
    keepIdentity(undefined);
    if (state.status === 'signedIn' && state.offline) {
      // The provider cannot be reached: signed out here; its session ends at the next sign-in.
      signOutLocally();
      return;
    }
    try {
      if (!keycloak) throw new Error('The session check has not run');
      await keycloak.logout({ redirectUri: new URL(logoutUrl, win.location.origin).href });
    } catch (error) {
      log.error('Sign-out at the identity provider failed; signing out here.', error);
      signOutLocally();
    }
  };

  const endSession = () => {
    // Signed in offline there are no tokens to lose: the session check comes with the network.
    if (state.status === 'signedIn' && !state.offline) signOutLocally('sessionEnded');
  };

  const getToken = async () => {
    if (!keycloak?.authenticated) return undefined;
    try {
      await keycloak.updateToken(30);
    } catch (error) {
      log.warn('Refreshing the access token failed.', error);
    }
    // keycloak-js drops the tokens itself when the provider refuses the refresh token.
    if (!keycloak.authenticated) {
      endSession();
      return undefined;
    }
    return keycloak.token;
  };

  const refresh = async () => {
    if (!keycloak?.authenticated) {
      endSession();
      return false;
    }
    try {
      await keycloak.updateToken(-1);
      return true;
    } catch (error) {
      log.warn('The session could not be refreshed; signing out.', error);
      signOutLocally('sessionEnded');
      return false;
    }
  };

  return {
    getState: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start,
    wasSignedIn,
    login,
    logout,
    getToken,
    refresh,
  };
};

/** Reachability only: a no-cors request settles for any HTTP answer and fails on no answer. */
export const providerProbe =
  (settings: { url: string; realm: string }, timeoutMs = 5_000) =>
  async (): Promise<boolean> => {
    const base = settings.url.replace(/\/+$/, '');
    try {
      await fetch(
        `${base}/realms/${encodeURIComponent(settings.realm)}/.well-known/openid-configuration`,
        { mode: 'no-cors', cache: 'no-store', signal: AbortSignal.timeout(timeoutMs) },
      );
      return true;
    } catch {
      return false;
    }
  };
