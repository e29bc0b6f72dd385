import { LRUCache } from 'lru-cache';
import { callerMetadata, type Identity } from '@noted/kit';
import { createGrpcClient } from '@noted/grpc';
import { usersV1 } from '@noted/proto';
import type { VerifiedUser } from './auth/index.js';

/**
 * Turns a verified token into a Noted user, creating it on first sight (users service over
 * gRPC). Lookups are cached per subject for a minute: the hot path is one map read.
 */
export const createUserResolver = (options: { address: string; internalSecret: string }) => {
  const client = createGrpcClient(usersV1.UsersService, options.address, {
    service: 'gateway',
    deadlineMs: 5_000,
    metadata: callerMetadata(options.internalSecret, 'gateway'),
  });
  const cache = new LRUCache<string, Identity>({ max: 50_000, ttl: 60_000 });
  const inFlight = new Map<string, Promise<Identity>>();

  const ensure = async (user: VerifiedUser): Promise<Identity> => {
    const response = await client.ensureUser({
      authId: user.sub,
      email: user.email ?? '',
      name: user.name ?? user.preferredUsername ?? '',
    });
    if (!response.user) throw new Error('users service answered without a user');
    const identity: Identity = {
      userId: response.user.userId,
      sub: response.user.authId,
      email: response.user.email,
      name: response.user.name,
    };
    cache.set(user.sub, identity);
    return identity;
  };

  return {
    resolve: (user: VerifiedUser): Promise<Identity> => {
      const cached = cache.get(user.sub);
      if (cached) return Promise.resolve(cached);
      let pending = inFlight.get(user.sub);
      if (!pending) {
        pending = ensure(user).finally(() => inFlight.delete(user.sub));
        inFlight.set(user.sub, pending);
      }
      return pending;
    },
    close: () => client.close(),
  };
};
