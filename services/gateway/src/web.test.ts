import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@noted/kit';
import { gatewayConfigFrom, gatewayConfigSchema } from './config.js';
import { startGateway, type RunningGateway } from './gateway.js';

const script = Buffer.from('export const answer = () => 42;\n'.repeat(100));
const brotliScript = brotliCompressSync(script);
const gzipScript = gzipSync(script);
const remoteEntry = Buffer.from('window.notes = { get: () => import("./x.js") };\n'.repeat(50));
const billingManifest = Buffer.from(JSON.stringify({ name: 'billing', exposes: [] }));
const indexHtml = `<!doctype html><html><head><title>Noted</title></head><body>${'<p>shell</p>'.repeat(100)}</body></html>`;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** node:http rather than fetch, which would decode the body and hide what went over the wire. */
const get = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
  new Promise<Answer>((resolve, reject) => {
    request(url, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });

describe('frontend files, precompressed', () => {
  let gateway: RunningGateway;
  let url: string;

  beforeAll(async () => {
    const web = mkdtempSync(path.join(tmpdir(), 'noted-web-'));
    const shell = path.join(web, 'shell');
    const notes = path.join(web, 'notes');
    const billing = path.join(web, 'billing');
    mkdirSync(shell);
    mkdirSync(notes);
    mkdirSync(billing);
    writeFileSync(path.join(shell, 'index.html'), indexHtml);
    writeFileSync(path.join(shell, 'a.12345678.js'), script);
    writeFileSync(path.join(shell, 'a.12345678.js.br'), brotliScript);
    writeFileSync(path.join(shell, 'a.12345678.js.gz'), gzipScript);
    writeFileSync(path.join(shell, 'small.12345678.js'), 'console.log(1)');
    writeFileSync(path.join(notes, 'remoteEntry.js'), remoteEntry);
    writeFileSync(path.join(notes, 'remoteEntry.js.gz'), gzipSync(remoteEntry));
    writeFileSync(path.join(billing, 'mf-manifest.json'), billingManifest);
    writeFileSync(path.join(billing, 'mf-manifest.json.br'), brotliCompressSync(billingManifest));
    const closed = 'http://127.0.0.1:9';
    const env = gatewayConfigSchema.parse({
      PORT: '0',
      USERS_URL: closed,
      NOTES_URL: closed,
      IDENTITY_URL: closed,
      USERS_GRPC_ADDR: '127.0.0.1:9',
    });
    gateway = await startGateway(
      gatewayConfigFrom(env, {
        host: '127.0.0.1',
        internalSecret: 'a-secret-of-at-least-thirty-two-chars!!',
        webRoot: { shell, notes, billing },
      }),
      { logger: createLogger({ level: 'silent' }) },
    );
    url = gateway.url;
  });

  afterAll(async () => {
    await gateway?.stop();
  });

  it('sends the brotli copy to a browser that takes br, as the script it stands for', async () => {
    const answer = await get(`${url}/a.12345678.js`, { 'accept-encoding': 'br, gzip' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(answer.body)).toEqual(script);
    expect(answer.headers['content-length']).toBe(String(brotliScript.length));
    expect(answer.headers['content-type']).toMatch(/^text\/javascript/);
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the gzip copy to a browser that takes only gzip', async () => {
    const answer = await get(`${url}/a.12345678.js`, { 'accept-encoding': 'gzip' });
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(answer.body)).toEqual(script);
    expect(answer.headers['content-length']).toBe(String(gzipScript.length));
    expect(answer.headers['content-type']).toMatch(/^text\/javascript/);
    expect(answer.headers['cache-control']).toContain('immutable');
  });

  it('sends the file itself to a client that takes no coding, saying it could vary', async () => {
    const answer = await get(`${url}/a.12345678.js`);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body).toEqual(script);
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    expect(answer.headers['cache-control']).toContain('immutable');
  });

  it.each([
    ['br;q=0, gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip;q=0.8, br;q=0.5', 'gzip'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['deflate', undefined],
    ['br;q=0, gzip;q=0', undefined],
    ['gzip;q=0.5, identity', undefined],
  ])('answers accept-encoding %j with coding %j', async (accept, coding) => {
    const answer = await get(`${url}/a.12345678.js`, { 'accept-encoding': accept });
    expect(answer.headers['content-encoding']).toBe(coding);
    const decode = { br: brotliDecompressSync, gzip: gunzipSync }[coding ?? ''] ?? Buffer.from;
    expect(decode(answer.body)).toEqual(script);
  });

  it('falls back to the copies there are, then to the file, for the remote too', async () => {
    const remote = await get(`${url}/remotes/notes/remoteEntry.js`, {
      'accept-encoding': 'br, gzip',
    });
    expect(remote.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(remote.body)).toEqual(remoteEntry);
    expect(remote.headers['cache-control']).toBe('no-cache');
    const small = await get(`${url}/small.12345678.js`, { 'accept-encoding': 'br, gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body.toString()).toBe('console.log(1)');
  });

  it('serves the billing remote under /remotes/billing/ and names its manifest in /config.json', async () => {
    const config = await get(`${url}/config.json`);
    expect(JSON.parse(config.body.toString()).remotes).toEqual({
      notes: '/remotes/notes/mf-manifest.json',
      billing: '/remotes/billing/mf-manifest.json',
      marketing: '/remotes/marketing/mf-manifest.json',
    });
    const manifest = await get(`${url}/remotes/billing/mf-manifest.json`, {
      'accept-encoding': 'br',
    });
    expect(manifest.status).toBe(200);
    expect(manifest.headers['content-encoding']).toBe('br');
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(manifest.body)).toEqual(billingManifest);
    // A remote's file that is not there is a 404, never the shell's page.
    const missing = await get(`${url}/remotes/billing/gone.12345678.js`, { accept: 'text/html' });
    expect(missing.status).toBe(404);
  });

  it('answers HEAD and ranges over the coded bytes it would send', async () => {
    const head = await get(`${url}/a.12345678.js`, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(String(brotliScript.length));
    expect(head.body.length).toBe(0);
    const range = await get(`${url}/a.12345678.js`, {
      'accept-encoding': 'br',
      range: 'bytes=0-9',
    });
    expect(range.status).toBe(206);
    expect(range.headers['content-encoding']).toBe('br');
    expect(range.headers['content-range']).toBe(`bytes 0-9/${brotliScript.length}`);
    expect(range.body).toEqual(brotliScript.subarray(0, 10));
  });

  it('sends the shell page for app routes compressed too', async () => {
    for (const [accept, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const answer = await get(`${url}/notes/123`, {
        accept: 'text/html',
        'accept-encoding': accept,
      });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(accept);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.headers['content-length']).toBe(String(answer.body.length));
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(decode(answer.body).toString()).toBe(indexHtml);
    }
    const plain = await get(`${url}/notes/123`, { accept: 'text/html' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(indexHtml);
  });
});
