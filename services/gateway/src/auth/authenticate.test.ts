import { exportSPKI, importJWK, SignJWT, base64url } from 'jose';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '@noted/kit';
import { authenticate, createTokenVerifier } from './index.js';
import {
  accessTokenClaims,
  createSigningKey,
  ISSUER,
  signToken,
  startJwksServer,
} from './test/issuer.js';

const now = () => Math.floor(Date.now() / 1000);

describe('authenticate (gateway access-token check)', () => {
  let key: Awaited<ReturnType<typeof createSigningKey>>;
  let jwks: Awaited<ReturnType<typeof startJwksServer>>;
  let server: RunningServer;

  beforeAll(async () => {
    key = await createSigningKey('key-1');
    jwks = await startJwksServer([key]);
    const verifier = createTokenVerifier({
      issuer: ISSUER,
      jwksUrl: jwks.jwksUrl,
      audience: 'noted-api',
      clientIds: ['noted-web', 'noted-cli'],
    });
    const app = express();
    app.get('/me', authenticate(verifier), (req, res) => {
      res.json(req.user);
    });
    server = await listen(app, 0, '127.0.0.1');
  });

  afterAll(async () => {
    await server.close();
    await jwks.close();
  });

  const call = (authorization?: string) =>
    fetch(`${server.url}/me`, { headers: authorization ? { authorization } : {} });

  const expectRefused = async (token: string) => {
    const response = await call(`Bearer ${token}`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="noted", error="invalid_token"/,
    );
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('UNAUTHENTICATED');
    expect(body.error.message).not.toContain(token);
    return body.error.message;
  };

  it('accepts a valid access token and puts the user on the request', async () => {
    const issuedAt = now() - 5;
    const response = await call(
      `Bearer ${await signToken(key, accessTokenClaims({ iat: issuedAt }))}`,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      sub: '0b6f3c58-4a36-4d6c-9a53-3f2f1f0f9c11',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      preferredUsername: 'ada@example.com',
      issuedAt,
    });
  });

  it('accepts the scheme in any case', async () => {
    const response = await call(`bearer ${await signToken(key, accessTokenClaims())}`);
    expect(response.status).toBe(200);
  });

  it('answers 401 with a realm challenge when no token is sent', async () => {
    for (const authorization of [undefined, 'Basic YWRhOm5vdGVk', 'Bearer']) {
      const response = await call(authorization);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="noted"');
      expect(await response.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    }
  });

  it('refuses a token signed by another key under the same kid', async () => {
    const impostor = await createSigningKey('key-1');
    expect(await expectRefused(await signToken(impostor, accessTokenClaims()))).toMatch(
      /signature/,
    );
  });

  it('refuses an unsigned token (alg none)', async () => {
    const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT', kid: 'key-1' }));
    const claims = base64url.encode(
      JSON.stringify({ ...accessTokenClaims(), iat: now(), exp: now() + 300 }),
    );
    await expectRefused(`${header}.${claims}.`);
  });

  it('refuses HS256 signed with the public key (algorithm confusion)', async () => {
    const publicKey = await importJWK(key.publicJwk, 'RS256', { extractable: true });
    if (publicKey instanceof Uint8Array) throw new Error('expected an RSA public key');
    const publicPem = await exportSPKI(publicKey);
    const forged = await new SignJWT({ ...accessTokenClaims(), iat: now(), exp: now() + 300 })
      .setProtectedHeader({ alg: 'HS256', kid: 'key-1' })
      .sign(new TextEncoder().encode(publicPem));
    expect(await expectRefused(forged)).toMatch(/RS256/);
  });

  it('refuses a token from another issuer', async () => {
    const token = await signToken(
      key,
      accessTokenClaims({ iss: 'http://localhost:8080/realms/other' }),
    );
    expect(await expectRefused(token)).toMatch(/issued by another/);
  });

  it('allows 60 s of clock skew on expiry, and no more', async () => {
    const lately = await signToken(key, accessTokenClaims({ iat: now() - 330, exp: now() - 30 }));
    expect((await call(`Bearer ${lately}`)).status).toBe(200);

    const expired = await signToken(key, accessTokenClaims({ iat: now() - 400, exp: now() - 90 }));
    expect(await expectRefused(expired)).toMatch(/expired/);
  });

  it('refuses a token without an expiry', async () => {
    const { exp: _exp, ...claims } = accessTokenClaims({ exp: undefined });
    const token = await new SignJWT({ ...claims, iat: now() })
      .setProtectedHeader({ alg: 'RS256', kid: 'key-1' })
      .sign(key.privateKey);
    await expectRefused(token);
  });

  it('refuses a token that is not valid yet (nbf two minutes ahead)', async () => {
    const token = await signToken(key, accessTokenClaims({ nbf: now() + 120 }));
    expect(await expectRefused(token)).toMatch(/not valid yet/);
  });

  it('accepts the API in aud or a known client in azp, and refuses neither', async () => {
    const keycloakDefault = await signToken(
      key,
      accessTokenClaims({ aud: 'account', azp: 'noted-cli' }),
    );
    expect((await call(`Bearer ${keycloakDefault}`)).status).toBe(200);

    const apiAudience = await signToken(
      key,
      accessTokenClaims({ aud: ['account', 'noted-api'], azp: 'x' }),
    );
    expect((await call(`Bearer ${apiAudience}`)).status).toBe(200);

    const foreign = await signToken(
      key,
      accessTokenClaims({ aud: 'account', azp: 'some-other-app' }),
    );
    expect(await expectRefused(foreign)).toMatch(/not meant for noted-api/);
  });

  it('refuses ID tokens and refresh tokens by their typ claim', async () => {
    await expectRefused(await signToken(key, accessTokenClaims({ typ: 'ID' })));
    await expectRefused(await signToken(key, accessTokenClaims({ typ: 'Refresh' })));
  });

  it('refuses a malformed token', async () => {
    await expectRefused('not.a.jwt');
  });
});
