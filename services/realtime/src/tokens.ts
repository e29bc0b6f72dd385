import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '@noted/api';

/**
 * The live connection's tokens (spec section 7): `userId.timestamp.signature`, the signature
 * an HMAC-SHA256 of `userId.timestamp` in base64url. The gateway has already proved who asks
 * for one; the token carries that proof across the WebSocket upgrade, which browsers cannot
 * send a bearer token with. Good for `ttlMs` after it is made (a connection outlives it), so a
 * token read from a log or a proxy's address line is soon worth nothing.
 */
export interface LiveTokens {
  issue(userId: string | undefined): { token: string; expiresAt: Date };
  /** The user a token was issued to; UNAUTHENTICATED for anything else. */
  verify(token: string | undefined): string;
}

const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIMESTAMP = /^[0-9]{13}$/;
/** base64url of 32 bytes, unpadded. */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;
/** Tokens stamped this far in the future (a clock ahead of this replica's) are still taken. */
const CLOCK_SKEW_MS = 5_000;

export const createLiveTokens = (options: {
  /** The services' internal secret: the key is derived from it, for this use only. */
  secret: string;
  ttlMs: number;
  now?: () => number;
}): LiveTokens => {
  const key = createHmac('sha256', options.secret).update('noted live connection v1').digest();
  const now = options.now ?? Date.now;
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest();
  const refused = (why: string) => new AppError('UNAUTHENTICATED', `Live token refused: ${why}`);

  return {
    issue(userId) {
      if (!userId) throw new AppError('BAD_REQUEST', 'UserId is required to generate a token');
      const issuedAt = now();
      const payload = `${userId}.${issuedAt}`;
      return {
        token: `${payload}.${sign(payload).toString('base64url')}`,
        expiresAt: new Date(issuedAt + options.ttlMs),
      };
    },

    verify(token) {
      if (!token) throw refused('no token');
      const parts = token.split('.');
      if (parts.length !== 3) throw refused('malformed');
      const [userId, stamp, signature] = parts as [string, string, string];
      if (!USER_ID.test(userId) || !TIMESTAMP.test(stamp) || !SIGNATURE.test(signature)) {
        throw refused('malformed');
      }
      const given = Buffer.from(signature, 'base64url');
      const expected = sign(`${userId}.${stamp}`);
      // Same length by the pattern above; compared in constant time all the same.
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw refused('bad signature');
      }
      const age = now() - Number(stamp);
      if (age > options.ttlMs || age < -CLOCK_SKEW_MS) throw refused('expired');
      return userId;
    },
  };
};
