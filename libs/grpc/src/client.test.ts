import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '@noted/api';
import { notesV1, usersV1 } from '@noted/proto';
import { createGrpcClient } from './client.js';
import { listenNotesServer, note, sleep, startNotesServer } from './test/notes-server.js';

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('the call should have failed');
    },
    (reason: unknown) => reason,
  );

/** A loopback port nothing listens on. */
const closedPort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });

describe('gRPC client', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('gives up at the deadline with TIMEOUT, and the handler sees the cancellation', async () => {
    let handlerAborted = false;
    const started = await startNotesServer(
      {
        getNote: async (request, context) => {
          await sleep(5_000, context.signal);
          handlerAborted = context.signal.aborted;
          return { note: note(request.noteId, request.userId) };
        },
        listNotes: async (_request, context) => ({
          total: context.deadline ? context.deadline.getTime() - Date.now() : -1,
        }),
      },
      {},
      { deadlineMs: 3_000 },
    );
    close = started.close;

    const startedAt = Date.now();
    const error = await rejection(
      started.client.getNote({ userId: 'u1', noteId: 'n1' }, { deadlineMs: 200 }),
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('TIMEOUT');
    expect(Date.now() - startedAt).toBeLessThan(2_000);
    await expect.poll(() => handlerAborted).toBe(true);

    const { total: remainingMs } = await started.client.listNotes({ userId: 'u1' });
    expect(remainingMs).toBeGreaterThan(2_000);
    expect(remainingMs).toBeLessThanOrEqual(3_000);
  });

  it('rejects with UNAVAILABLE when nothing listens at the address', async () => {
    const port = await closedPort();
    const client = createGrpcClient(usersV1.UsersService, `127.0.0.1:${port}`, {
      service: 'gateway',
    });
    try {
      const error = await rejection(client.ensureUser({ authId: 'sub-1' }));
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('UNAVAILABLE');
    } finally {
      client.close();
    }
  });

  it('reaches a server that started after its calls had been refused, within 2.5 s', async () => {
    const port = await closedPort();
    const client = createGrpcClient(notesV1.NotesService, `127.0.0.1:${port}`, {
      service: 'ai',
    });
    try {
      // Refused for 6 s: grpc-js's own backoff would wait up to 3.4 s from here (1 s × 1.6ⁿ).
      const refusedUntil = Date.now() + 6_000;
      while (Date.now() < refusedUntil) {
        expect(await rejection(client.getNote({ userId: 'u1', noteId: 'n1' }))).toMatchObject({
          code: 'UNAVAILABLE',
        });
        await sleep(200);
      }
      const started = await listenNotesServer(
        {
          getNote: async (request) => ({ note: note(request.noteId, request.userId) }),
          listNotes: async () => ({}),
        },
        {},
        `127.0.0.1:${port}`,
      );
      close = () => started.server.stop();
      const startedAt = Date.now();
      for (;;) {
        const answered = await client.getNote({ userId: 'u1', noteId: 'n1' }).then(
          () => true,
          () => false,
        );
        if (answered) break;
        await sleep(50);
      }
      expect(Date.now() - startedAt).toBeLessThan(2_500);
    } finally {
      client.close();
    }
  }, 15_000);

  it('rejects with the abort reason when the caller cancels', async () => {
    const started = await startNotesServer({
      getNote: async (request, context) => {
        await sleep(5_000, context.signal);
        return { note: note(request.noteId, request.userId) };
      },
      listNotes: async () => ({}),
    });
    close = started.close;

    const controller = new AbortController();
    const call = started.client.getNote({ userId: 'u1' }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user went away')), 50);
    const error = await rejection(call);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('user went away');
  });

  it('exposes one method per RPC by its local name', () => {
    const client = createGrpcClient(usersV1.UsersService, '127.0.0.1:1', { service: 'gateway' });
    try {
      expect(typeof client.ensureUser).toBe('function');
      expect(typeof client.getUserBySub).toBe('function');
    } finally {
      client.close();
    }
  });
});
