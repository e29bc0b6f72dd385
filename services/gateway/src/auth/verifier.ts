import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import { AppError } from '@noted/api';
import { hasNul } from '@noted/kit';

/** Who a verified access token speaks for. */
export interface VerifiedUser {
  sub: string;
  email?: string;
  name?: string;
  preferredUsername?: string;
  /** When the token was issued (`iat`, seconds): which of two tokens knows the newer profile. */
  issuedAt?: number;
  /** The user's realm roles (Keycloak's `realm_access.roles`); absent when the token has none. */
  roles?: string[];
}

export interface TokenVerifierOptions {
  /** The realm URL exactly as tokens carry it in `iss`. */
  issuer: string;
  /** The realm's JWKS, e.g. `${issuer}/protocol/openid-connect/certs`. */
  jwksUrl: string;
  /** Accepted in `aud`, e.g. 'noted-api'. */
  audience: string;
  /** Accepted in `azp` when `aud` lacks the audience (Keycloak's default tokens), e.g. ['noted-web', 'noted-cli']. */
  clientIds: string[];
  /** Clock skew allowed on exp and nbf. */
  leewaySeconds?: number;
  /** Shortest time between two JWKS fetches caused by an unknown key id. */
  jwksCooldownSeconds?: number;
}

export interface TokenVerifier {
  /** Resolves with the user, or rejects with AppError UNAUTHENTICATED saying why. */
  verify(token: string): Promise<VerifiedUser>;
}

/** A caller may change what it is given; the remembered user stays as verified. */
const copyOf = (user: VerifiedUser): VerifiedUser =>
  user.roles ? { ...user, roles: [...user.roles] } : { ...user };

const refused = (message: string) => new AppError('UNAUTHENTICATED', message);

const explain = (error: unknown): AppError => {
  if (error instanceof errors.JWTExpired)
    return refused('The access token has expired; sign in again');
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'nbf':
        return refused('The access token is not valid yet');
      case 'iss':
        return refused('The access token was issued by another identity provider');
      default:
        return refused(`The access token has an invalid "${error.claim}" claim`);
    }
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return refused('The access token is not signed with RS256');
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return refused('The access token signature is not valid');
  }
  if (
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys
  ) {
    return refused('The access token is signed with a key the identity provider does not publish');
  }
  // The JWKS could not be fetched (refused, timed out, not 200, not JSON): not the token's fault.
  const jwksUnreachable =
    error instanceof TypeError ||
    error instanceof errors.JWKSTimeout ||
    error instanceof errors.JWKSInvalid ||
    (error instanceof errors.JOSEError && error.code === 'ERR_JOSE_GENERIC');
  if (jwksUnreachable) {
    return new AppError('UNAVAILABLE', 'Sign-in cannot be checked right now; try again shortly');
  }
  return refused('The access token is malformed');
};

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** Keycloak's realm roles, `{ realm_access: { roles: [...] } }`; anything else holds none. */
const realmRoles = (payload: JWTPayload): string[] => {
  const access = payload.realm_access;
  if (typeof access !== 'object' || access === null || !('roles' in access)) return [];
  const { roles } = access as { roles: unknown };
  return Array.isArray(roles)
    ? roles.filter((role): role is string => typeof role === 'string')
    : [];
};

const audiences = (payload: JWTPayload): string[] =>
  typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? []);

/**
 * Verifies Keycloak (or development provider) access tokens: RS256 only, the exact issuer,
 * exp required, nbf honoured with leeway, and audience as Keycloak deployments do it (the
 * API in `aud`, or a known client in `azp`). ID and refresh tokens are refused by `typ`.
 * Keys come from the JWKS, cached, and fetched again when a token names an unknown key id.
 */
export const createTokenVerifier = (options: TokenVerifierOptions): TokenVerifier => {
  const keys = createRemoteJWKSet(new URL(options.jwksUrl), {
    cooldownDuration: (options.jwksCooldownSeconds ?? 30) * 1000,
    cacheMaxAge: 10 * 60 * 1000,
    timeoutDuration: 5000,
  });
  const clientIds = new Set(options.clientIds);
  // A client sends one token for many requests: each is verified once and remembered until
  // its `exp` (never past it; the leeway applies only to tokens verified afresh).
  const verified = new LRUCache<string, VerifiedUser>({ max: 10_000 });

  return {
    async verify(token) {
      const known = verified.get(token);
      if (known) return copyOf(known);
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keys, {
          algorithms: ['RS256'],
          issuer: options.issuer,
          clockTolerance: options.leewaySeconds ?? 60,
          requiredClaims: ['exp', 'sub'],
        }));
      } catch (error) {
        throw explain(error);
      }

      if (payload.typ !== undefined && payload.typ !== 'Bearer') {
        throw refused('This is not an access token (an ID or refresh token was sent)');
      }
      const forApi = audiences(payload).includes(options.audience);
      const fromClient = typeof payload.azp === 'string' && clientIds.has(payload.azp);
      if (!forApi && !fromClient) {
        throw refused(`The access token is not meant for ${options.audience}`);
      }
      const sub = text(payload.sub);
      if (!sub) throw refused('The access token names no user');
      // Every claim becomes stored text (the user's subject, name and email): Postgres text
      // cannot hold NUL, so a token carrying one is refused here, not as a 500 on each call.
      const claims = [payload.sub, payload.email, payload.name, payload.preferred_username];
      if (claims.some((claim) => typeof claim === 'string' && hasNul(claim))) {
        throw refused('The access token holds a NUL character (U+0000) in a claim');
      }

      const user: VerifiedUser = { sub };
      const email = text(payload.email);
      const name = text(payload.name);
      const preferredUsername = text(payload.preferred_username);
      if (email) user.email = email;
      if (name) user.name = name;
      if (preferredUsername) user.preferredUsername = preferredUsername;
      if (typeof payload.iat === 'number') user.issuedAt = payload.iat;
      const roles = realmRoles(payload);
      if (roles.length > 0) user.roles = roles;
      const ttl = typeof payload.exp === 'number' ? payload.exp * 1000 - Date.now() : 0;
      if (ttl > 0) verified.set(token, user, { ttl });
      return copyOf(user);
    },
  };
};
