import * as z from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, Metadata, credentials, type ServiceError } from '@grpc/grpc-js';
import { timestampFromDate, timestampDate } from '@bufbuild/protobuf/wkt';
import { AppError } from '@noted/api';
import { currentContext, grpcRequests, runWithContext } from '@noted/kit';
import { ERROR_CODE_KEY } from './errors.js';
import { note, startNotesServer, type NotesImpl } from './test/notes-server.js';

const unused: NotesImpl['listNotes'] = async () => ({});

type GrpcLabels = Record<'service' | 'side' | 'method' | 'code', string>;

const grpcCount = async (labels: GrpcLabels) => {
  const metric = await grpcRequests.get();
  return metric.values
    .filter((value) =>
      (Object.keys(labels) as (keyof GrpcLabels)[]).every(
        (key) => value.labels[key] === labels[key],
      ),
    )
    .reduce((sum, value) => sum + value.value, 0);
};

const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

describe('gRPC server and client', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('round-trips a unary call with typed messages', async () => {
    const createdAt = new Date('2024-05-01T10:00:00Z');
    const started = await startNotesServer({
      getNote: async (request) => ({
        note: { ...note(request.noteId, request.userId), createdAt: timestampFromDate(createdAt) },
      }),
      listNotes: async (request) => ({
        notes: [note('a', request.userId), note('b', request.userId)],
        total: request.page * 100 + request.limit,
      }),
    });
    close = started.close;

    const got = await started.client.getNote({ userId: 'u1', noteId: 'n1' });
    expect(got.$typeName).toBe('noted.notes.v1.GetNoteResponse');
    expect(got.note).toMatchObject({ id: 'n1', userId: 'u1', title: 'Title n1', tags: ['work'] });
    expect(got.note?.isPinned).toBe(true);
    expect(got.note?.createdAt && timestampDate(got.note.createdAt)).toEqual(createdAt);

    const listed = await started.client.listNotes({ userId: 'u2', page: 3, limit: 20 });
    expect(listed.notes.map((n) => [n.id, n.userId])).toEqual([
      ['a', 'u2'],
      ['b', 'u2'],
    ]);
    expect(listed.total).toBe(320);
  });

  it('carries an AppError to the caller with its code and message', async () => {
    const started = await startNotesServer({
      getNote: async () => {
        throw new AppError('NOT_FOUND', 'Note not found');
      },
      listNotes: async () => {
        throw new AppError('NOTES_LEFT_NOT_ENOUGH', 'You have no notes left this month');
      },
    });
    close = started.close;

    const notFound = await failure(started.client.getNote({ userId: 'u1', noteId: 'nope' }));
    expect(notFound.code).toBe('NOT_FOUND');
    expect(notFound.message).toBe('Note not found');
    expect(notFound.status).toBe(404);

    const quota = await failure(started.client.listNotes({ userId: 'u1' }));
    expect(quota.code).toBe('NOTES_LEFT_NOT_ENOUGH');
    expect(quota.message).toBe('You have no notes left this month');
  });

  it('answers invalid input (a zod error) as VALIDATION_FAILED, as HTTP does', async () => {
    const started = await startNotesServer({
      getNote: async () => {
        z.object({ limit: z.number().max(100) }).parse({ limit: 200 });
        return {};
      },
      listNotes: unused,
    });
    close = started.close;

    const error = await failure(started.client.getNote({ userId: 'u1', noteId: 'n1' }));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toContain('limit');
  });

  it('answers INTERNAL without leaking the message of an unexpected error', async () => {
    const started = await startNotesServer({
      getNote: async () => {
        throw new Error('connection to db-7.internal refused, password=hunter2');
      },
      listNotes: unused,
    });
    close = started.close;

    const error = await failure(started.client.getNote({ userId: 'u1', noteId: 'n1' }));
    expect(error.code).toBe('INTERNAL');
    expect(error.message).not.toMatch(/db-7|hunter2/);
  });

  it('sends the grpc status and the stable code in trailing metadata', async () => {
    const started = await startNotesServer({
      getNote: async () => {
        throw new AppError('VALIDATION_FAILED', 'noteId is required');
      },
      listNotes: unused,
    });
    close = started.close;
    const raw = new Client(started.address, credentials.createInsecure());
    const error = await new Promise<ServiceError | null>((resolve) => {
      raw.makeUnaryRequest(
        '/noted.notes.v1.NotesService/GetNote',
        (value: Buffer) => value,
        (value: Buffer) => value,
        Buffer.alloc(0),
        new Metadata(),
        { deadline: Date.now() + 2000 },
        (err) => resolve(err),
      );
    });
    raw.close();
    if (!error) throw new Error('the call should have failed');
    expect(error.code).toBe(3);
    expect(error.details).toBe('noteId is required');
    expect(error.metadata.get(ERROR_CODE_KEY)).toEqual(['VALIDATION_FAILED']);
  });

  it('refuses a call that authenticate rejects, before the handler runs', async () => {
    const handled: string[] = [];
    const started = await startNotesServer(
      {
        getNote: async (request) => {
          handled.push(request.noteId);
          return { note: note(request.noteId, request.userId) };
        },
        listNotes: unused,
      },
      {
        authenticate: async (metadata, method) => {
          expect(method).toBe('/noted.notes.v1.NotesService/GetNote');
          if (metadata.get('x-noted-identity')[0] !== 'signed-by-gateway') {
            throw new Error('identity missing');
          }
        },
      },
    );
    close = started.close;

    const refused = await failure(started.client.getNote({ userId: 'u1', noteId: 'n1' }));
    expect(refused.code).toBe('UNAUTHENTICATED');
    expect(handled).toEqual([]);

    const allowed = await started.client.getNote(
      { userId: 'u1', noteId: 'n2' },
      { metadata: { 'x-noted-identity': 'signed-by-gateway' } },
    );
    expect(allowed.note?.id).toBe('n2');
    expect(handled).toEqual(['n2']);
  });

  it('sends the metadata the client options provide on every call', async () => {
    let calls = 0;
    const started = await startNotesServer(
      {
        getNote: async (request, context) => ({
          note: note(String(context.metadata.get('x-noted-identity')[0]), request.userId),
        }),
        listNotes: unused,
      },
      {},
      { metadata: async () => ({ 'x-noted-identity': `token-${++calls}` }) },
    );
    close = started.close;

    expect((await started.client.getNote({ userId: 'u1' })).note?.id).toBe('token-1');
    expect((await started.client.getNote({ userId: 'u1' })).note?.id).toBe('token-2');
  });

  it('carries the request id of the calling request to the handler', async () => {
    const started = await startNotesServer({
      getNote: async (request) => ({
        note: note(currentContext().requestId ?? 'none', request.userId),
      }),
      listNotes: unused,
    });
    close = started.close;

    const got = await runWithContext({ requestId: 'req-42' }, () =>
      started.client.getNote({ userId: 'u1', noteId: 'n1' }),
    );
    expect(got.note?.id).toBe('req-42');
  });

  it('counts calls on both sides by method and status code', async () => {
    const started = await startNotesServer({
      getNote: async (request) => {
        if (request.noteId === 'missing') throw new AppError('NOT_FOUND', 'Note not found');
        return { note: note(request.noteId, request.userId) };
      },
      listNotes: unused,
    });
    close = started.close;
    const method = '/noted.notes.v1.NotesService/GetNote';
    const serverOk: GrpcLabels = { service: 'notes', side: 'server', method, code: 'OK' };
    const clientOk = { service: 'gateway', side: 'client', method, code: 'OK' };
    const serverNotFound = { service: 'notes', side: 'server', method, code: 'NOT_FOUND' };
    const before = await Promise.all([serverOk, clientOk, serverNotFound].map(grpcCount));

    await started.client.getNote({ userId: 'u1', noteId: 'n1' });
    await started.client.getNote({ userId: 'u1', noteId: 'n2' });
    await failure(started.client.getNote({ userId: 'u1', noteId: 'missing' }));

    const after = await Promise.all([serverOk, clientOk, serverNotFound].map(grpcCount));
    expect(after.map((count, i) => count - (before[i] ?? 0))).toEqual([2, 2, 1]);
  });

  it("leaves a handler's signal alone once its call has answered", async () => {
    const signals: AbortSignal[] = [];
    const started = await startNotesServer({
      getNote: async (request, context) => {
        signals.push(context.signal);
        return { note: note(request.noteId, request.userId) };
      },
      listNotes: unused,
    });
    close = started.close;
    await started.client.getNote({ userId: 'u1', noteId: 'n1' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(false);
  });

  it('refuses to wire a service that lacks a handler', () => {
    return expect(startNotesServer({ getNote: unused } as unknown as NotesImpl)).rejects.toThrow(
      /ListNotes has no handler/,
    );
  });
});
