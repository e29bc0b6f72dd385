import { SignJWT, jwtVerify } from 'jose';

export interface RefreshTokenFacts {
  sub: string;
  clientId: string;
  iat: number;
  exp: number;
}

/**
 * keycloak-js decodes every token it receives as a JWT, refresh tokens included, and
 * oidc-provider's refresh tokens are opaque. So, like Keycloak, the provider hands out its
 * refresh tokens inside an HS256 JWT (`typ: 'Refresh'`) and takes them back the same way.
 */
export const createRefreshTokenEnvelope = (options: { issuer: string; key: Uint8Array }) => ({
  seal: (value: string, facts: RefreshTokenFacts): Promise<string> =>
    new SignJWT({ typ: 'Refresh', azp: facts.clientId, jti: value })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(options.issuer)
      .setAudience(options.issuer)
      .setSubject(facts.sub)
      .setIssuedAt(facts.iat)
      .setExpirationTime(facts.exp)
      .sign(options.key),

  /** The stored token id inside an envelope; undefined when the envelope is not ours. */
  open: async (token: string): Promise<string | undefined> => {
    if (!token.includes('.')) return token;
    try {
      const { payload } = await jwtVerify(token, options.key, {
        algorithms: ['HS256'],
        issuer: options.issuer,
        audience: options.issuer,
        typ: 'JWT',
      });
      return payload.typ === 'Refresh' && typeof payload.jti === 'string' ? payload.jti : undefined;
    } catch {
      return undefined;
    }
  },
});

export type RefreshTokenEnvelope = ReturnType<typeof createRefreshTokenEnvelope>;
