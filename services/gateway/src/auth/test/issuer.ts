import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';

export const ISSUER = 'http://localhost:8080/realms/noted';

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export const createSigningKey = async (kid: string): Promise<SigningKey> => {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return {
    kid,
    privateKey,
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
  };
};

/**
 * A stand-in for Keycloak's certs endpoint: a real HTTP server on 127.0.0.1 serving the
 * public keys it is given, and counting how often it is asked.
 */
export const startJwksServer = async (initial: SigningKey[]) => {
  let published = initial;
  let fetches = 0;
  const server = createServer((_req, res) => {
    fetches += 1;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: published.map((key) => key.publicJwk) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    jwksUrl: `http://127.0.0.1:${port}/realms/noted/protocol/openid-connect/certs`,
    publish: (keys: SigningKey[]) => {
      published = keys;
    },
    fetches: () => fetches,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

export const accessTokenClaims = (overrides: JWTPayload = {}): JWTPayload => ({
  iss: ISSUER,
  sub: '0b6f3c58-4a36-4d6c-9a53-3f2f1f0f9c11',
  aud: 'noted-api',
  azp: 'noted-web',
  typ: 'Bearer',
  scope: 'openid profile email',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  preferred_username: 'ada@example.com',
  ...overrides,
});

/** Signs claims as the provider would; `iat`/`exp` default to now and now + 5 minutes. */
export const signToken = (key: SigningKey, claims: JWTPayload, header: { kid?: string } = {}) => {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iat: now, exp: now + 300, ...claims })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: header.kid ?? key.kid })
    .sign(key.privateKey);
};
