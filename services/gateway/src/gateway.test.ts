import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@noted/api';
import express from 'express';
import { SERVER_KEEP_ALIVE_MS, createLogger, listen, registry } from '@noted/kit';
import { gatewayConfigFrom, gatewayConfigSchema } from './config.js';
import { UPSTREAM_IDLE_MS, startGateway, type RunningGateway } from './gateway.js';

const inlineScript = "document.documentElement.dataset.theme='x'";

/** A gateway whose upstreams are all closed ports: what it answers by itself. */
describe('gateway on its own', () => {
  let gateway: RunningGateway;
  let url: string;

  beforeAll(async () => {
    const web = mkdtempSync(path.join(tmpdir(), 'noted-web-'));
    mkdirSync(path.join(web, 'shell', 'dist'), { recursive: true });
    mkdirSync(path.join(web, 'notes', 'dist'), { recursive: true });
    writeFileSync(
      path.join(web, 'shell', 'dist', 'index.html'),
      `<!doctype html><html><head><script>${inlineScript}</script></head><body>shell</body></html>`,
    );
    writeFileSync(path.join(web, 'shell', 'dist', 'main.0123456789abcdef.js'), 'console.log(1)');
    writeFileSync(path.join(web, 'notes', 'dist', 'mf-manifest.json'), '{"name":"notes"}');
    const closed = 'http://127.0.0.1:9';
    const env = gatewayConfigSchema.parse({
      PORT: '0',
      PUBLIC_URL: 'http://localhost:8080',
      USERS_URL: closed,
      NOTES_URL: closed,
      IDENTITY_URL: closed,
      USERS_GRPC_ADDR: '127.0.0.1:9',
      GATEWAY_BODY_LIMIT_MB: '1',
      S3_PUBLIC_ENDPOINT: 'https://media.example.com/noted',
    });
    gateway = await startGateway(
      gatewayConfigFrom(env, {
        host: '127.0.0.1',
        internalSecret: 'a-secret-of-at-least-thirty-two-chars!!',
        webRoot: {
          shell: path.join(web, 'shell', 'dist'),
          notes: path.join(web, 'notes', 'dist'),
          billing: path.join(web, 'billing', 'dist'),
        },
      }),
      { logger: createLogger({ level: 'silent' }) },
    );
    url = gateway.url;
  });

  afterAll(async () => {
    await gateway?.stop();
  });

  it('gives the shell its runtime configuration', async () => {
    const response = await fetch(`${url}/config.json`);
    expect(await response.json()).toEqual({
      apiBaseUrl: '',
      keycloak: {
        url: 'http://localhost:8080',
        realm: 'noted',
        clientId: 'noted-web',
        identityProviders: [],
      },
      logoutUrl: '/',
      remotes: {
        notes: '/remotes/notes/mf-manifest.json',
        billing: '/remotes/billing/mf-manifest.json',
        marketing: '/remotes/marketing/mf-manifest.json',
      },
    });
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it('serves the shell for page paths, allowing only its own inline script', async () => {
    for (const page of ['/', '/notes/123', '/landing']) {
      const response = await fetch(`${url}${page}`, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('shell');
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
      expect(csp).not.toContain('upgrade-insecure-requests');
      // Large files are sent straight to the object store's public origin.
      expect(csp).toMatch(/connect-src 'self' [^;]*https:\/\/media\.example\.com[; ]/);
    }
  });

  it('caches hashed assets for good and the remote manifest never', async () => {
    const asset = await fetch(`${url}/main.0123456789abcdef.js`);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const manifest = await fetch(`${url}/remotes/notes/mf-manifest.json`);
    expect(await manifest.json()).toEqual({ name: 'notes' });
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers unknown API paths and missing files with JSON 404s, not the shell', async () => {
    const missing = await fetch(`${url}/missing.js`);
    expect(missing.status).toBe(404);
    const api = await fetch(`${url}/apix`, { headers: { accept: 'application/json' } });
    expect(api.status).toBe(404);
  });

  it('serves no metrics on its public port, and counts random paths under bounded routes', async () => {
    // /metrics is a page path like any other here: the shell, never the process's metrics.
    expect(await (await fetch(`${url}/metrics`)).text()).not.toContain('noted_http_requests_total');
    const series = async () =>
      (await registry.getSingleMetricAsString('noted_http_requests_total'))
        .split('\n')
        .filter((line) => line.startsWith('noted_http_requests_total{service="gateway"')).length;
    // Every label these take, once, before counting.
    await fetch(`${url}/public/x`);
    await fetch(`${url}/api/x`);
    await fetch(`${url}/main.0123456789abcdef.js`);
    await fetch(`${url}/no/such/page.png`);
    await fetch(`${url}/some/page`, { headers: { accept: 'text/html' } });
    const before = await series();
    for (let i = 0; i < 300; i += 1) {
      const random = Math.random().toString(36).slice(2);
      await fetch(`${url}/public/${random}`);
      await fetch(`${url}/api/${random}`);
      await fetch(`${url}/${random}/${random}.png`);
      await fetch(`${url}/${random}`, { headers: { accept: 'text/html' } });
    }
    expect(await series()).toBe(before);
  });

  it('serves the OpenAPI document without a token', async () => {
    const response = await fetch(`${url}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { servers: { url: string }[] }).servers[0]?.url).toBe(
      'http://localhost:8080',
    );
  });

  it('refuses bodies over the limit before anything else', async () => {
    const response = await fetch(`${url}/api/note/create/direct`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(1024 * 1024 + 1),
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as ErrorBody).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers 502 with a JSON error when a service is down', async () => {
    const response = await fetch(`${url}/realms/noted/.well-known/openid-configuration`);
    expect(response.status).toBe(502);
    expect(((await response.json()) as ErrorBody).error.code).toBe('UPSTREAM_UNAVAILABLE');
  });

  it('answers 401 to the API without a token', async () => {
    const response = await fetch(`${url}/api/notes`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('forwards a route of optional sign-in without a token, but checks a token that is sent', async () => {
    const send = (headers: Record<string, string>) =>
      fetch(`${url}/api/feedback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ kind: 'idea', message: 'hi' }),
      });
    // Passed on anonymously: the users service (a closed port here) is asked.
    expect((await send({})).status).toBe(502);
    for (const authorization of ['Bearer not.a.token', 'Basic YWRhOm5vdGVk', 'Bearer']) {
      const refused = await send({ authorization });
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as ErrorBody).error.code).toBe('UNAUTHENTICATED');
    }
    // Reading feedback is no such route.
    expect((await fetch(`${url}/api/admin/feedback`)).status).toBe(401);
  });
});

