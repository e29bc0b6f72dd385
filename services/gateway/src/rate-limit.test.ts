import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@noted/api';
import { createGrpcServer, type GrpcServer } from '@noted/grpc';
import { createLogger, parseConfig } from '@noted/kit';
import { usersV1 } from '@noted/proto';
import {
  accessTokenClaims,
  createSigningKey,
  signToken,
  startJwksServer,
} from './auth/test/issuer.js';
import { gatewayConfigFrom, gatewayConfigSchema } from './config.js';
import { startGateway, type RunningGateway } from './gateway.js';

const logger = createLogger({ level: 'silent' });
const secret = 'a-secret-of-at-least-thirty-two-chars!!';

describe('gateway rate limits', () => {
  let key: Awaited<ReturnType<typeof createSigningKey>>;
  let jwks: Awaited<ReturnType<typeof startJwksServer>>;
  let users: GrpcServer;
  let notes: Server;
  let gateway: RunningGateway;
  let forwarded = 0;

  beforeAll(async () => {
    key = await createSigningKey('key-1');
    jwks = await startJwksServer([key]);

    // A users service on real gRPC that knows everyone, and a notes service that says ok.
    users = createGrpcServer({ service: 'users', logger });
    const unused = () => Promise.reject(new Error('not used here'));
    users.add(usersV1.UsersService, {
      ensureUser: async (request) => ({
        user: { userId: `user-${request.authId}`, authId: request.authId, email: request.email },
        created: false,
      }),
      getUserBySub: unused,
      getUser: unused,
      consumeQuota: unused,
      releaseQuota: unused,
      settleQuota: unused,
      listPendingQuota: unused,
    });
    const { port: usersPort } = await users.listen('127.0.0.1:0');
    notes = createServer((_req, res) => {
      forwarded += 1;
      res.setHeader('content-type', 'application/json');
      res.end('{"items":[]}');
    });
    await new Promise<void>((resolve) => notes.listen(0, '127.0.0.1', resolve));
    const notesPort = (notes.address() as AddressInfo).port;

    const closed = 'http://127.0.0.1:9';
    const env = gatewayConfigSchema.parse({
      PORT: '0',
      KEYCLOAK_URL: 'http://localhost:8080',
      OIDC_JWKS_URL: jwks.jwksUrl,
      USERS_URL: closed,
      AI_URL: closed,
      NOTES_URL: `http://127.0.0.1:${notesPort}`,
      USERS_GRPC_ADDR: `127.0.0.1:${usersPort}`,
      GATEWAY_RATE_LIMIT_PER_USER: '5',
      GATEWAY_RATE_LIMIT_PER_IP: '12',
    });
    gateway = await startGateway(
      gatewayConfigFrom(env, {
        host: '127.0.0.1',
        internalSecret: secret,
        webRoot: { shell: '/nonexistent', notes: '/nonexistent', billing: '/nonexistent' },
      }),
      { logger },
    );
  });

  afterAll(async () => {
    await gateway?.stop();
    await users?.stop();
    notes?.closeAllConnections();
    await new Promise((resolve) => notes?.close(resolve));
    await jwks?.close();
  });

  /** The gateway trusts X-Forwarded-For from loopback, as it does from an ingress. */
  const get = async (path: string, ip: string, sub?: string) => {
    const token = sub ? await signToken(key, accessTokenClaims({ sub })) : undefined;
    return fetch(`${gateway.url}${path}`, {
      headers: {
        'x-forwarded-for': ip,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
  };

  const expectRateLimited = async (response: Response, who: string) => {
    expect(response.status).toBe(429);
    const seconds = Number(response.headers.get('retry-after'));
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    const body = (await response.json()) as ErrorBody;
    expect(body.error.code).toBe('RATE_LIMITED');
    expect(body.error.message).toContain(who);
    expect(body.error.message).toContain(`try again in ${seconds} seconds`);
  };

  it('answers a user over the limit 429 RATE_LIMITED with Retry-After, from any address, and not others', async () => {
    const before = forwarded;
    for (let i = 0; i < 5; i += 1) {
      const response = await get('/api/notes', '192.0.2.1', 'sub-ada');
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit')).toContain(`"user"; r=${4 - i}; t=`);
      expect(response.headers.get('ratelimit-policy')).toContain('"user"; q=5; w=60');
    }
    expect(forwarded - before).toBe(5);

    await expectRateLimited(await get('/api/notes', '192.0.2.1', 'sub-ada'), 'for this account');
    // A new address does not start the user's count again.
    await expectRateLimited(await get('/api/notes', '192.0.2.2', 'sub-ada'), 'for this account');
    expect(forwarded - before).toBe(5);

    // Someone else, even from the same address, goes on.
    const grace = await get('/api/notes', '192.0.2.1', 'sub-grace');
    expect(grace.status).toBe(200);
    expect(await grace.json()).toEqual({ items: [] });
  });

  it('answers an address over the limit 429 RATE_LIMITED before any token is looked at, and not others', async () => {
    for (let i = 0; i < 12; i += 1) {
      const response = await get(i % 2 ? '/api/notes' : '/no/such/file.png', '198.51.100.7');
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(429);
      expect(response.headers.get('ratelimit')).toContain(`"ip"; r=${11 - i}; t=`);
    }
    await expectRateLimited(await get('/api/notes', '198.51.100.7'), 'from this address');
    // A valid token does not lift the address's limit.
    await expectRateLimited(
      await get('/api/notes', '198.51.100.7', 'sub-alan'),
      'from this address',
    );

    expect((await get('/api/notes', '198.51.100.8')).status).toBe(401);
    expect((await get('/api/notes', '198.51.100.8', 'sub-alan')).status).toBe(200);
  });

  it('leaves health checks out of the count', async () => {
    for (let i = 0; i < 20; i += 1) {
      expect((await get('/healthz', '203.0.113.5')).status).toBe(200);
    }
    expect((await get('/api/notes', '203.0.113.5', 'sub-edsger')).status).toBe(200);
  });
});

describe('gateway rate limit configuration', () => {
  const configOf = (env: Record<string, string>) =>
    gatewayConfigFrom(parseConfig(gatewayConfigSchema, env), {
      host: '127.0.0.1',
      internalSecret: secret,
      webRoot: { shell: '/nonexistent', notes: '/nonexistent', billing: '/nonexistent' },
    }).rateLimits;

  it('defaults to limits a person in a browser does not reach', () => {
    expect(configOf({})).toEqual({ perUser: 600, perIp: 3000, windowSeconds: 60 });
  });

  it('reads the limits from the environment, 0 turning one off', () => {
    expect(
      configOf({
        GATEWAY_RATE_LIMIT_PER_USER: '0',
        GATEWAY_RATE_LIMIT_PER_IP: '50',
        GATEWAY_RATE_LIMIT_WINDOW_SECONDS: '10',
      }),
    ).toEqual({ perUser: 0, perIp: 50, windowSeconds: 10 });
    expect(() => configOf({ GATEWAY_RATE_LIMIT_PER_IP: 'many' })).toThrow(
      /GATEWAY_RATE_LIMIT_PER_IP/,
    );
  });
});
