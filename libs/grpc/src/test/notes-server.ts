import { createLogger } from '@noted/kit';
import { notesV1 } from '@noted/proto';
import { createGrpcClient, type GrpcClientOptions } from '../client.js';
import { createGrpcServer, type GrpcServerOptions } from '../server.js';
import type { ServiceClient, ServiceImpl } from '../types.js';

export type NotesImpl = ServiceImpl<typeof notesV1.NotesService>;
export type NotesClient = ServiceClient<typeof notesV1.NotesService>;

export const silentLogger = createLogger({ level: 'silent' });

export const note = (id: string, userId: string) => ({
  id,
  userId,
  title: `Title ${id}`,
  body: 'A body',
  tags: ['work'],
  isPinned: true,
});

/** Calls these tests do not make: each answers that it is not part of the test. */
const notUsed = async (): Promise<never> => {
  throw new Error('not used in this test');
};

/**
 * A notes server on a free loopback port, its address, and a client pointed at it. The tests
 * implement the two calls they use; the service's other calls answer INTERNAL.
 */
export const startNotesServer = async (
  impl: Pick<NotesImpl, 'getNote' | 'listNotes'>,
  serverOptions: Partial<GrpcServerOptions> = {},
  clientOptions: Partial<GrpcClientOptions> = {},
) => {
  const { server, address } = await listenNotesServer(impl, serverOptions);
  const client: NotesClient = createGrpcClient(notesV1.NotesService, address, {
    service: 'gateway',
    ...clientOptions,
  });
  return {
    server,
    address,
    client,
    close: async () => {
      client.close();
      await server.stop();
    },
  };
};

/** A notes server alone on a free loopback port, or on the address given. */
export const listenNotesServer = async (
  impl: Pick<NotesImpl, 'getNote' | 'listNotes'>,
  serverOptions: Partial<GrpcServerOptions> = {},
  address = '127.0.0.1:0',
) => {
  const server = createGrpcServer({ service: 'notes', logger: silentLogger, ...serverOptions });
  server.add(notesV1.NotesService, {
    getNotes: notUsed,
    listNotesCreatedBetween: notUsed,
    searchNotes: notUsed,
    scanNotes: notUsed,
    getNoteImage: notUsed,
    getCapture: notUsed,
    setCaptureStep: notUsed,
    attachCaptureFile: notUsed,
    completeCapture: notUsed,
    retryWaitingCaptures: notUsed,
    ...impl,
  });
  const { port } = await server.listen(address);
  return { server, port, address: `127.0.0.1:${port}` };
};

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
