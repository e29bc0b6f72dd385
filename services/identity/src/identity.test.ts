import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningIdentity } from './index.js';
import { ISSUER, removeDir, startTestIdentity, tempDataDir, WEB_ORIGIN } from './test/browser.js';

const passwordGrant = (
  realmUrl: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) =>
  fetch(`${realmUrl}/protocol/openid-connect/token`, {
    method: 'POST',
    headers,
    body: new URLSearchParams({ grant_type: 'password', client_id: 'noted-cli', ...fields }),
  });

/** The identity trusts X-Forwarded-For from loopback (the gateway), as it would behind it. */
const from = (ip: string) => ({ 'x-forwarded-for': ip });

const expectRetryAfter = (response: Response, atMostSeconds: number) => {
  const seconds = Number(response.headers.get('retry-after'));
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(atMostSeconds);
};

const tokensFor = async (realmUrl: string, username: string) => {
  const response = await passwordGrant(realmUrl, { username, password: 'noted' });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
};

const verifyAccessToken = (realmUrl: string, token: string) =>
  jwtVerify(token, createRemoteJWKSet(new URL(`${realmUrl}/protocol/openid-connect/certs`)), {
    issuer: ISSUER,
    audience: 'noted-api',
    algorithms: ['RS256'],
  });

describe('development identity provider', () => {
  let dataDir: string;
  let identity: RunningIdentity;

  beforeEach(async () => {
    dataDir = await tempDataDir();
    identity = await startTestIdentity(dataDir);
  });

  afterEach(async () => {
    await identity.stop();
    await removeDir(dataDir);
  });

  it("serves Keycloak's third-party cookie check, framable by the web app only", async () => {
    const base = `${identity.realmUrl}/protocol/openid-connect/3p-cookies`;
    const step1 = await fetch(`${base}/step1.html`);
    expect(step1.status).toBe(200);
    expect(await step1.text()).toContain('<script src="step1.js"></script>');
    const policy = step1.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toMatch(/frame-ancestors 'self' http:\/\/localhost:\d+/);
    // The frame-ancestors above decide; a DENY from the headers every response gets would not.
    expect(step1.headers.get('x-frame-options')).toBeNull();
    expect(step1.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await (await fetch(`${base}/step1.js`)).text()).toContain(
      "location.replace('step2.html')",
    );
    const step2 = await (await fetch(`${base}/step2.js`)).text();
    expect(step2).toContain("postMessage(supported ? 'supported' : 'unsupported', '*')");
  });

  it("publishes a discovery document with Keycloak's endpoint paths and RS256", async () => {
    const response = await fetch(`${identity.realmUrl}/.well-known/openid-configuration`, {
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'noted.example:8443' },
    });
    expect(response.status).toBe(200);
    const discovery = (await response.json()) as Record<string, unknown>;
    const base = 'https://noted.example:8443/realms/noted/protocol/openid-connect';
    expect(discovery).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${base}/auth`,
      token_endpoint: `${base}/token`,
      jwks_uri: `${base}/certs`,
      userinfo_endpoint: `${base}/userinfo`,
      end_session_endpoint: `${base}/logout`,
      id_token_signing_alg_values_supported: ['RS256'],
      code_challenge_methods_supported: ['S256'],
    });
    const endpoints = Object.keys(discovery).filter((key) => key.endsWith('_endpoint'));
    expect(endpoints.sort()).toEqual([
      'authorization_endpoint',
      'end_session_endpoint',
      'token_endpoint',
      'userinfo_endpoint',
    ]);
    expect(discovery.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'refresh_token', 'password']),
    );

    const jwks = (await (
      await fetch(`${identity.realmUrl}/protocol/openid-connect/certs`)
    ).json()) as {
      keys: Array<Record<string, unknown>>;
    };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('answers the password grant with a Keycloak-shaped JWT access token', async () => {
    const before = Math.floor(Date.now() / 1000);
    const body = await tokensFor(identity.realmUrl, 'Ada@Example.com');
    expect(body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 300,
      scope: 'openid profile email',
    });
    expect(typeof body.id_token).toBe('string');

    const token = String(body.access_token);
    expect(decodeProtectedHeader(token).alg).toBe('RS256');
    const { payload } = await verifyAccessToken(identity.realmUrl, token);
    expect(payload).toMatchObject({
      iss: ISSUER,
      aud: 'noted-api',
      azp: 'noted-cli',
      typ: 'Bearer',
      scope: 'openid profile email',
      email: 'ada@example.com',
      name: 'ada',
      preferred_username: 'ada@example.com',
    });
    expect(payload.sub).toMatch(/^[0-9a-f-]{36}$/);
    expect(payload.iat).toBeGreaterThanOrEqual(before);
    expect(payload.exp).toBe((payload.iat ?? 0) + 300);

    const userinfo = await fetch(`${identity.realmUrl}/protocol/openid-connect/userinfo`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(userinfo.status).toBe(200);
    expect(await userinfo.json()).toMatchObject({ sub: payload.sub, email: 'ada@example.com' });
  });

  it('refuses a wrong password, a username that is not an email, and other clients', async () => {
    const wrong = await passwordGrant(identity.realmUrl, {
      username: 'ada@example.com',
      password: 'nope',
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_grant' });

    const notEmail = await passwordGrant(identity.realmUrl, { username: 'ada', password: 'noted' });
    expect(notEmail.status).toBe(400);
    expect(await notEmail.json()).toMatchObject({ error: 'invalid_grant' });

    // A NUL (any control character) would be stored in every service as the user's address.
    const withNul = await passwordGrant(identity.realmUrl, {
      username: 'ada\u0000@example.com',
      password: 'noted',
    });
    expect(withNul.status).toBe(400);
    expect(await withNul.json()).toMatchObject({ error: 'invalid_grant' });

    const web = await fetch(`${identity.realmUrl}/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: 'noted-web',
        username: 'ada@example.com',
        password: 'noted',
      }),
    });
    expect(web.status).toBeGreaterThanOrEqual(400);
    expect(web.status).toBeLessThan(500);
  });

  it('locks an account after 5 wrong passwords, answering 429 with Retry-After, while another account signs in', async () => {
    const wrong = await Promise.all(
      Array.from({ length: 100 }, () =>
        passwordGrant(identity.realmUrl, { username: 'ada@example.com', password: 'guess' }),
      ),
    );
    const statuses = wrong.map((response) => response.status);
    expect(statuses.filter((status) => status === 400)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(95);
    const locked = wrong.find((response) => response.status === 429);
    expectRetryAfter(locked ?? wrong[0]!, 900);
    expect(await locked?.json()).toMatchObject({
      error: 'temporarily_unavailable',
      error_description: expect.stringContaining('Too many failed sign-ins for this account'),
    });

    // Locked means locked: the right password (any spelling of the address) learns nothing.
    const right = await passwordGrant(identity.realmUrl, {
      username: ' ADA@example.com',
      password: 'noted',
    });
    expect(right.status).toBe(429);
    expectRetryAfter(right, 900);

    // The same address is not locked by it: someone else signs in.
    await tokensFor(identity.realmUrl, 'grace@example.com');
  });

  it('clears an account count on a right password', async () => {
    const guess = () =>
      passwordGrant(identity.realmUrl, { username: 'ada@example.com', password: 'guess' });
    for (let i = 0; i < 4; i += 1) expect((await guess()).status).toBe(400);
    await tokensFor(identity.realmUrl, 'ada@example.com');
    for (let i = 0; i < 4; i += 1) expect((await guess()).status).toBe(400);
    await tokensFor(identity.realmUrl, 'ada@example.com');
  });

  it('locks an address after 20 failures over many accounts; other addresses are unaffected', async () => {
    const attacker = from('203.0.113.7');
    for (let i = 0; i < 20; i += 1) {
      const response = await passwordGrant(
        identity.realmUrl,
        { username: `user${i}@example.com`, password: 'guess' },
        attacker,
      );
      expect(response.status).toBe(400);
    }
    const refused = await passwordGrant(
      identity.realmUrl,
      { username: 'fresh@example.com', password: 'noted' },
      attacker,
    );
    expect(refused.status).toBe(429);
    expectRetryAfter(refused, 900);
    expect(await refused.json()).toMatchObject({
      error_description: expect.stringContaining('from your network'),
    });

    const elsewhere = await passwordGrant(
      identity.realmUrl,
      { username: 'fresh@example.com', password: 'noted' },
      from('198.51.100.9'),
    );
    expect(elsewhere.status).toBe(200);
  });

  it('counts failures with the configured limits and window', async () => {
    await identity.stop();
    identity = await startTestIdentity(dataDir, {
      signInLimits: { failuresPerAccount: 2, failuresPerIp: 100, windowSeconds: 1 },
    });
    const guess = () =>
      passwordGrant(identity.realmUrl, { username: 'ada@example.com', password: 'guess' });
    expect((await guess()).status).toBe(400);
    expect((await guess()).status).toBe(400);
    const locked = await guess();
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await tokensFor(identity.realmUrl, 'ada@example.com');
  });

  it('sends nosniff, no referrer and no framing on its responses', async () => {
    for (const path of [
      '/.well-known/openid-configuration',
      '/protocol/openid-connect/certs',
      '/protocol/openid-connect/userinfo',
      '/no/such/path',
    ]) {
      const response = await fetch(`${identity.realmUrl}${path}`);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('strict-transport-security')).toBeNull();
    }
    const token = await passwordGrant(identity.realmUrl, {
      username: 'ada@example.com',
      password: 'noted',
    });
    expect(token.headers.get('x-content-type-options')).toBe('nosniff');
    expect(token.headers.get('cache-control')).toContain('no-store');
  });

  it('answers CORS preflights and requests from the web origin only', async () => {
    const preflight = (path: string, origin: string) =>
      fetch(`${identity.realmUrl}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
    for (const path of [
      '/protocol/openid-connect/token',
      '/protocol/openid-connect/userinfo',
      '/protocol/openid-connect/certs',
      '/.well-known/openid-configuration',
    ]) {
      const foreign = await preflight(path, 'https://evil.example');
      expect(foreign.status).toBe(403);
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();

      const web = await preflight(path, WEB_ORIGIN);
      expect(web.status).toBe(204);
      expect(web.headers.get('access-control-allow-origin')).toBe(WEB_ORIGIN);
    }

    const discovery = (origin: string) =>
      fetch(`${identity.realmUrl}/.well-known/openid-configuration`, { headers: { origin } });
    const foreignRead = await discovery('https://evil.example');
    expect(foreignRead.status).toBe(200);
    expect(foreignRead.headers.get('access-control-allow-origin')).toBeNull();
    const webRead = await discovery(WEB_ORIGIN);
    expect(webRead.headers.get('access-control-allow-origin')).toBe(WEB_ORIGIN);

    const foreignToken = await passwordGrant(
      identity.realmUrl,
      { username: 'ada@example.com', password: 'noted' },
      { origin: 'https://evil.example' },
    );
    expect(foreignToken.status).toBe(400);
    expect(foreignToken.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses userinfo without a valid access token', async () => {
    const none = await fetch(`${identity.realmUrl}/protocol/openid-connect/userinfo`);
    expect(none.status).toBe(401);
    const { id_token: idToken } = await tokensFor(identity.realmUrl, 'ada@example.com');
    const withIdToken = await fetch(`${identity.realmUrl}/protocol/openid-connect/userinfo`, {
      headers: { authorization: `Bearer ${String(idToken)}` },
    });
    expect(withIdToken.status).toBe(401);
    expect(withIdToken.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('keeps subjects and signing keys across a restart on the same data directory', async () => {
    const first = await tokensFor(identity.realmUrl, 'grace@example.com');
    const { payload: before } = await verifyAccessToken(
      identity.realmUrl,
      String(first.access_token),
    );

    const keyFile = await stat(join(dataDir, 'identity', 'jwks.json'));
    expect(keyFile.mode & 0o777).toBe(0o600);

    await identity.stop();
    identity = await startTestIdentity(dataDir);

    const { payload: stillValid } = await verifyAccessToken(
      identity.realmUrl,
      String(first.access_token),
    );
    expect(stillValid.sub).toBe(before.sub);

    const second = await tokensFor(identity.realmUrl, 'grace@example.com');
    const { payload: after } = await verifyAccessToken(
      identity.realmUrl,
      String(second.access_token),
    );
    expect(after.sub).toBe(before.sub);

    const other = await tokensFor(identity.realmUrl, 'alan@example.com');
    const { payload: someoneElse } = await verifyAccessToken(
      identity.realmUrl,
      String(other.access_token),
    );
    expect(someoneElse.sub).not.toBe(before.sub);
  });

  it('issues access tokens with the configured lifetime', async () => {
    await identity.stop();
    identity = await startTestIdentity(dataDir, { accessTokenTtlSeconds: 60 });
    const body = await tokensFor(identity.realmUrl, 'ada@example.com');
    expect(body.expires_in).toBe(60);
    const { payload } = await verifyAccessToken(identity.realmUrl, String(body.access_token));
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(60);
  });

  it("gives the accounts of IDENTITY_ADMIN_EMAILS the admin realm role in access tokens, as Keycloak's roles scope does, and no one else", async () => {
    await identity.stop();
    identity = await startTestIdentity(dataDir, { adminEmails: ['Ops@Example.com'] });
    const access = async (email: string) =>
      (
        await verifyAccessToken(
          identity.realmUrl,
          String((await tokensFor(identity.realmUrl, email)).access_token),
        )
      ).payload;
    expect(await access('ops@example.com')).toMatchObject({
      realm_access: { roles: ['noted-admin'] },
    });
    expect(await access('ada@example.com')).not.toHaveProperty('realm_access');
  });
});
