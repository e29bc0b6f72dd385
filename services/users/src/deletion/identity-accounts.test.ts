import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '@noted/events';
import { createLogger, registry, verifyCaller } from '@noted/kit';
import { userEvents } from '@noted/proto';
import { startUserDeletion } from './consumer.js';
import { openUsersForTest } from '../testing.js';
import {
  IdentityAccountError,
  developmentAccounts,
  identityAccountsFrom,
  keycloakAccounts,
} from './identity-accounts.js';

const CLIENT_ID = 'noted-users';
const CLIENT_SECRET = `secret-${randomBytes(12).toString('hex')}`;
const INTERNAL_SECRET = randomBytes(32).toString('base64url');

/**
 * Keycloak's wire format for what the users service calls: the client-credentials grant at the
 * token endpoint of realm noted, and `DELETE /admin/realms/noted/users/{id}` for its bearer
 * (204, or 404 for no such user); `outage` answers 503 to every admin call.
 */
const startFakeKeycloak = async () => {
  const state = {
    users: new Set<string>(),
    tokens: new Set<string>(),
    tokenRequests: 0,
    outage: false,
    /** The bearer tokens the admin route was sent. */
    bearers: [] as string[],
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://keycloak');
      const send = (status: number, body?: unknown) => {
        res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      };
      if (req.method === 'POST' && url.pathname === '/realms/noted/protocol/openid-connect/token') {
        state.tokenRequests += 1;
        const form = new URLSearchParams(Buffer.concat(chunks).toString());
        if (
          form.get('grant_type') !== 'client_credentials' ||
          form.get('client_id') !== CLIENT_ID ||
          form.get('client_secret') !== CLIENT_SECRET
        ) {
          send(401, { error: 'unauthorized_client', error_description: 'Invalid client' });
          return;
        }
        const token = `token-${randomUUID()}`;
        state.tokens.add(token);
        send(200, { access_token: token, expires_in: 300, token_type: 'Bearer' });
        return;
      }
      const deletion = /^\/admin\/realms\/noted\/users\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'DELETE' && deletion) {
        const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
        state.bearers.push(bearer);
        if (state.outage) return send(503);
        // Keycloak's own tokens, or what the development provider takes: the users service's.
        const caller = await verifyCaller(INTERNAL_SECRET, bearer).catch(() => undefined);
        if (!state.tokens.has(bearer) && caller !== 'users') {
          return send(401, { error: 'HTTP 401 Unauthorized' });
        }
        const id = decodeURIComponent(deletion[1] ?? '');
        if (!state.users.delete(id)) return send(404, { error: 'User not found' });
        return send(204);
      }
      send(404);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

const failureOf = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
};

