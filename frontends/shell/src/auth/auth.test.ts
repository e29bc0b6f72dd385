import type { KeycloakInitOptions } from 'keycloak-js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAuth } from './auth';
import { noticeForFlowError, noticeForProviderError } from './identityErrors';
import type { KeycloakClient } from './auth';

/** Stands in for keycloak-js: init answers as the provider would after the given redirect. */
const fakeKeycloak = (outcome: { authenticated: boolean; claims?: Record<string, string> }) => {
  const client: KeycloakClient = {
    authenticated: false,
    token: undefined,
    tokenParsed: undefined,
    idTokenParsed: undefined,
    init: vi.fn(async (_options: KeycloakInitOptions) => {
      client.authenticated = outcome.authenticated;
      if (outcome.authenticated) {
        client.token = 'access-token';
        client.idTokenParsed = outcome.claims;
      }
      return outcome.authenticated;
    }),
    login: vi.fn(async () => undefined),
    logout: vi.fn(async () => undefined),
    updateToken: vi.fn(async () => true),
    clearToken: vi.fn(() => {
      client.authenticated = false;
      client.token = undefined;
    }),
  };
  return client;
};

const reachable = async () => true;

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

describe('createAuth', () => {
  it('takes code and state out of the address after the redirect back, staying on the page', async () => {
    window.history.replaceState(
      null,
      '',
      '/notes/abc?q=milk&code=c0de&state=st4te&session_state=s#top',
    );
    const keycloak = fakeKeycloak({
      authenticated: true,
      claims: { sub: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com' },
    });
    const auth = createAuth({
      createKeycloak: async () => keycloak,
      isProviderReachable: reachable,
    });

    await auth.start();

    expect(window.location.pathname).toBe('/notes/abc');
    expect(window.location.search).toBe('?q=milk');
    expect(window.location.hash).toBe('#top');
    expect(auth.getState()).toEqual({
      status: 'signedIn',
      user: { sub: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com' },
    });
    // The callback is processed as is; no second trip to the provider.
    expect(keycloak.init).toHaveBeenCalledWith({
      pkceMethod: 'S256',
      checkLoginIframe: false,
      responseMode: 'query',
    });
  });

  it('runs check-sso in a hidden iframe on a plain start and leaves the address alone', async () => {
    window.history.replaceState(null, '', '/guide');
    const keycloak = fakeKeycloak({ authenticated: false });
    const auth = createAuth({
      createKeycloak: async () => keycloak,
      isProviderReachable: reachable,
    });

    await auth.start();

    expect(keycloak.init).toHaveBeenCalledWith({
      onLoad: 'check-sso',
      silentCheckSsoRedirectUri: `${window.location.origin}/silent-check-sso.html`,
      pkceMethod: 'S256',
      checkLoginIframe: false,
      responseMode: 'query',
    });
    expect(window.location.pathname).toBe('/guide');
    expect(auth.getState()).toEqual({ status: 'signedOut' });
  });

  it('stays signed out, saying why, when the provider cannot be reached', async () => {
    const keycloak = fakeKeycloak({ authenticated: false });
    const auth = createAuth({
      createKeycloak: async () => keycloak,
      isProviderReachable: async () => false,
    });

    await auth.start();

    expect(auth.getState()).toEqual({ status: 'signedOut', notice: 'providerUnavailable' });
    expect(keycloak.init).toHaveBeenCalledWith(
      expect.not.objectContaining({ onLoad: 'check-sso' }),
    );
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('could not be reached'));
  });

  it('says the browser is offline when it is', async () => {
    vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
    const auth = createAuth({
      createKeycloak: async () => fakeKeycloak({ authenticated: false }),
      isProviderReachable: async () => false,
    });

    await auth.start();

    expect(auth.getState()).toEqual({ status: 'signedOut', notice: 'offline' });
  });

  it('opens offline as the user last signed in here, checks the session when the network is back, and forgets at sign-out', async () => {
    const storage = new Map<string, string>();
    const kept = {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
      removeItem: (key: string) => void storage.delete(key),
    };
    const user = { sub: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com' };
    const online = createAuth({
      createKeycloak: async () => fakeKeycloak({ authenticated: true, claims: user }),
      isProviderReachable: reachable,
      storage: kept,
    });
    await online.start();
    expect([...storage.values()].join()).not.toContain('access-token');

    const onLine = vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
    const adapters: KeycloakClient[] = [];
    const forget = vi.fn(async () => undefined);
    const offline = createAuth({
      // The first adapter starts with no tokens; the second finds the provider's session.
      createKeycloak: async () => {
        adapters.push(fakeKeycloak({ authenticated: adapters.length > 0, claims: user }));
        return adapters.at(-1) as KeycloakClient;
      },
      isProviderReachable: async () => window.navigator.onLine,
      storage: kept,
      forget,
    });
    await offline.start();
    expect(offline.getState()).toEqual({ status: 'signedIn', user, offline: true });
    // No tokens offline, and no sign-out for the lack of them.
    expect(await offline.getToken()).toBeUndefined();
    expect(await offline.refresh()).toBe(false);
    expect(offline.getState()).toMatchObject({ status: 'signedIn', offline: true });

    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(offline.getState()).toEqual({ status: 'signedIn', user }));
    expect(adapters).toHaveLength(2);
    expect(adapters[1]?.init).toHaveBeenCalledWith(
      expect.objectContaining({ onLoad: 'check-sso' }),
    );
    expect(await offline.getToken()).toBe('access-token');

    await offline.logout();
    expect(forget).toHaveBeenCalled();
    expect(storage.has('noted:identity')).toBe(false);
  });

  it('stays signed out offline when nobody signed in here before', async () => {
    vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
    const auth = createAuth({
      createKeycloak: async () => fakeKeycloak({ authenticated: false }),
      isProviderReachable: async () => false,
      storage: { getItem: () => null, setItem: () => undefined, removeItem: () => undefined },
    });
    await auth.start();
    expect(auth.getState()).toEqual({ status: 'signedOut', notice: 'offline' });
  });

  it('stays signed out with a warning when the session check fails', async () => {
    const keycloak = fakeKeycloak({ authenticated: false });
    vi.mocked(keycloak.init).mockRejectedValueOnce(new Error('token endpoint down'));
    const auth = createAuth({
      createKeycloak: async () => keycloak,
      isProviderReachable: reachable,
    });

    await auth.start();

    expect(auth.getState()).toEqual({ status: 'signedOut' });
    expect(console.warn).toHaveBeenCalled();
  });

  it('gives the ApiClient a refreshed token, and signs out when a forced refresh fails', async () => {
    const keycloak = fakeKeycloak({ authenticated: true, claims: { sub: 'user-1' } });
    const auth = createAuth({
      createKeycloak: async () => keycloak,
      isProviderReachable: reachable,
    });
    await auth.start();

    await expect(auth.getToken()).resolves.toBe('access-token');
    expect(keycloak.updateToken).toHaveBeenCalledWith(30);

    vi.mocked(keycloak.updateToken).mockRejectedValueOnce(new Error('refresh token expired'));
    await expect(auth.refresh()).resolves.toBe(false);

    expect(keycloak.updateToken).toHaveBeenLastCalledWith(-1);
    expect(auth.getState()).toMatchObject({ status: 'signedOut' });
    await expect(auth.getToken()).resolves.toBeUndefined();
  });

  it('ends the session when the provider has refused the refresh token', async () => {
    const keycloak = fakeKeycloak({ authenticated: true, claims: { sub: 'user-1' } });
    const auth = createAuth({
      createKeycloak: async () => keycloak,
      isProviderReachable: reachable,
    });
    await auth.start();
    // keycloak-js clears its tokens itself when the token endpoint answers 400.
    vi.mocked(keycloak.updateToken).mockImplementationOnce(async () => {
      keycloak.clearToken();
      throw new Error('invalid_grant');
    });

    await expect(auth.getToken()).resolves.toBeUndefined();

    expect(auth.getState()).toEqual({ status: 'signedOut', notice: 'sessionEnded' });
  });

  it('checks the session once however often it is started', async () => {
    const keycloak = fakeKeycloak({ authenticated: false });
    const auth = createAuth({
      createKeycloak: async () => keycloak,
      isProviderReachable: reachable,
    });

    await Promise.all([auth.start(), auth.start()]);
    await auth.start();

    expect(keycloak.init).toHaveBeenCalledTimes(1);
  });

  it('signs in through the provider back to the root of this origin', async () => {
    const keycloak = fakeKeycloak({ authenticated: false });
    const auth = createAuth({
      createKeycloak: async () => keycloak,
      isProviderReachable: reachable,
    });
    await auth.start();

    await auth.login();
    await auth.login({ idpHint: 'github' });
    await auth.login({ returnTo: '/notes/n1?x=1' });
    await auth.login({ returnTo: '//evil.example/' });
    await auth.login({ returnTo: 'https://evil.example/' });

    expect(keycloak.login).toHaveBeenNthCalledWith(1, {
      redirectUri: `${window.location.origin}/`,
    });
    expect(keycloak.login).toHaveBeenNthCalledWith(2, {
      redirectUri: `${window.location.origin}/`,
      idpHint: 'github',
    });
    expect(keycloak.login).toHaveBeenNthCalledWith(3, {
      redirectUri: `${window.location.origin}/notes/n1?x=1`,
    });
    expect(keycloak.login).toHaveBeenNthCalledWith(4, {
      redirectUri: `${window.location.origin}/`,
    });
    expect(keycloak.login).toHaveBeenNthCalledWith(5, {
      redirectUri: `${window.location.origin}/`,
    });
  });

  it('signs out through the provider to the configured logout address', async () => {
    const keycloak = fakeKeycloak({ authenticated: true, claims: { sub: 'user-1' } });
    const auth = createAuth({
      createKeycloak: async () => keycloak,
      isProviderReachable: reachable,
      logoutUrl: '/landing',
    });
    await auth.start();

    await auth.logout();

    expect(keycloak.logout).toHaveBeenCalledWith({
      redirectUri: `${window.location.origin}/landing`,
    });
  });

  it('turns a provider answer with an error into a notice and a clean address', async () => {
    window.history.replaceState(null, '', '/?error=access_denied&state=s1');
    const keycloak = fakeKeycloak({ authenticated: false });
    const auth = createAuth({
      createKeycloak: async () => keycloak,
      isProviderReachable: reachable,
    });

    await auth.start();

    expect(auth.getState()).toEqual({ status: 'signedOut', notice: 'signInCancelled' });
    expect(window.location.search).toBe('');
  });

  it('says nothing when a silent check finds nobody signed in (login_required)', async () => {
    window.history.replaceState(null, '', '/notes/n1?error=login_required&state=s1');
    const auth = createAuth({
      createKeycloak: async () => fakeKeycloak({ authenticated: false }),
      isProviderReachable: reachable,
    });

    await auth.start();

    expect(auth.getState()).toEqual({ status: 'signedOut' });
    expect(window.location.pathname).toBe('/notes/n1');
  });
});

describe('identity errors', () => {
  it('names each failure of the identity flow', () => {
    expect(noticeForFlowError(new Error('Invalid state'))).toBe('signInExpired');
    expect(noticeForFlowError({ error: 'missing_transaction' })).toBe('signInExpired');
    expect(noticeForFlowError(new Error('The session check took longer than 20000 ms'))).toBe(
      'providerTimeout',
    );
    expect(noticeForFlowError(new Error('popup closed by user'))).toBe('popupClosed');
    expect(noticeForFlowError(new Error('login_required'))).toBe('sessionEnded');
    expect(noticeForFlowError(new Error('something else'))).toBe('signInFailed');
    expect(noticeForProviderError('temporarily_unavailable')).toBe('providerUnavailable');
    expect(noticeForProviderError('weird_error')).toBe('signInFailed');
  });

  it('remembers whether this browser was signed in, and a sign-in waits for the check', async () => {
    const storage = new Map<string, string>();
    const store = {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
      removeItem: (key: string) => void storage.delete(key),
    };
    const signedInKeycloak = fakeKeycloak({ authenticated: true, claims: { sub: 'user-1' } });
    const first = createAuth({
      createKeycloak: async () => signedInKeycloak,
      isProviderReachable: reachable,
      storage: store,
    });
    expect(first.wasSignedIn()).toBe(false);
    await first.login();
    expect(signedInKeycloak.login).not.toHaveBeenCalled();
    expect(first.getState().status).toBe('signedIn');
    expect(first.wasSignedIn()).toBe(true);

    const visitorKeycloak = fakeKeycloak({ authenticated: false });
    const next = createAuth({
      createKeycloak: async () => visitorKeycloak,
      isProviderReachable: reachable,
      storage: store,
    });
    expect(next.wasSignedIn()).toBe(true);
    await next.start();
    expect(next.wasSignedIn()).toBe(false);
  });
});
