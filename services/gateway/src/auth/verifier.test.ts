import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '@noted/api';
import { startIdentity } from '@noted/identity';
import { createLogger } from '@noted/kit';
import { passwordGrant } from '@noted/testing';
import { createTokenVerifier } from './index.js';
import {
  accessTokenClaims,
  createSigningKey,
  ISSUER,
  signToken,
  startJwksServer,
} from './test/issuer.js';

const verifierFor = (jwksUrl: string, jwksCooldownSeconds?: number) =>
  createTokenVerifier({
    issuer: ISSUER,
    jwksUrl,
    audience: 'noted-api',
    clientIds: ['noted-web', 'noted-cli'],
    jwksCooldownSeconds,
  });

describe('createTokenVerifier', () => {
  it('caches the JWKS, and fetches it again when a token names a new key (rotation)', async () => {
    const first = await createSigningKey('key-1');
    const jwks = await startJwksServer([first]);
    try {
      const verifier = verifierFor(jwks.jwksUrl, 0);
      await verifier.verify(await signToken(first, accessTokenClaims()));
      await verifier.verify(await signToken(first, accessTokenClaims()));
      expect(jwks.fetches()).toBe(1);

      const second = await createSigningKey('key-2');
      jwks.publish([second, first]);
      const user = await verifier.verify(
        await signToken(second, accessTokenClaims({ sub: 'rotated' })),
      );
      expect(user.sub).toBe('rotated');
      expect(jwks.fetches()).toBe(2);
    } finally {
      await jwks.close();
    }
  });

  it('verifies a token once and remembers it until it expires, never an altered one', async () => {
    const key = await createSigningKey('key-1');
    const jwks = await startJwksServer([key]);
    const verifier = verifierFor(jwks.jwksUrl, 0);
    const token = await signToken(key, accessTokenClaims({ sub: 'remembered' }));
    const first = await verifier.verify(token);
    // The second time needs no key: the provider could be gone.
    await jwks.close();
    expect(await verifier.verify(token)).toEqual(first);
    first.sub = 'changed by a caller';
    expect((await verifier.verify(token)).sub).toBe('remembered');
    await expect(verifier.verify(`${token}x`)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it.each(['sub', 'email', 'name', 'preferred_username'])(
    'refuses a token with a NUL character in its %s claim (it could not be stored)',
    async (claim) => {
      const key = await createSigningKey('key-1');
      const jwks = await startJwksServer([key]);
      try {
        const verifier = verifierFor(jwks.jwksUrl, 0);
        const token = await signToken(key, accessTokenClaims({ [claim]: 'ada\u0000x' }));
        await expect(verifier.verify(token)).rejects.toMatchObject({
          code: 'UNAUTHENTICATED',
          message: 'The access token holds a NUL character (U+0000) in a claim',
        });
      } finally {
        await jwks.close();
      }
    },
  );

  it("reads the realm roles of Keycloak's realm_access claim, and none from anything else", async () => {
    const key = await createSigningKey('key-1');
    const jwks = await startJwksServer([key]);
    try {
      const verifier = verifierFor(jwks.jwksUrl, 0);
      const withRoles = await signToken(
        key,
        accessTokenClaims({ realm_access: { roles: ['noted-admin', 7, 'offline_access'] } }),
      );
      const user = await verifier.verify(withRoles);
      expect(user.roles).toEqual(['noted-admin', 'offline_access']);
      // What a caller does with its copy does not change the remembered one.
      user.roles?.push('changed');
      expect((await verifier.verify(withRoles)).roles).toEqual(['noted-admin', 'offline_access']);
      for (const realmAccess of [
        undefined,
        'noted-admin',
        { roles: 'noted-admin' },
        { roles: [] },
      ]) {
        const token = await signToken(key, accessTokenClaims({ realm_access: realmAccess }));
        expect(await verifier.verify(token)).not.toHaveProperty('roles');
      }
    } finally {
      await jwks.close();
    }
  });

  it('refuses an unknown key id when the JWKS does not have it either', async () => {
    const known = await createSigningKey('key-1');
    const jwks = await startJwksServer([known]);
    try {
      const verifier = verifierFor(jwks.jwksUrl, 0);
      const stranger = await createSigningKey('key-9');
      await expect(
        verifier.verify(await signToken(stranger, accessTokenClaims())),
      ).rejects.toMatchObject({
        code: 'UNAUTHENTICATED',
        message: expect.stringMatching(/does not publish/),
      });
    } finally {
      await jwks.close();
    }
  });

  it('reports an unreachable identity provider as unavailable, not as a bad token', async () => {
    const key = await createSigningKey('key-1');
    const jwks = await startJwksServer([key]);
    await jwks.close();
    const verifier = verifierFor(jwks.jwksUrl);
    const failure = await verifier
      .verify(await signToken(key, accessTokenClaims()))
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ code: 'UNAVAILABLE', status: 503 });
  });

  it('accepts a password-grant token from the development identity provider, and not its ID token', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'noted-gateway-auth-'));
    const identity = await startIdentity({
      issuer: ISSUER,
      port: 0,
      host: '127.0.0.1',
      dataDir,
      devPassword: 'noted',
      webRedirectOrigins: ['http://localhost:8080'],
      logger: createLogger({ level: 'silent' }),
    });
    try {
      const tokens = await passwordGrant({ realmUrl: identity.realmUrl, email: 'ada@example.com' });
      const verifier = verifierFor(`${identity.realmUrl}/protocol/openid-connect/certs`);
      const user = await verifier.verify(tokens.accessToken);
      expect(user).toMatchObject({
        email: 'ada@example.com',
        preferredUsername: 'ada@example.com',
      });
      expect(user.sub).toMatch(/^[0-9a-f-]{36}$/);

      expect(tokens.idToken).toBeDefined();
      await expect(verifier.verify(tokens.idToken ?? '')).rejects.toMatchObject({
        code: 'UNAUTHENTICATED',
      });

      await expect(
        passwordGrant({ realmUrl: identity.realmUrl, email: 'ada@example.com', password: 'wrong' }),
      ).rejects.toThrow(/invalid_grant/);
    } finally {
      await identity.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
