import { createGrpcServer } from '@noted/grpc';
import {
  CALLER_METADATA,
  createHttpApp,
  finishHttpApp,
  listen,
  requireIdentity,
  verifyCaller,
  type Logger,
  type RunningModule,
} from '@noted/kit';
import type { ExportConfig } from './config.js';
import { createNotesReader, type NotesReader } from './notes-client.js';
import { loadRenderers, type Renderers } from './renderers.js';
import { exportRouter } from './routes.js';

export interface RunningExport extends RunningModule {
  httpUrl: string;
  grpcAddress: string;
}

/**
 * The export service: a user's notes as Markdown (one, bundled with its images, or all of them
 * in one streamed zip), PDF and PNG (spec section 7). Owns no data: it reads notes and images
 * through the notes service's gRPC, always with the caller's user id, so another user's note is
 * a 404. Serves gRPC health only.
 */
export const startExport = async (
  config: ExportConfig,
  deps: {
    logger: Logger;
    processReady?: () => boolean;
    /** The PDF and PNG renderers, loaded on the first PDF or PNG; the shipped ones by default. */
    renderers?: () => Promise<Renderers>;
    /** Stands in for the notes service (tests). */
    notes?: NotesReader;
  },
): Promise<RunningExport> => {
  const logger = deps.logger.child({ module: 'export' });
  const notes =
    deps.notes ??
    createNotesReader({ address: config.notesGrpcAddress, internalSecret: config.internalSecret });
  let serving = false;
  const ready = () => serving;
  const processReady = deps.processReady ?? ready;

  let renderers: Promise<Renderers> | undefined;
  const app = createHttpApp({ service: 'export', logger, ready: () => ready() && processReady() });
  app.use('/export', requireIdentity(config.internalSecret));
  app.use(
    exportRouter({
      notes,
      publicUrl: config.publicUrl,
      pageSize: config.pageSize,
      logger,
      renderers: () => {
        renderers ??= (deps.renderers ?? loadRenderers)().catch((error: unknown) => {
          renderers = undefined;
          throw error;
        });
        return renderers;
      },
    }),
  );
  finishHttpApp(app, logger);

  const grpc = createGrpcServer({
    service: 'export',
    logger,
    ...config.grpcServer,
    authenticate: async (metadata) => {
      await verifyCaller(config.internalSecret, metadata.get(CALLER_METADATA)[0]?.toString());
    },
  });
  let grpcListening: { port: number };
  let http: Awaited<ReturnType<typeof listen>>;
  try {
    grpcListening = await grpc.listen(config.grpcAddress);
    http = await listen(app, config.httpPort, config.host);
  } catch (error) {
    // What started is stopped: a port taken must not leave a listener behind.
    await grpc.stop();
    notes.close();
    throw error;
  }
  serving = true;
  const grpcAddress = `${config.grpcAddress.replace(/:\d+$/, '')}:${grpcListening.port}`;
  logger.info({ http: http.url, grpc: grpcAddress }, 'export service listening');

  return {
    httpUrl: http.url,
    grpcAddress,
    ready,
    stop: async () => {
      serving = false;
      // Exports under way finish (the server waits for open responses, up to its limit).
      await http.close();
      await grpc.stop();
      notes.close();
    },
  };
};
