import { connect, createServer, type Server as NetServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { notesV1 } from '@noted/proto';
import { createGrpcClient, DEFAULT_CHANNEL_OPTIONS } from './client.js';
import type { GrpcServer } from './server.js';
import {
  listenNotesServer,
  note,
  sleep,
  type NotesClient,
  type NotesImpl,
} from './test/notes-server.js';

const unused: NotesImpl['listNotes'] = async () => ({});

/** A notes server that counts the calls it answers. */
const countingServer = async (options: Parameters<typeof listenNotesServer>[1] = {}) => {
  const counter = { calls: 0 };
  const started = await listenNotesServer(
    {
      getNote: async (request, context) => {
        counter.calls += 1;
        if (request.noteId === 'slow') await sleep(700, context.signal);
        return { note: note(request.noteId, request.userId) };
      },
      listNotes: unused,
    },
    options,
  );
  return { ...started, counter };
};

/** A TCP relay in front of a server that counts the connections opened and closed through it. */
const relay = (port: number) =>
  new Promise<{
    address: string;
    opened: () => number;
    closed: () => number;
    close: () => Promise<void>;
  }>((resolve, reject) => {
    let opened = 0;
    let closed = 0;
    const sockets = new Set<Socket>();
    const server: NetServer = createServer((downstream) => {
      opened += 1;
      const upstream = connect({ port, host: '127.0.0.1', noDelay: true });
      downstream.setNoDelay(true);
      sockets.add(downstream).add(upstream);
      downstream.on('close', () => {
        closed += 1;
        upstream.destroy();
      });
      upstream.on('close', () => downstream.destroy());
      downstream.on('error', () => upstream.destroy());
      upstream.on('error', () => downstream.destroy());
      downstream.pipe(upstream);
      upstream.pipe(downstream);
    });
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (typeof address !== 'object' || !address) return reject(new Error('no port'));
      resolve({
        address: `127.0.0.1:${address.port}`,
        opened: () => opened,
        closed: () => closed,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });

describe('gRPC load balancing', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const track = (server: GrpcServer) => cleanups.push(() => server.stop());
  const clientOf = (address: string, channelOptions?: Record<string, string | number>) => {
    const client: NotesClient = createGrpcClient(notesV1.NotesService, address, {
      service: 'gateway',
      ...(channelOptions ? { channelOptions } : {}),
    });
    cleanups.push(() => client.close());
    return client;
  };

  it('uses round_robin by default', () => {
    expect(JSON.parse(String(DEFAULT_CHANNEL_OPTIONS['grpc.service_config']))).toEqual({
      loadBalancingConfig: [{ round_robin: {} }],
    });
  });

  it('spreads calls over every server its target resolves to, where pick_first pins one', async () => {
    const a = await countingServer();
    const b = await countingServer();
    track(a.server);
    track(b.server);
    const target = `ipv4:${a.address},${b.address}`;

    const balanced = clientOf(target);
    for (let i = 0; i < 100; i += 1) await balanced.getNote({ userId: 'u1', noteId: `s${i}` });
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => balanced.getNote({ userId: 'u1', noteId: `c${i}` })),
    );
    const spread = { a: a.counter.calls, b: b.counter.calls };
    expect(spread.a + spread.b).toBe(200);
    // Round robin alternates once both connections are up; the first calls may all go to
    // whichever connected first.
    expect(Math.min(spread.a, spread.b)).toBeGreaterThanOrEqual(60);

    a.counter.calls = 0;
    b.counter.calls = 0;
    const pinned = clientOf(target, {
      'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ pick_first: {} }] }),
    });
    for (let i = 0; i < 100; i += 1) await pinned.getNote({ userId: 'u1', noteId: `s${i}` });
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => pinned.getNote({ userId: 'u1', noteId: `c${i}` })),
    );
    expect([a.counter.calls, b.counter.calls].sort((x, y) => x - y)).toEqual([0, 200]);
  });

  it('calls a dns:/// target, the form the Helm chart gives services', async () => {
    const server = await countingServer();
    track(server.server);
    const client = clientOf(`dns:///localhost:${server.port}`);
    await client.getNote({ userId: 'u1', noteId: 'n' });
    expect(server.counter.calls).toBe(1);
  });

  it('keeps its connection while the server lets it live (the default 5 minutes)', async () => {
    const server = await countingServer();
    track(server.server);
    const through = await relay(server.port);
    cleanups.push(() => through.close());
    const client = clientOf(through.address);
    const until = Date.now() + 600;
    while (Date.now() < until) await client.getNote({ userId: 'u1', noteId: 'n' });
    expect(server.counter.calls).toBeGreaterThan(0);
    expect([through.opened(), through.closed()]).toEqual([1, 0]);
  });

  it('keeps serving when a server closes connections at their max age, calls in flight included', async () => {
    const server = await countingServer({
      maxConnectionAgeMs: 250,
      maxConnectionAgeGraceMs: 5_000,
    });
    track(server.server);
    const through = await relay(server.port);
    cleanups.push(() => through.close());
    const client = clientOf(through.address);

    const failures: unknown[] = [];
    let answered = 0;
    const call = (noteId: string) =>
      client.getNote({ userId: 'u1', noteId }, { deadlineMs: 5_000 }).then(
        () => {
          answered += 1;
        },
        (error: unknown) => {
          failures.push(error);
        },
      );
    // Calls longer than a connection's age, started as connections come and go.
    const slow = [call('slow'), sleep(600).then(() => call('slow'))];
    const until = Date.now() + 1_800;
    const worker = async () => {
      while (Date.now() < until) await call('n');
    };
    await Promise.all([worker(), worker(), worker(), worker(), ...slow]);

    expect(failures).toEqual([]);
    expect(answered).toBe(server.counter.calls);
    expect(answered).toBeGreaterThan(20);
    // 1.8 s of 250 ms (±10 %) connections: several replaced, each by a new one.
    expect(through.closed()).toBeGreaterThanOrEqual(2);
    expect(through.opened()).toBe(through.closed() + 1);
  });
});