describe('deleting the identity account of a deleted Noted account', () => {
  let keycloak: Awaited<ReturnType<typeof startFakeKeycloak>>;

  beforeAll(async () => {
    keycloak = await startFakeKeycloak();
  });

  afterAll(async () => {
    await keycloak?.close();
  });

  beforeEach(() => {
    keycloak.state.outage = false;
  });

  const accounts = () =>
    keycloakAccounts({
      url: `${keycloak.url}/`,
      realm: 'noted',
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
    });

  it("deletes the Keycloak user with one client-credentials token, and takes Keycloak's 404 as done", async () => {
    const [ada, bo] = [randomUUID(), randomUUID()];
    keycloak.state.users.add(ada).add(bo);
    const before = keycloak.state.tokenRequests;
    const kc = accounts();
    expect(await kc.delete(ada)).toBe('deleted');
    expect(await kc.delete(bo)).toBe('deleted');
    // A second delivery: Keycloak has no such user any more, which is what was wanted.
    expect(await kc.delete(ada)).toBe('absent');
    expect(keycloak.state.tokenRequests - before).toBe(1);
    expect(keycloak.state.users.has(ada) || keycloak.state.users.has(bo)).toBe(false);
  });

  it('gets a new token once when Keycloak no longer takes the one it has', async () => {
    const kc = accounts();
    const user = randomUUID();
    keycloak.state.users.add(user);
    expect(await kc.delete(randomUUID())).toBe('absent');
    keycloak.state.tokens.clear();
    expect(await kc.delete(user)).toBe('deleted');
  });

  it('fails, naming the status and never a credential, while Keycloak is down or refuses the client', async () => {
    const user = randomUUID();
    keycloak.state.users.add(user);
    keycloak.state.outage = true;
    const down = await failureOf(accounts().delete(user));
    expect(down).toBeInstanceOf(IdentityAccountError);
    expect(down).toMatchObject({
      status: 503,
      message: 'Keycloak answered 503 to deleting an account',
    });
    expect(keycloak.state.users.has(user)).toBe(true);

    keycloak.state.outage = false;
    const refused = await failureOf(
      keycloakAccounts({
        url: keycloak.url,
        realm: 'noted',
        clientId: CLIENT_ID,
        clientSecret: 'wrong',
      }).delete(user),
    );
    expect(refused).toMatchObject({ status: 401 });
    expect(String((refused as Error).message)).toContain('KEYCLOAK_ADMIN_CLIENT_SECRET');
    for (const failure of [down, refused]) {
      const text = `${(failure as Error).message} ${JSON.stringify(failure)}`;
      expect(text).not.toContain(CLIENT_SECRET);
      for (const token of keycloak.state.tokens) expect(text).not.toContain(token);
    }
  });

  it('calls the development provider with a caller token of the users service', async () => {
    const dev = developmentAccounts({
      url: keycloak.url,
      realm: 'noted',
      internalSecret: INTERNAL_SECRET,
    });
    const user = randomUUID();
    keycloak.state.users.add(user);
    expect(await dev.delete(user)).toBe('deleted');
    expect(await verifyCaller(INTERNAL_SECRET, keycloak.state.bearers.at(-1))).toBe('users');
    expect(await dev.delete(user)).toBe('absent');
  });

  it('deletes nothing at Keycloak without the client secret', () => {
    const keycloakConfig = {
      provider: 'keycloak',
      url: keycloak.url,
      realm: 'noted',
      clientId: CLIENT_ID,
    } as const;
    expect(
      identityAccountsFrom({ ...keycloakConfig, clientSecret: undefined }, INTERNAL_SECRET),
    ).toBeUndefined();
    expect(
      identityAccountsFrom({ ...keycloakConfig, clientSecret: CLIENT_SECRET }, INTERNAL_SECRET)
        ?.provider,
    ).toBe('keycloak');
  });

  it('retries through redelivery until the identity provider answers (identity-user-deleted)', async () => {
    const { db } = await openUsersForTest('identity-accounts');
    const bus = createMemoryBus({ service: 'users', logger: createLogger({ level: 'silent' }) });
    const erased = async () => {
      const metric = await registry.getSingleMetric('noted_user_erasures_total')?.get();
      const count = (outcome: string) =>
        metric?.values.find((v) => v.labels.service === 'identity' && v.labels.outcome === outcome)
          ?.value ?? 0;
      return { erased: count('erased'), failed: count('failed') };
    };
    const workers = startUserDeletion({
      bus,
      knex: db.knex,
      logger: createLogger({ level: 'silent' }),
      accounts: accounts(),
      accountRetry: { delayMs: 50, maxDeliver: 20 },
    });
    try {
      const before = await erased();
      const user = randomUUID();
      keycloak.state.users.add(user);
      keycloak.state.outage = true;
      await bus.publish(
        userEvents.deleted.subject,
        userEvents.deleted.encode({ eventId: randomUUID(), userId: randomUUID(), authId: user }),
        { id: randomUUID() },
      );
      const waitFor = async (done: () => Promise<boolean>) => {
        const deadline = Date.now() + 10_000;
        while (!(await done()) && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      await waitFor(async () => (await erased()).failed >= before.failed + 2);
      expect(keycloak.state.users.has(user)).toBe(true);
      keycloak.state.outage = false;
      await waitFor(async () => (await erased()).erased > before.erased);
      expect(keycloak.state.users.has(user)).toBe(false);
      expect((await erased()).erased).toBe(before.erased + 1);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await bus.close();
      await db.close();
    }
  });
});
