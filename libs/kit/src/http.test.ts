import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AppError, type ErrorBody } from '@noted/api';
import {
  createHttpApp,
  finishHttpApp,
  listen,
  requireIdentity,
  startMetricsServer,
  type RunningServer,
} from './http.js';
import { IDENTITY_HEADER, signIdentity } from './identity.js';
import { createLogger } from './logger.js';
import { registry } from './metrics.js';

const secret = 'a-secret-of-at-least-thirty-two-chars!!';
const logger = createLogger({ level: 'silent' });
let server: RunningServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const start = async (ready = true) => {
  const app = createHttpApp({ service: 'test', logger, ready: () => ready });
  app.use('/api', requireIdentity(secret));
  app.get('/api/me', (req, res) => {
    res.json(req.identity);
  });
  app.post('/api/echo', (req, res) => {
    res.json(z.object({ title: z.string().min(1) }).parse(req.body));
  });
  app.post('/api/anything/:name', (req, res) => {
    res.json({ name: req.params.name, query: req.query, body: req.body as unknown });
  });
  app.get('/api/missing', () => {
    throw new AppError('NOT_FOUND', 'There is no such note');
  });
  app.get('/api/crash', () => {
    throw new Error('database password is hunter2');
  });
  finishHttpApp(app, logger);
  server = await listen(app, 0, '127.0.0.1');
  return server.url;
};

const identity = () =>
  signIdentity(secret, {
    userId: '6f1c2f9e-0f4e-4a51-9f0e-6f4d7f1b2c3d',
    sub: 's',
    email: 'e',
    name: 'n',
  });

describe('service HTTP app', () => {
  it('answers /healthz, and /readyz by readiness', async () => {
    const url = await start(false);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/readyz`)).status).toBe(503);
  });

  it('serves metrics on their own port only, never on the app', async () => {
    const url = await start();
    await fetch(`${url}/healthz`);
    expect((await fetch(`${url}/metrics`)).status).toBe(404);
    const metrics = await startMetricsServer(0, '127.0.0.1', logger);
    try {
      const text = await (await fetch(`${metrics?.url ?? ''}/metrics`)).text();
      expect(text).toContain('noted_http_requests_total');
      expect(text).toContain('process_cpu_user_seconds_total');
      expect((await fetch(`${metrics?.url ?? ''}/other`)).status).toBe(404);
    } finally {
      await metrics?.close();
    }
  });

  it('labels requests by route template: 1,000 random paths add no series', async () => {
    const url = await start();
    const series = async () =>
      (await registry.getSingleMetricAsString('noted_http_requests_total'))
        .split('\n')
        .filter((line) => line.startsWith('noted_http_requests_total{')).length;
    const headers = { [IDENTITY_HEADER]: await identity() };
    // Every label these can take, once, before counting.
    await fetch(`${url}/warm/up`);
    await fetch(`${url}/api/warm`, { headers });
    await fetch(`${url}/api/missing`, { headers });
    const before = await series();
    for (let i = 0; i < 1_000; i += 1) {
      const random = Math.random().toString(36).slice(2);
      await fetch(`${url}/${random}/${random}`);
      if (i % 5 === 0) await fetch(`${url}/api/${random}`, { headers });
    }
    await fetch(`${url}/api/missing`, { headers });
    expect(await series()).toBe(before);
    const labels = await registry.getSingleMetricAsString('noted_http_requests_total');
    expect(labels).toContain('route="unmatched"');
    expect(labels).toContain('route="/api/missing"');
  });

  it('refuses a request without a gateway identity, and with a forged one', async () => {
    const url = await start();
    const missing = await fetch(`${url}/api/me`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      error: {
        code: 'UNAUTHENTICATED',
        message: 'This service only accepts requests from the gateway',
      },
    });
    const forged = await signIdentity('not-the-secret-but-thirty-two-chars-long', {
      userId: 'x',
      sub: 's',
      email: '',
      name: '',
    });
    expect((await fetch(`${url}/api/me`, { headers: { [IDENTITY_HEADER]: forged } })).status).toBe(
      401,
    );
  });

  it('gives the identity to routes', async () => {
    const url = await start();
    const response = await fetch(`${url}/api/me`, {
      headers: { [IDENTITY_HEADER]: await identity() },
    });
    expect(await response.json()).toMatchObject({
      sub: 's',
      userId: '6f1c2f9e-0f4e-4a51-9f0e-6f4d7f1b2c3d',
    });
  });

  it('keeps a given request id and makes one otherwise', async () => {
    const url = await start();
    const given = await fetch(`${url}/healthz`, { headers: { 'x-request-id': 'req-123' } });
    expect(given.headers.get('x-request-id')).toBe('req-123');
    const made = await fetch(`${url}/healthz`);
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers errors as { error: { code, message } } with their status', async () => {
    const url = await start();
    const headers = { [IDENTITY_HEADER]: await identity(), 'content-type': 'application/json' };
    const invalid = await fetch(`${url}/api/echo`, {
      method: 'POST',
      headers,
      body: '{"title":""}',
    });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as ErrorBody).error.code).toBe('VALIDATION_FAILED');
    const broken = await fetch(`${url}/api/echo`, { method: 'POST', headers, body: '{"title":' });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as ErrorBody).error.code).toBe('BAD_REQUEST');
    const missing = await fetch(`${url}/api/missing`, { headers });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'There is no such note' },
    });
    const crash = await fetch(`${url}/api/crash`, { headers });
    expect(crash.status).toBe(500);
    const body = await crash.text();
    expect(body).not.toContain('hunter2');
    expect(JSON.parse(body).error.code).toBe('INTERNAL');
    const unknown = await fetch(`${url}/nowhere`);
    expect(unknown.status).toBe(404);
  });

  it('refuses a NUL character anywhere in the address, naming where', async () => {
    const url = await start();
    const headers = { [IDENTITY_HEADER]: await identity(), 'content-type': 'application/json' };
    const send = (path: string, body: unknown) =>
      fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const refusals: [string, unknown, string][] = [
      ['/api/anything/a%00b', {}, 'path'],
      ['/api/anything/ok?tag=a%00b', {}, 'query'],
      ['/api/anything/ok?a%00=1', {}, 'query'],
    ];
    for (const [path, body, where] of refusals) {
      const response = await send(path, body);
      expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      const { error } = (await response.json()) as ErrorBody;
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.message).toBe(
        `${where}: contains a NUL character (U+0000), which Noted cannot store`,
      );
    }
    // Everything else passes, escaped NUL-like text included.
    const fine = await send('/api/anything/a%20b?tag=%2500', { title: '\\u0000 as text' });
    expect(fine.status).toBe(200);
    expect(await fine.json()).toEqual({
      name: 'a b',
      query: { tag: '%00' },
      body: { title: '\\u0000 as text' },
    });
  });
});