describe('gateway in front of a service', () => {
  let gateway: RunningGateway;
  let upstream: Server;
  let connections = 0;
  let requests = 0;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      requests += 1;
      if (req.url?.endsWith('/cut-off')) {
        // A download that fails midway: some bytes, then the connection goes.
        res.writeHead(200, { 'content-type': 'application/zip' });
        res.write(Buffer.alloc(64 * 1024, 1));
        setTimeout(() => res.destroy(), 50);
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end('{"issuer":"test"}');
    });
    upstream.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.address() as AddressInfo;
    const closed = 'http://127.0.0.1:9';
    const env = gatewayConfigSchema.parse({
      PORT: '0',
      USERS_URL: closed,
      NOTES_URL: closed,
      IDENTITY_URL: `http://127.0.0.1:${port}`,
      USERS_GRPC_ADDR: '127.0.0.1:9',
    });
    gateway = await startGateway(
      gatewayConfigFrom(env, {
        host: '127.0.0.1',
        internalSecret: 'a-secret-of-at-least-thirty-two-chars!!',
        webRoot: { shell: '/nonexistent', notes: '/nonexistent', billing: '/nonexistent' },
      }),
      { logger: createLogger({ level: 'silent' }) },
    );
  });

  afterAll(async () => {
    await gateway?.stop();
    upstream?.closeAllConnections();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  it('forwards requests one after another over one kept-alive connection', async () => {
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${gateway.url}/realms/noted/.well-known/openid-configuration`);
      expect(await response.json()).toEqual({ issuer: 'test' });
    }
    expect(requests).toBe(5);
    expect(connections).toBe(1);
  });

  it('cuts a download off when its service does, rather than ending it as if complete', async () => {
    const response = await fetch(`${gateway.url}/realms/noted/cut-off`);
    expect(response.status).toBe(200);
    const reading = (async () => {
      let bytes = 0;
      for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += part.length;
      }
      return bytes;
    })();
    await expect(reading).rejects.toThrow();
  });

  it('drops an idle connection before a Noted service would, so no request meets a closing one', async () => {
    const service = await listen(express(), 0, '127.0.0.1');
    try {
      // Node's default (5 s) was shorter than the agent's idle time: a reused connection the
      // service closed at that moment failed the request with ECONNRESET.
      expect(service.server.keepAliveTimeout).toBe(SERVER_KEEP_ALIVE_MS);
      expect(service.server.headersTimeout).toBeGreaterThan(SERVER_KEEP_ALIVE_MS);
      expect(UPSTREAM_IDLE_MS).toBeLessThanOrEqual(SERVER_KEEP_ALIVE_MS / 2);
    } finally {
      await service.close();
    }
  });
});
