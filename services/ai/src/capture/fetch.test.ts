import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  Socket,
  createServer as createNetServer,
  type AddressInfo,
  type Socket as NetSocket,
} from 'node:net';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '@noted/api';
import { createSafeFetch, type FetchLimits } from './fetch.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A server on a loopback address that counts the connections it is given. */
const startServer = async (host: string, handler: Handler) => {
  const server: Server = createServer(handler);
  const seen = { connections: 0, requests: [] as IncomingMessage[] };
  server.on('connection', () => (seen.connections += 1));
  server.on('request', (req: IncomingMessage) => seen.requests.push(req));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

type Started = Awaited<ReturnType<typeof startServer>>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves when the server side of a response's connection is closed. */
const closed = (res: ServerResponse) =>
  new Promise<void>((resolve) => {
    if (res.socket?.destroyed) resolve();
    else res.once('close', () => resolve());
  });

const limits: FetchLimits = { maxBytes: 64 * 1024, timeoutMs: 5_000, maxRedirects: 3 };

/** 16 MB of zeros, compressed to well under the 64 KB cap. */
const zeros = Buffer.alloc(16 * 1024 * 1024);
const gzipBomb = gzipSync(zeros);
const brotliBomb = brotliCompressSync(zeros, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
const anyType = () => true;
const html = (mime: string) => mime === 'text/html';

/** How long the slow servers would go on for if nobody hung up. */
const TRICKLE_MS = 120_000;
/** What the trickling server got out before it was hung up on. */
const trickle = { sent: 0, finished: false };

/** What the handlers of the "public" server saw close, by path. */
const serverClosed = new Map<string, Promise<void>>();

const routes: Record<string, Handler> = {
  '/page': (_req, res) => {
    res.writeHead(200, { 'content-type': 'Text/HTML; Charset="ISO-8859-1"' });
    res.end(Buffer.from('<p>caf\xe9</p>', 'latin1'));
  },
  '/plain': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('hello');
  },
  '/no-type': (_req, res) => res.end('bytes'),
  '/dir/relative': (_req, res) => {
    res.writeHead(302, { location: '../page?from=relative' });
    res.end();
  },
  '/to-ftp': (_req, res) => {
    res.writeHead(301, { location: 'ftp://example.com/file' });
    res.end();
  },
  '/missing': (_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('not here');
  },
  '/image': (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(Buffer.alloc(16));
  },
  '/large': (_req, res) => {
    serverClosed.set('/large', closed(res));
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 1_000_000 });
    res.write(Buffer.alloc(1024, 'a'));
  },
  '/endless': (_req, res) => {
    serverClosed.set('/endless', closed(res));
    res.writeHead(200, { 'content-type': 'text/plain' });
    // Chunked, with no length: 1 KB every 5 ms until the client hangs up (at most 10 s).
    const timer = setInterval(() => res.write(Buffer.alloc(1024, 'b')), 5);
    const stop = setTimeout(() => res.destroy(), 10_000);
    res.on('close', () => {
      clearInterval(timer);
      clearTimeout(stop);
    });
  },
  '/gzip': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
    res.end(gzipSync('compressed hello'));
  },
  '/gzip-bomb': (_req, res) => {
    serverClosed.set('/gzip-bomb', closed(res));
    res.writeHead(200, {
      'content-type': 'text/plain',
      'content-encoding': 'gzip',
      'content-length': gzipBomb.length,
    });
    res.end(gzipBomb);
  },
  '/br-bomb': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br' });
    res.end(brotliBomb);
  },
  '/zstd': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'zstd' });
    res.end('??');
  },
  '/slow': (_req, res) => {
    serverClosed.set('/slow', closed(res));
    res.writeHead(200, { 'content-type': 'text/plain' });
    // A byte every 200 ms, for at most 10 s.
    let sent = 0;
    const timer = setInterval(() => (sent++ < 50 ? res.write('.') : res.end()), 200);
    res.on('close', () => clearInterval(timer));
  },
  '/silent': (_req, res) => {
    serverClosed.set('/silent', closed(res));
    // Never a status line: far longer than any test may take (vitest stops a test at 30 s).
    const stop = setTimeout(() => res.destroy(), TRICKLE_MS);
    res.on('close', () => clearTimeout(stop));
  },
  '/trickle': (_req, res) => {
    serverClosed.set('/trickle', closed(res));
    res.writeHead(200, { 'content-type': 'text/html' });
    res.flushHeaders();
    // A byte a second, 120 of them, and only then the end.
    const timer = setInterval(() => {
      trickle.sent += 1;
      if (trickle.sent < TRICKLE_MS / 1000) res.write('.');
      else {
        trickle.finished = true;
        res.end('.');
      }
    }, 1_000);
    res.on('close', () => clearInterval(timer));
  },
};

