import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '@noted/api';
import { checkHealth } from './health.js';
import { note, sleep, startNotesServer } from './test/notes-server.js';

const NOTES = 'noted.notes.v1.NotesService';

describe('gRPC health', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('answers SERVING for the server and each added service once listening', async () => {
    const started = await startNotesServer({
      getNote: async () => ({}),
      listNotes: async () => ({}),
    });
    close = started.close;

    expect(await checkHealth(started.address)).toBe('SERVING');
    expect(await checkHealth(started.address, NOTES)).toBe('SERVING');
    expect(await checkHealth(started.address, 'noted.other.v1.OtherService')).toBe(
      'SERVICE_UNKNOWN',
    );
  });

  it('answers health checks without running authenticate', async () => {
    const started = await startNotesServer(
      { getNote: async () => ({}), listNotes: async () => ({}) },
      {
        authenticate: async () => {
          throw new AppError('UNAUTHENTICATED', 'no identity');
        },
      },
    );
    close = started.close;

    expect(await checkHealth(started.address, NOTES)).toBe('SERVING');
  });

  it('answers NOT_SERVING once the server is marked not serving', async () => {
    const started = await startNotesServer({
      getNote: async () => ({}),
      listNotes: async () => ({}),
    });
    close = started.close;

    started.server.setServing(false);
    expect(await checkHealth(started.address)).toBe('NOT_SERVING');
    expect(await checkHealth(started.address, NOTES)).toBe('NOT_SERVING');
  });

  it('lets a call in flight finish on stop, then refuses health checks', async () => {
    const started = await startNotesServer({
      getNote: async (request) => {
        await sleep(300);
        return { note: note(request.noteId, request.userId) };
      },
      listNotes: async () => ({}),
    });
    close = async () => started.client.close();

    const inFlight = started.client.getNote({ userId: 'u1', noteId: 'n1' });
    await sleep(50);
    await started.server.stop();

    expect((await inFlight).note?.id).toBe('n1');
    const error = await checkHealth(started.address).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('UNAVAILABLE');
  });

  it('cuts calls that outlast the stop timeout', async () => {
    const started = await startNotesServer(
      {
        getNote: async (request, context) => {
          await sleep(10_000, context.signal);
          return { note: note(request.noteId, request.userId) };
        },
        listNotes: async () => ({}),
      },
      { stopTimeoutMs: 100 },
    );
    close = async () => started.client.close();

    const inFlight = started.client.getNote({ userId: 'u1', noteId: 'n1' }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    await sleep(50);
    const stoppingAt = Date.now();
    await started.server.stop();

    expect(Date.now() - stoppingAt).toBeLessThan(2_000);
    const error = await inFlight;
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('UNAVAILABLE');
  });
});
