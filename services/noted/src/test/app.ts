import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '@noted/kit';
import { infraUrl, passwordGrant } from '@noted/testing';
import { startNoted, type RunningNoted } from '../program.js';

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

/** The JSON body of a response, typed as the API documents it. */
export const json = async <T>(response: Response | Promise<Response>): Promise<T> =>
  (await (await response).json()) as T;

export interface TestApp {
  url: string;
  noted: RunningNoted;
  /** An access token for a user, from the development provider's password grant. */
  tokenFor: (email: string) => Promise<string>;
  api: (
    token: string | undefined,
    method: string,
    path: string,
    body?: unknown,
  ) => Promise<Response>;
  stop: () => Promise<void>;
}

/** Real Postgres and NATS for the suites, when CI (or a developer) provides them. */
export const testInfra = {
  databaseUrl: infraUrl('PostgreSQL', 'TEST_DATABASE_URL'),
  natsUrl: infraUrl('NATS JetStream', 'TEST_NATS_URL'),
};

/** Names the infrastructure a suite runs on, for its title. */
export const infraLabel = testInfra.databaseUrl ? 'Postgres and NATS' : 'embedded defaults';

/**
 * The whole app in this process, as `npm start` runs it: real gRPC on loopback, the event
 * bus, the development identity provider; real Postgres and NATS when `testInfra` has them.
 */
export const getTestApp = async (
  options: {
    /** More environment for startNoted, such as FREE_NOTES_PER_MONTH. */
    env?: Record<string, string>;
    /** The gateway's port, when something must know it before the app starts. */
    port?: number;
  } = {},
): Promise<TestApp> => {
  const infra = { ...testInfra, ...options };
  const start = (port: number) =>
    startNoted({
      targets: ['all'],
      env: {
        PORT: String(port),
        NOTED_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'noted-test-')),
        NOTED_METRICS_PORT: '0',
        // The hashed vectors: no model to load in every app a suite starts, and rankings a test
        // can reason about. ai-model.integration.test.ts runs the default, the sentence encoder.
        AI_LOCAL_EMBEDDINGS: 'hashed',
        ...(infra.databaseUrl ? { DATABASE_URL: infra.databaseUrl } : {}),
        ...(infra.natsUrl ? { NATS_URL: infra.natsUrl } : {}),
        ...infra.env,
      },
      logger: createLogger({ level: 'silent' }),
    });
  let port = options.port ?? (await freePort());
  let noted: RunningNoted;
  try {
    noted = await start(port);
  } catch (error) {
    // Another suite running at the same time took the free port first: take another one.
    if (options.port || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    port = await freePort();
    noted = await start(port);
  }
  const url = `http://localhost:${port}`;
  return {
    url,
    noted,
    tokenFor: async (email) =>
      (await passwordGrant({ realmUrl: `${url}/realms/noted`, email, password: 'noted' }))
        .accessToken,
    api: (token, method, route, body) =>
      fetch(`${url}${route}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    stop: () => noted.stop(),
  };
};
