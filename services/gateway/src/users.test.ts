import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcServer, type GrpcServer } from '@noted/grpc';
import { createLogger } from '@noted/kit';
import { usersV1 } from '@noted/proto';
import { createUserResolver } from './users.js';

const logger = createLogger({ level: 'silent' });
const secret = 'a-secret-of-at-least-thirty-two-chars!!';

describe('user resolver (gateway to users)', () => {
  let users: GrpcServer;
  let resolver: ReturnType<typeof createUserResolver>;
  const calls: { authId: string; email: string; name: string; issuedAt: bigint }[] = [];

  beforeAll(async () => {
    // A users service on real gRPC that stores what each call gives it, as the real one does.
    users = createGrpcServer({ service: 'users', logger });
    const unused = () => Promise.reject(new Error('not used here'));
    users.add(usersV1.UsersService, {
      ensureUser: async ({ authId, email, name, issuedAt }) => {
        calls.push({ authId, email, name, issuedAt });
        return { user: { userId: `user-${authId}`, authId, email, name }, created: false };
      },
      getUserBySub: unused,
      getUser: unused,
      consumeQuota: unused,
      releaseQuota: unused,
      settleQuota: unused,
      listPendingQuota: unused,
    });
    const { port } = await users.listen('127.0.0.1:0');
    resolver = createUserResolver({ address: `127.0.0.1:${port}`, internalSecret: secret });
  });

  afterAll(async () => {
    resolver?.close();
    await users?.stop();
  });

  const callsFor = (authId: string) => calls.filter((call) => call.authId === authId);

  it('asks the users service once per subject while the profile stays the same', async () => {
    const ada = { sub: 'sub-ada', email: 'ada@example.com', name: 'Ada', issuedAt: 100 };
    await Promise.all([resolver.resolve(ada), resolver.resolve(ada)]);
    expect(await resolver.resolve({ ...ada, issuedAt: 160 })).toMatchObject({
      userId: 'user-sub-ada',
      email: 'ada@example.com',
      name: 'Ada',
    });
    expect(callsFor('sub-ada')).toHaveLength(1);
  });

  it('passes a changed email or name on with the next token, and ignores an older token', async () => {
    const grace = { sub: 'sub-grace', email: 'grace@example.com', name: 'Grace', issuedAt: 100 };
    await resolver.resolve(grace);
    const renamed = { ...grace, email: 'hopper@example.com', name: 'Grace Hopper', issuedAt: 200 };
    expect(await resolver.resolve(renamed)).toMatchObject({
      email: 'hopper@example.com',
      name: 'Grace Hopper',
    });
    expect(callsFor('sub-grace')).toEqual([
      { authId: 'sub-grace', email: 'grace@example.com', name: 'Grace', issuedAt: 100n },
      { authId: 'sub-grace', email: 'hopper@example.com', name: 'Grace Hopper', issuedAt: 200n },
    ]);

    // Another tab still holding a token from before the change does not change it back.
    for (const issuedAt of [150, 200]) {
      expect(await resolver.resolve({ ...grace, issuedAt })).toMatchObject({
        email: 'hopper@example.com',
        name: 'Grace Hopper',
      });
    }
    expect(callsFor('sub-grace')).toHaveLength(2);
  });

  it('names the user by the preferred username when the token has no name', async () => {
    await resolver.resolve({ sub: 'sub-lin', preferredUsername: 'lin', issuedAt: 100 });
    expect(callsFor('sub-lin')).toEqual([
      { authId: 'sub-lin', email: '', name: 'lin', issuedAt: 100n },
    ]);
  });
});
