import { SignJWT, jwtVerify } from 'jose';
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
}

export const IDENTITY_HEADER = 'x-noted-identity';
const AUDIENCE = 'noted-services';
const ISSUER = 'noted-gateway';

const keyOf = (secret: string) => new TextEncoder().encode(secret);

export const signIdentity = async (
  secret: string,
  identity: Identity,
  ttlSeconds = 60,
): Promise<string> =>
  new SignJWT({ email: identity.email, name: identity.name, uid: identity.userId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(identity.sub)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(keyOf(secret));

export const verifyIdentity = async (secret: string, token: string): Promise<Identity> => {
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
    return {
      userId: payload.uid,
      sub: payload.sub,
      email: String(payload.email ?? ''),
      name: String(payload.name ?? ''),
    };
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
  try {
    if (!token) throw new Error('no caller token');
    const { payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: CALLER_AUDIENCE,
      clockTolerance: 5,
    });
    if (!payload.sub?.startsWith('service:')) throw new Error('not a service');
    return payload.sub.slice('service:'.length);
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
