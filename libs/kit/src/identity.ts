import { SignJWT, decodeJwt, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import { AppError } from '@noted/api';

/**
 * Who is calling, as the gateway vouches for it. The gateway signs it after verifying the
 * user's access token; services accept nothing else, so a request that bypasses the gateway
 * (or forges the header) is refused.
 */
export interface Identity {
  userId: string;
  sub: string;
  email: string;
  name: string;
  /**
   * Noted's roles of the user (`OPERATOR_ROLE`), as the gateway read them from the access
   * token's realm roles; absent for everyone else.
   */
  roles?: string[];
}

export const IDENTITY_HEADER = 'x-noted-identity';

/** Reads what every user has written to Noted (product feedback): the realm role KEYCLOAK_ADMIN_ROLE. */
export const OPERATOR_ROLE = 'operator';

/** Whether the identity holds a role (an anonymous caller holds none). */
export const hasRole = (identity: Identity | undefined, role: string) =>
  identity?.roles?.includes(role) === true;
const AUDIENCE = 'noted-services';
const ISSUER = 'noted-gateway';

const keyOf = (secret: string) => new TextEncoder().encode(secret);

/**
 * Remembers tokens already verified, until they expire: the gateway reuses one identity token
 * per user for a while, and callers one token per service, so most requests skip the HMAC.
 * Keyed by secret and token, so a changed secret verifies afresh.
 */
const verified = new LRUCache<string, Identity | string>({ max: 10_000 });

const remember = <T extends Identity | string>(key: string, token: string, value: T): T => {
  const { exp } = decodeJwt(token);
  const ttl = typeof exp === 'number' ? exp * 1000 - Date.now() : 0;
  if (ttl > 0) verified.set(key, value, { ttl });
  return value;
};

export const signIdentity = async (
  secret: string,
  identity: Identity,
  ttlSeconds = 60,
): Promise<string> =>
  new SignJWT({
    email: identity.email,
    name: identity.name,
    uid: identity.userId,
    ...(identity.roles?.length ? { roles: identity.roles } : {}),
  })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(identity.sub)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(keyOf(secret));

/**
 * A signer of identities for the gateway that hands out a user's token again until its last
 * 30 s (it names only who the user is, which does not change meanwhile), so services verify
 * it once and then find it in their cache.
 */
export const identitySigner = (secret: string, ttlSeconds = 60) => {
  const tokens = new LRUCache<string, string>({
    max: 10_000,
    ttl: Math.max(1000, (ttlSeconds - 30) * 1000),
  });
  return async (identity: Identity): Promise<string> => {
    // Roles are part of the key: a token granted a role (or stripped of it) is not given the old one.
    const key = JSON.stringify([
      identity.userId,
      identity.sub,
      identity.email,
      identity.name,
      identity.roles ?? [],
    ]);
    const cached = tokens.get(key);
    if (cached) return cached;
    const token = await signIdentity(secret, identity, ttlSeconds);
    tokens.set(key, token);
    return token;
  };
};

export const verifyIdentity = async (secret: string, token: string): Promise<Identity> => {
  const key = `identity:${secret}:${token}`;
  const known = verified.get(key);
  if (typeof known === 'object') return known;
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      clockTolerance: 5,
    });
    if (typeof payload.uid !== 'string' || typeof payload.sub !== 'string') {
      throw new Error('identity without a user');
    }
    const roles = Array.isArray(payload.roles)
      ? payload.roles.filter((role): role is string => typeof role === 'string')
      : [];
    return remember(key, token, {
      userId: payload.uid,
      sub: payload.sub,
      email: String(payload.email ?? ''),
      name: String(payload.name ?? ''),
      ...(roles.length > 0 ? { roles } : {}),
    });
  } catch {
    throw new AppError('UNAUTHENTICATED', 'This service only accepts requests from the gateway');
  }
};

/**
 * Service-to-service calls (gRPC) carry a short-lived token naming the calling service,
 * signed with the same internal secret, so a port reachable by accident still refuses.
 */
export const CALLER_METADATA = 'x-noted-caller';
const CALLER_AUDIENCE = 'noted-grpc';

export const signCaller = async (secret: string, service: string, ttlSeconds = 300) =>
  new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(`service:${service}`)
    .setIssuer(ISSUER)
    .setAudience(CALLER_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(keyOf(secret));

export const verifyCaller = async (secret: string, token: string | undefined): Promise<string> => {
  const key = `caller:${secret}:${token}`;
  const known = token ? verified.get(key) : undefined;
  if (typeof known === 'string') return known;
  try {
    if (!token) throw new Error('no caller token');
    const { payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: CALLER_AUDIENCE,
      clockTolerance: 5,
    });
    if (!payload.sub?.startsWith('service:')) throw new Error('not a service');
    return remember(key, token, payload.sub.slice('service:'.length));
  } catch {
    throw new AppError('UNAUTHENTICATED', 'Only Noted services may call this service');
  }
};

/** Caller metadata for outgoing calls, re-signed a minute before the token would expire. */
export const callerMetadata = (secret: string, service: string) => {
  let cached: { token: string; renewAt: number } | undefined;
  return async (): Promise<Record<string, string>> => {
    if (!cached || Date.now() >= cached.renewAt) {
      cached = { token: await signCaller(secret, service, 300), renewAt: Date.now() + 240_000 };
    }
    return { [CALLER_METADATA]: cached.token };
  };
};
