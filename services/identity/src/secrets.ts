import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { calculateJwkThumbprint, type JSONWebKeySet } from 'jose';
import * as z from 'zod';
import { createJsonOnce } from './files.js';

const rsaPrivateJwk = z.object({
  kty: z.literal('RSA'),
  kid: z.string().min(1),
  alg: z.literal('RS256'),
  use: z.literal('sig'),
  n: z.string(),
  e: z.string(),
  d: z.string(),
  p: z.string(),
  q: z.string(),
  dp: z.string(),
  dq: z.string(),
  qi: z.string(),
});

export type RsaPrivateJwk = z.infer<typeof rsaPrivateJwk>;

const signingKeys = z.object({ keys: z.array(rsaPrivateJwk).min(1) });

const cookieAndTokenSecrets = z.object({
  cookieKeys: z.array(z.string().min(32)).min(1),
  refreshTokenKey: z.string().min(32),
});

export interface IdentitySecrets {
  /** Private signing keys, newest first; oidc-provider signs with the first. */
  signingKeys: RsaPrivateJwk[];
  /** The public halves, as served at the certs endpoint. */
  publicJwks: JSONWebKeySet;
  cookieKeys: string[];
  /** HMAC key of the JWT envelope around refresh tokens. */
  refreshTokenKey: Uint8Array;
}

const generateSigningKey = async (): Promise<RsaPrivateJwk> => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = rsaPrivateJwk
    .omit({ kid: true, alg: true, use: true })
    .parse(privateKey.export({ format: 'jwk' }));
  const kid = await calculateJwkThumbprint({ kty: jwk.kty, n: jwk.n, e: jwk.e });
  return { ...jwk, kid, alg: 'RS256', use: 'sig' };
};

const secret = () => randomBytes(32).toString('base64url');

/**
 * Loads the provider's keys from `<dataDir>/identity`, creating them on first start, so
 * tokens and sign-in sessions outlive a restart. Files are written with mode 0600.
 */
export const loadSecrets = async (dataDir: string): Promise<IdentitySecrets> => {
  const dir = join(dataDir, 'identity');
  const jwks = await createJsonOnce(join(dir, 'jwks.json'), signingKeys, async () => ({
    keys: [await generateSigningKey()],
  }));
  const secrets = await createJsonOnce(join(dir, 'secrets.json'), cookieAndTokenSecrets, () => ({
    cookieKeys: [secret()],
    refreshTokenKey: secret(),
  }));
  return {
    signingKeys: jwks.keys,
    publicJwks: {
      keys: jwks.keys.map(({ kty, kid, alg, use, n, e }) => ({ kty, kid, alg, use, n, e })),
    },
    cookieKeys: secrets.cookieKeys,
    refreshTokenKey: Buffer.from(secrets.refreshTokenKey, 'base64url'),
  };
};