let site: Started;
let otherLoopback: Started;
let ipv6: Started | undefined;

beforeAll(async () => {
  // 127.0.0.1 stands in for a public server: it is the one address allowed.
  site = await startServer('127.0.0.1', (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const chain = path.match(/^\/chain\/(\d+)$/);
    if (chain) {
      const left = Number(chain[1]);
      res.writeHead(left > 0 ? 302 : 200, {
        'content-type': 'text/plain',
        ...(left > 0 ? { location: `/chain/${left - 1}` } : {}),
      });
      res.end(left > 0 ? '' : 'end of chain');
      return;
    }
    // Each hop of this chain answers well within a deadline of 1.5 s; all four of them do not.
    const hop = path.match(/^\/slow-hop\/(\d+)$/);
    if (hop) {
      const left = Number(hop[1]);
      const timer = setTimeout(() => {
        res.writeHead(left > 0 ? 302 : 200, {
          'content-type': 'text/plain',
          ...(left > 0 ? { location: `/slow-hop/${left - 1}` } : {}),
        });
        res.end(left > 0 ? '' : 'end of chain');
      }, 600);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    if (path === '/to-other-loopback' || path === '/to-ipv6') {
      const to =
        path === '/to-ipv6'
          ? `http://[::1]:${ipv6?.port ?? 9}/`
          : `http://127.0.0.2:${otherLoopback.port}/`;
      res.writeHead(302, { location: to });
      res.end();
      return;
    }
    const handler = routes[path];
    if (handler) handler(req, res);
    else {
      res.writeHead(500);
      res.end();
    }
  });
  otherLoopback = await startServer('127.0.0.2', (_req, res) => res.end('private'));
  // Where the machine has IPv6 loopback, a server there shows it is never reached.
  ipv6 = await startServer('::1', (_req, res) => res.end('private')).catch(() => undefined);
});

afterAll(async () => {
  await Promise.all([site.close(), otherLoopback.close(), ipv6?.close()]);
});

afterEach(() => {
  vi.restoreAllMocks();
});

const publicFetch = createSafeFetch({ allowPrivateAddresses: ['127.0.0.1'] });
const strictFetch = createSafeFetch();

const code = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

describe('createSafeFetch: what is never fetched', () => {
  const privateMessage = 'That address is private and cannot be fetched';
  const formMessage = 'Only http and https addresses can be fetched';

  // Each of these is an IP literal once WHATWG has parsed it: refused before any socket connects.
  const literals: [string, () => string][] = [
    ['loopback', () => `http://127.0.0.1:${site.port}/page`],
    ['loopback over https', () => `https://127.0.0.1:${site.port}/page`],
    ['another loopback address', () => `http://127.0.0.2:${otherLoopback.port}/`],
    ['a short loopback form', () => `http://127.1:${site.port}/page`],
    ['IPv6 loopback', () => `http://[::1]:${ipv6?.port ?? 80}/`],
    ['IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${site.port}/page`],
    ['decimal loopback', () => `http://2130706433:${site.port}/page`],
    ['octal loopback', () => `http://0177.0.0.1:${site.port}/page`],
    ['hex loopback', () => `http://0x7f000001:${site.port}/page`],
    ['dotted hex loopback', () => `http://0x7f.0.0.1:${site.port}/page`],
    ['the unspecified address', () => `http://0.0.0.0:${site.port}/page`],
    ['the unspecified IPv6 address', () => `http://[::]:${site.port}/page`],
    ['10/8', () => 'http://10.0.0.1/'],
    ['172.16/12', () => 'http://172.16.0.1/'],
    ['192.168/16', () => 'http://192.168.1.1/'],
    ['carrier-grade NAT', () => 'http://100.64.0.1/'],
    ['the metadata service', () => 'http://169.254.169.254/latest/meta-data/'],
    ['IPv6 link-local', () => 'http://[fe80::1]/'],
    ['IPv6 unique local', () => 'http://[fd00::1]/'],
    ['broadcast', () => 'http://255.255.255.255/'],
  ];

  it.each(literals)('refuses %s without connecting', async (_name, url) => {
    const connect = vi.spyOn(Socket.prototype, 'connect');
    const before = site.seen.connections + otherLoopback.seen.connections;
    const started = performance.now();

    const error = await code(strictFetch(url(), { types: anyType, limits }));

    expect(error).toMatchObject({ code: 'URL_REFUSED', status: 400, message: privateMessage });
    expect(performance.now() - started).toBeLessThan(500);
    expect(connect).not.toHaveBeenCalled();
    expect(site.seen.connections + otherLoopback.seen.connections).toBe(before);
    expect(ipv6?.seen.connections ?? 0).toBe(0);
  });

  it('refuses a name that resolves to loopback, checked on the resolved address', async () => {
    const before = site.seen.connections;
    const started = performance.now();

    const error = await code(
      strictFetch(`http://localhost:${site.port}/page`, { types: anyType, limits }),
    );

    expect(error).toMatchObject({ code: 'URL_REFUSED', message: privateMessage });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(site.seen.connections).toBe(before);
  });

  it('allows an allowed address only in the form it was given', async () => {
    const error = await code(
      publicFetch(`http://[::ffff:127.0.0.1]:${site.port}/page`, { types: anyType, limits }),
    );
    expect(error).toMatchObject({ code: 'URL_REFUSED', message: privateMessage });
  });

  it.each([
    ['ftp', 'ftp://example.com/file'],
    ['file', 'file:///etc/passwd'],
    ['data', 'data:text/plain;base64,aGVsbG8='],
    ['javascript', 'javascript:alert(1)'],
    ['gopher', 'gopher://127.0.0.1:70/'],
    ['credentials', 'http://user:pw@example.com/'],
    ['a user name alone', 'http://user@example.com/'],
    ['credentials on an allowed address', () => `http://user:pw@127.0.0.1:${site.port}/page`],
    ['not a URL', 'not a url'],
    ['a relative URL', '/page'],
  ] as [string, string | (() => string)][])('refuses %s', async (_name, url) => {
    const connect = vi.spyOn(Socket.prototype, 'connect');
    const target = typeof url === 'function' ? url() : url;

    const error = await code(publicFetch(target, { types: anyType, limits }));

    expect(error).toMatchObject({ code: 'URL_REFUSED', message: formMessage });
    expect(connect).not.toHaveBeenCalled();
  });
});

describe('createSafeFetch: an allowed server', () => {
  const url = (path: string) => `http://127.0.0.1:${site.port}${path}`;

  it('fetches a page: body, final URL, type and charset', async () => {
    // The spy the refusals above rely on does see a connection that is made.
    const connect = vi.spyOn(Socket.prototype, 'connect');
    const fetched = await publicFetch(url('/page'), { types: html, limits });
    expect(connect).toHaveBeenCalled();

    expect(fetched).toEqual({
      url: url('/page'),
      contentType: 'text/html',
      charset: 'iso-8859-1',
      body: Buffer.from('<p>caf\xe9</p>', 'latin1'),
      bytes: 11,
    });
    const request = site.seen.requests.at(-1);
    expect(request?.headers['user-agent']).toMatch(/^NotedBot\/1\.0/);
    expect(request?.headers.accept).toBe('*/*');
    expect(request?.headers.authorization).toBeUndefined();
  });

  it('sends the Accept header and user agent given', async () => {
    const fetch = createSafeFetch({ allowPrivateAddresses: ['127.0.0.1'], userAgent: 'Test/2' });
    await fetch(url('/plain'), { types: anyType, limits, header: 'text/plain' });
    const request = site.seen.requests.at(-1);
    expect(request?.headers['user-agent']).toBe('Test/2');
    expect(request?.headers.accept).toBe('text/plain');
  });

  it('takes a missing type as application/octet-stream', async () => {
    const types = vi.fn(() => true);
    const fetched = await publicFetch(url('/no-type'), { types, limits });
    expect(fetched.contentType).toBe('application/octet-stream');
    expect(fetched.charset).toBeUndefined();
    expect(types).toHaveBeenCalledWith('application/octet-stream');
  });

  it('follows a relative redirect', async () => {
    const fetched = await publicFetch(url('/dir/relative'), { types: html, limits });
    expect(fetched.url).toBe(url('/page?from=relative'));
    expect(fetched.body.toString('latin1')).toBe('<p>caf\xe9</p>');
  });

  it('follows up to maxRedirects redirects', async () => {
    const fetched = await publicFetch(url('/chain/3'), { types: anyType, limits });
    expect(fetched.url).toBe(url('/chain/0'));
    expect(fetched.body.toString()).toBe('end of chain');
  });

  it('fails on one redirect more than maxRedirects', async () => {
    const error = await code(publicFetch(url('/chain/4'), { types: anyType, limits }));
    expect(error).toMatchObject({
      code: 'FETCH_FAILED',
      status: 502,
      details: { maxRedirects: 3 },
    });
  });

  it('refuses a redirect to another loopback address, without connecting to it', async () => {
    const error = await code(publicFetch(url('/to-other-loopback'), { types: anyType, limits }));
    expect(error).toMatchObject({
      code: 'URL_REFUSED',
      message: 'That address is private and cannot be fetched',
    });
    expect(otherLoopback.seen.connections).toBe(0);
  });

  it('refuses a redirect to IPv6 loopback, without connecting to it', async () => {
    const error = await code(publicFetch(url('/to-ipv6'), { types: anyType, limits }));
    expect(error).toMatchObject({
      code: 'URL_REFUSED',
      message: 'That address is private and cannot be fetched',
    });
    expect(ipv6?.seen.connections ?? 0).toBe(0);
  });

  it('refuses a redirect to another protocol', async () => {
    const error = await code(publicFetch(url('/to-ftp'), { types: anyType, limits }));
    expect(error).toMatchObject({
      code: 'URL_REFUSED',
      message: 'Only http and https addresses can be fetched',
    });
  });

  it('fails on a status that is not 2xx, with the status', async () => {
    const error = await code(publicFetch(url('/missing'), { types: html, limits }));
    expect(error).toMatchObject({ code: 'FETCH_FAILED', details: { status: 404 } });
    expect(error.message).toBe('The address answered 404');
  });

  it('fails on a type the caller does not take', async () => {
    const error = await code(publicFetch(url('/image'), { types: html, limits }));
    expect(error).toMatchObject({
      code: 'FETCH_FAILED',
      message: 'The address serves image/png, not what was expected',
      details: { contentType: 'image/png' },
    });
  });

  it('refuses a body declared larger than the cap and hangs up', async () => {
    const error = await code(publicFetch(url('/large'), { types: anyType, limits }));
    expect(error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      status: 413,
      details: { limit: limits.maxBytes },
    });
    await serverClosed.get('/large');
  });

  it('stops a body with no declared length at the cap and hangs up', async () => {
    const started = performance.now();
    const error = await code(publicFetch(url('/endless'), { types: anyType, limits }));
    expect(error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    await serverClosed.get('/endless');
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('decodes a gzip body', async () => {
    const fetched = await publicFetch(url('/gzip'), { types: anyType, limits });
    expect(fetched.body.toString()).toBe('compressed hello');
    expect(fetched.bytes).toBe(16);
    expect(site.seen.requests.at(-1)?.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('stops a gzip bomb at the cap, counting the inflated bytes', async () => {
    expect(gzipBomb.length).toBeLessThan(limits.maxBytes);
    const error = await code(publicFetch(url('/gzip-bomb'), { types: anyType, limits }));
    expect(error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    await serverClosed.get('/gzip-bomb');
  });

  it('stops a brotli bomb at the cap', async () => {
    expect(brotliBomb.length).toBeLessThan(limits.maxBytes);
    const error = await code(publicFetch(url('/br-bomb'), { types: anyType, limits }));
    expect(error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('fails on an encoding it cannot read', async () => {
    const error = await code(publicFetch(url('/zstd'), { types: anyType, limits }));
    expect(error).toMatchObject({ code: 'FETCH_FAILED', details: { contentEncoding: 'zstd' } });
  });

  // Deadlines small enough for a test; each server would go on for two minutes, past the test's
  // own 30 s limit, so only the deadline can end these fetches. What is asserted is the code and
  // that the server was hung up on, never how long it took.
  const deadline = { ...limits, timeoutMs: 1_500 };

  it('ends a body that trickles a byte a second at the deadline, and hangs up', async () => {
    const error = await code(publicFetch(url('/trickle'), { types: anyType, limits: deadline }));
    expect(error).toMatchObject({
      code: 'FETCH_TIMEOUT',
      status: 504,
      message:
        '127.0.0.1 did not send everything within 2 seconds; the site may be slow or down. ' +
        'Try again later',
      details: { timeoutMs: 1_500 },
    });
    await serverClosed.get('/trickle');
    expect(trickle.finished).toBe(false);
  });

  it('ends a server that never sends its headers at the deadline, and hangs up', async () => {
    const error = await code(
      publicFetch(url('/silent'), { types: anyType, limits: { ...limits, timeoutMs: 300 } }),
    );
    expect(error).toMatchObject({ code: 'FETCH_TIMEOUT', status: 504 });
    await serverClosed.get('/silent');
  });

  it('ends headers that trickle a line a second at the deadline, and hangs up', async () => {
    const sockets: NetSocket[] = [];
    const raw = createNetServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => undefined);
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/html\r\n');
      const timer = setInterval(() => socket.write('x-slow: 1\r\n'), 1_000);
      const stop = setTimeout(() => socket.destroy(), TRICKLE_MS);
      socket.on('close', () => {
        clearInterval(timer);
        clearTimeout(stop);
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = raw.address() as AddressInfo;
      const error = await code(
        publicFetch(`http://127.0.0.1:${port}/`, { types: anyType, limits: deadline }),
      );
      expect(error).toMatchObject({ code: 'FETCH_TIMEOUT', status: 504 });
      const [socket] = sockets;
      expect(socket).toBeDefined();
      if (!socket?.closed) await new Promise((resolve) => socket?.once('close', resolve));
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('counts one deadline over every redirect, not one per hop', async () => {
    const error = await code(
      publicFetch(url('/slow-hop/3'), { types: anyType, limits: { ...deadline, maxRedirects: 5 } }),
    );
    expect(error).toMatchObject({ code: 'FETCH_TIMEOUT' });
  });

  it('fails on a server that is not there', async () => {
    const gone = await startServer('127.0.0.1', () => undefined);
    await gone.close();
    const error = await code(
      publicFetch(`http://127.0.0.1:${gone.port}/`, { types: anyType, limits }),
    );
    expect(error).toMatchObject({ code: 'FETCH_FAILED', details: { reason: 'ECONNREFUSED' } });
  });

  it('stops when the caller aborts, with the signal reason, and hangs up', async () => {
    const controller = new AbortController();
    const reason = new Error('client went away');
    setTimeout(() => controller.abort(reason), 300);
    const started = performance.now();

    const result = publicFetch(url('/slow'), {
      types: anyType,
      limits,
      signal: controller.signal,
    });

    await expect(result).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(1_000);
    await serverClosed.get('/slow');
  });

  it('does not start when the signal is already aborted', async () => {
    const before = site.seen.connections;
    const result = publicFetch(url('/page'), {
      types: anyType,
      limits,
      signal: AbortSignal.abort(),
    });
    await expect(result).rejects.toMatchObject({ name: 'AbortError' });
    await sleep(50);
    expect(site.seen.connections).toBe(before);
  });
});
