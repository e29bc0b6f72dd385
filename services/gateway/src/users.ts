import { LRUCache } from 'lru-cache';
import { callerMetadata, type Identity } from '@noted/kit';
import { createGrpcClient } from '@noted/grpc';
import { usersV1 } from '@noted/proto';
import type { VerifiedUser } from './auth/index.js';

/** The email and name a token gives the users service; the provider owns both. */
const profileOf = (user: VerifiedUser) => ({
  email: user.email ?? '',
  name: user.name ?? user.preferredUsername ?? '',
});

/**
 * Turns a verified token into a Noted user, creating it on first sight (users service over
 * gRPC). Lookups are cached per subject for a minute: the hot path is one map read. A token
 * issued later whose email or name differs from the cached one's goes to the users service
 * again, which stores the change unless it holds a profile from a later token: a profile
 * edited at the identity provider shows with the user's next token.
 */
export const createUserResolver = (options: { address: string; internalSecret: string }) => {
  const client = createGrpcClient(usersV1.UsersService, options.address, {
    service: 'gateway',
    deadlineMs: 5_000,
    metadata: callerMetadata(options.internalSecret, 'gateway'),
  });
  const cache = new LRUCache<string, { identity: Identity; profile: string; issuedAt: number }>({
    max: 50_000,
    ttl: 60_000,
  });
  const inFlight = new Map<string, Promise<Identity>>();

  const ensure = async (user: VerifiedUser, profile: string): Promise<Identity> => {
    const response = await client.ensureUser({
      authId: user.sub,
      ...profileOf(user),
      issuedAt: BigInt(user.issuedAt ?? 0),
    });
    if (!response.user) throw new Error('users service answered without a user');
    const identity: Identity = {
      userId: response.user.userId,
      sub: response.user.authId,
      email: response.user.email,
      name: response.user.name,
    };
    cache.set(user.sub, { identity, profile, issuedAt: user.issuedAt ?? 0 });
    return identity;
  };

  return {
    resolve: (user: VerifiedUser): Promise<Identity> => {
      const profile = JSON.stringify(profileOf(user));
      const cached = cache.get(user.sub);
      // A token issued before the one that set the cached profile (another tab's, or in the
      // same second) changes nothing, as the users service would not store it either.
      if (cached && (cached.profile === profile || (user.issuedAt ?? 0) <= cached.issuedAt)) {
        return Promise.resolve(cached.identity);
      }
      const key = `${user.sub}\n${profile}`;
      let pending = inFlight.get(key);
      if (!pending) {
        pending = ensure(user, profile).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return pending;
    },
    /** Drops the cached user of this subject (its account was deleted): the next request asks again. */
    forget: (sub: string) => {
      cache.delete(sub);
    },
    close: () => client.close(),
  };
};
