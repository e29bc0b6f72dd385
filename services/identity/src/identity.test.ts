import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningIdentity } from './index.js';
import { ISSUER, removeDir, startTestIdentity, tempDataDir } from './test/browser.js';

const passwordGrant = (realmUrl: string, fields: Record<string, string>) =>
  fetch(`${realmUrl}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', client_id: 'noted-cli', ...fields }),
  });

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
});
