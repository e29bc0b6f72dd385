import { createHash, randomBytes } from 'node:crypto';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningIdentity } from './index.js';
import {
  Browser,
  formOf,
  ISSUER,
  removeDir,
  startTestIdentity,
  tempDataDir,
  WEB_ORIGIN,
} from './test/browser.js';

const REDIRECT_URI = `${WEB_ORIGIN}/notes/123?view=full`;

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

describe('browser sign-in for noted-web (authorization code + PKCE, as keycloak-js does it)', () => {
  let dataDir: string;
  let identity: RunningIdentity;
  let origin: string;

  beforeEach(async () => {
    dataDir = await tempDataDir();
    identity = await startTestIdentity(dataDir);
    origin = new URL(identity.url).origin;
  });

  afterEach(async () => {
    await identity.stop();
    await removeDir(dataDir);
  });

  const authorizeUrl = (params: Record<string, string>) =>
    `${identity.realmUrl}/protocol/openid-connect/auth?${new URLSearchParams({
      client_id: 'noted-web',
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      response_mode: 'query',
      scope: 'openid',
      ...params,
    })}`;

  const tokenRequest = (fields: Record<string, string>) =>
    fetch(`${identity.realmUrl}/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({ client_id: 'noted-web', ...fields }),
    });

  /** Signs in through the page and exchanges the code; what keycloak-js's init + login does. */
  const signIn = async (browser: Browser, email: string, name: string) => {
    const { verifier, challenge } = pkce();
    const start = await browser.follow(
      authorizeUrl({
        state: 'state-1',
        nonce: 'nonce-1',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      origin,
    );
    expect(start.response.status).toBe(200);
    const page = await start.response.text();
    expect(page).toContain('<title>Sign in to Noted</title>');
    expect(page).toContain('development sign-in');
    expect(page).toMatch(/<label for="email">/);
    expect(start.response.headers.get('content-security-policy')).toContain("script-src 'none'");

    const { action } = formOf(page);
    expect(action).toBeDefined();
    const submitted = await browser.request(new URL(action ?? '', start.url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, name }),
    });
    expect(submitted.status).toBe(303);
    const back = await browser.follow(
      new URL(submitted.headers.get('location') ?? '', start.url).href,
      origin,
    );
    const callback = new URL(back.response.headers.get('location') ?? '');
    expect(`${callback.origin}${callback.pathname}`).toBe(`${WEB_ORIGIN}/notes/123`);
    expect(callback.searchParams.get('view')).toBe('full');
    expect(callback.searchParams.get('state')).toBe('state-1');
    const code = callback.searchParams.get('code');
    expect(code).toBeTruthy();

    const exchanged = await tokenRequest({
      grant_type: 'authorization_code',
      code: code ?? '',
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    });
    expect(exchanged.status).toBe(200);
    return (await exchanged.json()) as Record<string, string | number>;
  };

  it('signs in through the page and returns JWT access, ID and refresh tokens', async () => {
    const browser = new Browser();
    const tokens = await signIn(browser, 'Ada@Example.com', 'Ada <Lovelace>');
    const jwks = createRemoteJWKSet(new URL(`${identity.realmUrl}/protocol/openid-connect/certs`));

    const { payload: access } = await jwtVerify(String(tokens.access_token), jwks, {
      issuer: ISSUER,
      audience: 'noted-api',
      algorithms: ['RS256'],
    });
    expect(access).toMatchObject({
      azp: 'noted-web',
      typ: 'Bearer',
      email: 'ada@example.com',
      name: 'Ada <Lovelace>',
      preferred_username: 'ada@example.com',
    });

    const { payload: id } = await jwtVerify(String(tokens.id_token), jwks, {
      issuer: ISSUER,
      audience: 'noted-web',
      algorithms: ['RS256'],
    });
    expect(id).toMatchObject({
      sub: access.sub,
      nonce: 'nonce-1',
      email: 'ada@example.com',
      name: 'Ada <Lovelace>',
    });

    // keycloak-js decodes the refresh token as a JWT too.
    const refreshToken = String(tokens.refresh_token);
    expect(decodeJwt(refreshToken)).toMatchObject({
      typ: 'Refresh',
      azp: 'noted-web',
      sub: access.sub,
    });
    expect(tokens.refresh_expires_in).toBeGreaterThan(0);

    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
    });
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as Record<string, string>;
    const { payload: renewed } = await jwtVerify(String(next.access_token), jwks, {
      issuer: ISSUER,
      audience: 'noted-api',
      algorithms: ['RS256'],
    });
    expect(renewed).toMatchObject({ sub: access.sub, azp: 'noted-web', typ: 'Bearer' });
    expect(decodeJwt(String(next.refresh_token)).typ).toBe('Refresh');

    const reused = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('signs an already signed-in browser straight back in for check-sso (prompt=none)', async () => {
    const browser = new Browser();
    await signIn(browser, 'ada@example.com', 'Ada');
    const { challenge } = pkce();
    const silent = await browser.follow(
      authorizeUrl({
        prompt: 'none',
        state: 's2',
        nonce: 'n2',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      origin,
    );
    const callback = new URL(silent.response.headers.get('location') ?? '');
    expect(callback.searchParams.get('code')).toBeTruthy();

    const stranger = await new Browser().follow(
      authorizeUrl({
        prompt: 'none',
        state: 's3',
        nonce: 'n3',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      origin,
    );
    const refused = new URL(stranger.response.headers.get('location') ?? '');
    expect(refused.searchParams.get('error')).toBe('login_required');
    expect(refused.searchParams.get('state')).toBe('s3');
  });

  it('gives consent on its own when a client asks for it with prompt=consent', async () => {
    const browser = new Browser();
    await signIn(browser, 'ada@example.com', 'Ada');
    const { challenge } = pkce();
    const asked = await browser.follow(
      authorizeUrl({
        prompt: 'consent',
        scope: 'openid offline_access',
        nonce: 'n',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      origin,
    );
    expect(asked.response.status).toBe(303);
    expect(
      new URL(asked.response.headers.get('location') ?? '').searchParams.get('code'),
    ).toBeTruthy();
  });

  it('refuses a redirect_uri on a foreign origin, and an authorization request without PKCE', async () => {
    const { challenge } = pkce();
    const foreign = await new Browser().request(
      authorizeUrl({
        redirect_uri: 'https://evil.example/notes',
        nonce: 'n',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    expect(foreign.status).toBe(400);
    expect(foreign.headers.get('location')).toBeNull();
    expect(await foreign.text()).toContain('redirect_uri');

    const withoutPkce = await new Browser().request(authorizeUrl({ nonce: 'n', state: 's' }));
    const refused = new URL(withoutPkce.headers.get('location') ?? '');
    expect(refused.searchParams.get('error')).toBe('invalid_request');
  });

  /** Opens the sign-in page in a fresh browser and submits it with `fields`. */
  const submitSignIn = async (
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ) => {
    const browser = new Browser();
    const { challenge } = pkce();
    const start = await browser.follow(
      authorizeUrl({ nonce: 'n', code_challenge: challenge, code_challenge_method: 'S256' }),
      origin,
    );
    const { action } = formOf(await start.response.text());
    return browser.request(new URL(action ?? '', start.url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields),
    });
  };

  it('sends nosniff, no referrer and no framing with the sign-in page', async () => {
    const start = await new Browser().follow(
      authorizeUrl({ nonce: 'n', code_challenge: pkce().challenge, code_challenge_method: 'S256' }),
      origin,
    );
    expect(await start.response.text()).toContain('<title>Sign in to Noted</title>');
    const { headers } = start.response;
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(headers.get('cache-control')).toBe('no-store');
  });

  it("styles the sign-in page with what its policy allows: the stylesheet by its hash, the app's typeface from here", async () => {
    const start = await new Browser().follow(
      authorizeUrl({ nonce: 'n', code_challenge: pkce().challenge, code_challenge_method: 'S256' }),
      origin,
    );
    const page = await start.response.text();
    const policy = start.response.headers.get('content-security-policy') ?? '';
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)?.[1] ?? '';
    const hash = createHash('sha256').update(style).digest('base64');
    expect(policy).toContain(`style-src 'sha256-${hash}'`);
    expect(policy).toContain("font-src 'self'");
    expect(page).not.toMatch(/ style="/);

    const fontPath = /src:url\(([^)]+)\)/.exec(style)?.[1] ?? '';
    const font = await fetch(new URL(fontPath, start.url));
    expect(font.status).toBe(200);
    expect(font.headers.get('content-type')).toBe('font/woff2');
    expect(
      Buffer.from(await font.arrayBuffer())
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('wOF2');
  });

  it('refuses an account the password grant locked, with 429 and Retry-After, and signs in others', async () => {
    for (let i = 0; i < 5; i += 1) {
      const guess = await tokenRequest({
        grant_type: 'password',
        client_id: 'noted-cli',
        username: 'ada@example.com',
        password: 'guess',
      });
      expect(guess.status).toBe(400);
    }
    const locked = await submitSignIn({ email: 'Ada@Example.com', name: 'Ada' });
    expect(locked.status).toBe(429);
    const seconds = Number(locked.headers.get('retry-after'));
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(900);
    const page = await locked.text();
    expect(page).toContain('role="alert"');
    expect(page).toContain('Too many failed sign-ins for this account. Try again in 15 minutes.');

    expect((await submitSignIn({ email: 'grace@example.com', name: 'Grace' })).status).toBe(303);
  });

  it('locks an address after 20 refused submissions; other addresses still sign in', async () => {
    const attacker = { 'x-forwarded-for': '203.0.113.7' };
    for (let i = 0; i < 20; i += 1) {
      expect((await submitSignIn({ email: `not-an-email-${i}`, name: 'x' }, attacker)).status).toBe(
        400,
      );
    }
    const locked = await submitSignIn({ email: 'ada@example.com', name: 'Ada' }, attacker);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await locked.text()).toContain('Too many failed sign-ins from your network');

    const elsewhere = await submitSignIn(
      { email: 'ada@example.com', name: 'Ada' },
      { 'x-forwarded-for': '198.51.100.9' },
    );
    expect(elsewhere.status).toBe(303);
  });

  it('re-renders the sign-in form, escaped, when the email is not valid', async () => {
    const submitted = await submitSignIn({ email: '"><script>alert(1)</script>', name: 'x' });
    expect(submitted.status).toBe(400);
    const page = await submitted.text();
    expect(page).toContain('role="alert"');
    expect(page).not.toContain('<script>alert(1)</script>');
    expect(page).toContain('&quot;&gt;&lt;script&gt;');
  });

  it('refuses a NUL or another control character in the email or the display name', async () => {
    for (const fields of [
      { email: 'ada\u0000@example.com', name: 'Ada' },
      { email: 'ada@example.com', name: 'Ada\u0000Lovelace' },
    ]) {
      const submitted = await submitSignIn(fields);
      expect(submitted.status).toBe(400);
      const page = await submitted.text();
      expect(page).toContain('role="alert"');
      expect(page).not.toContain('\u0000');
    }
  });

  it('signs out without a confirmation click and redirects to post_logout_redirect_uri', async () => {
    const browser = new Browser();
    const tokens = await signIn(browser, 'ada@example.com', 'Ada');
    const logout = await browser.request(
      `${identity.realmUrl}/protocol/openid-connect/logout?${new URLSearchParams({
        client_id: 'noted-web',
        post_logout_redirect_uri: `${WEB_ORIGIN}/`,
        id_token_hint: String(tokens.id_token),
      })}`,
    );
    expect(logout.status).toBe(200);
    const page = await logout.text();
    // The page submits itself; its script is allowed by hash and nothing else is.
    expect(page).toMatch(
      /<script>document\.getElementById\('op\.logoutForm'\)\.submit\(\);<\/script>/,
    );
    expect(logout.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[^']+'/);

    const { action, inputs } = formOf(page);
    const confirmed = await browser.request(action ?? '', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        xsrf: inputs.get('xsrf') ?? '',
        logout: inputs.get('logout') ?? '',
      }),
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`${WEB_ORIGIN}/`);

    const { challenge } = pkce();
    const silent = await browser.follow(
      authorizeUrl({
        prompt: 'none',
        nonce: 'n',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      origin,
    );
    expect(new URL(silent.response.headers.get('location') ?? '').searchParams.get('error')).toBe(
      'login_required',
    );

    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: String(tokens.refresh_token),
    });
    expect(refreshed.status).toBe(400);
  });

  it('keeps the browser signed in across a restart', async () => {
    const browser = new Browser();
    const tokens = await signIn(browser, 'ada@example.com', 'Ada');
    await identity.stop();
    identity = await startTestIdentity(dataDir);
    origin = new URL(identity.url).origin;

    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: String(tokens.refresh_token),
    });
    expect(refreshed.status).toBe(200);
  });
});
