import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { AppError } from '@noted/api';

export interface RateLimitConfig {
  /** Requests one signed-in user (token subject) may make per window; 0 for no limit. */
  perUser: number;
  /** Requests one client address (IPv6: one /56) may make per window; 0 for no limit. */
  perIp: number;
  windowSeconds: number;
}

/** The headers a caller on another origin needs to read to wait as asked. */
export const RATE_LIMIT_HEADERS = ['retry-after', 'ratelimit', 'ratelimit-policy'];

const unlimited: RequestHandler = (_req, _res, next) => {
  next();
};

const limiter = (
  name: string,
  limit: number,
  windowSeconds: number,
  who: string,
  keyGenerator?: (req: Request) => string,
): RequestHandler =>
  limit <= 0
    ? unlimited
    : rateLimit({
        windowMs: windowSeconds * 1000,
        limit,
        identifier: name,
        // IETF draft 8: `RateLimit` and `RateLimit-Policy`, one entry per limit a request met.
        standardHeaders: 'draft-8',
        legacyHeaders: false,
        ...(keyGenerator ? { keyGenerator } : {}),
        // Retry-After is set by then; the error leaves as every other, with its stable code.
        handler: (_req, res, next) => {
          const wait = String(res.getHeader('retry-after') ?? windowSeconds);
          next(
            new AppError('RATE_LIMITED', `Too many requests ${who}: try again in ${wait} seconds`),
          );
        },
      });

/**
 * Fixed-window request limits, counted in this process's memory (several replicas need a
 * shared store, such as Redis, for the limits to hold across them):
 * - `perIp`, before anything else, so floods without a token are bounded too;
 * - `perUser`, after the token is verified and before the user is looked up, so one account
 *   cannot take the service for itself from many addresses, and each person has a count of
 *   their own (within the higher limit of the address they share).
 * Over a limit: 429 RATE_LIMITED with Retry-After.
 */
export const rateLimits = (config: RateLimitConfig) => ({
  perIp: limiter('ip', config.perIp, config.windowSeconds, 'from this address'),
  perUser: limiter('user', config.perUser, config.windowSeconds, 'for this account', (req) =>
    req.user ? `sub:${req.user.sub}` : ipKeyGenerator(req.ip ?? ''),
  ),
});
