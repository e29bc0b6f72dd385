import { openDatabase, startUserErasure, type Database } from '@noted/db';
import { userEvents } from '@noted/proto';
import { createGrpcServer } from '@noted/grpc';
import { createSandbox } from '@noted/sandbox';
import {
  CALLER_METADATA,
  createHttpApp,
  finishHttpApp,
  listen,
  requireIdentity,
  startPeriodic,
  verifyCaller,
  type Logger,
  type RunningModule,
} from '@noted/kit';
import type { ExportConfig } from './config.js';
import { exportMigrations } from './migrations.js';
import { createNotesReader, type NotesReader } from './notes-client.js';
import { createAccountPort, type AccountPort } from './account-data.js';
import { createNotesPort, type NotesPort } from './notes-port.js';
import { sandboxRenderers, type Renderers } from './renderers.js';
import { forgetNotionUser } from './notion/forget.js';
import { notionRepository } from './notion/repository.js';
import { notionSyncDue, type NotionContext } from './notion/sync.js';
import { tokenBox } from './notion/token-box.js';
import { exportRouter } from './routes.js';

export interface RunningExport extends RunningModule {
  httpUrl: string;
  grpcAddress: string;
}

/**
 * The export service: a user's notes as Markdown (one, bundled with its images, or all of them
 * in one streamed zip), PDF and PNG (spec section 7), and the Notion connection. Reads notes and
 * images through the notes service's gRPC, always with the caller's user id, so another user's
 * note is a 404. Owns only the Notion connections (schema `export`), synced on a schedule.
 * Serves gRPC health only.
 */
export const startExport = async (
  config: ExportConfig,
  deps: {
    logger: Logger;
    /** The event bus: a deleted account's Notion connection goes (none in some tests). */
    bus?: Parameters<typeof startUserErasure>[0]['bus'];
    processReady?: () => boolean;
    /** The PDF and PNG renderers; the shipped ones, in the render sandbox, by default. */
    renderers?: Renderers;
    /** Stands in for the notes service (tests). */
    notes?: NotesReader;
    /** Stands in for the notes and users services' routes an import writes through (tests). */
    notesPort?: NotesPort;
    /** Stands in for the services' routes the plan check and one's data read (tests). */
    account?: AccountPort;
    /** How often due Notion connections are looked for; a minute by default. */
    notionPollMs?: number;
  },
): Promise<RunningExport> => {
  const logger = deps.logger.child({ module: 'export' });
  const notes =
    deps.notes ??
    createNotesReader({ address: config.notesGrpcAddress, internalSecret: config.internalSecret });
  const notesPort =
    deps.notesPort ??
    createNotesPort({
      notesUrl: config.notesUrl,
      usersUrl: config.usersUrl,
      internalSecret: config.internalSecret,
    });
  const account =
    deps.account ??
    createAccountPort({
      usersUrl: config.usersUrl,
      notesUrl: config.notesUrl,
      aiUrl: config.aiUrl,
      billingUrl: config.billingUrl,
      internalSecret: config.internalSecret,
    });
  let serving = false;
  const ready = () => serving;
  const processReady = deps.processReady ?? ready;

  let db: Database;
  try {
    db = await openDatabase({
      url: config.databaseUrl,
      dataDir: `${config.dataDir}/export`,
      schema: 'export',
      migrations: exportMigrations,
      logger,
      ...(config.pgliteSharedBuffersMb
        ? { pglite: { sharedBuffersMb: config.pgliteSharedBuffersMb } }
        : {}),
    });
  } catch (error) {
    notes.close();
    throw error;
  }
  const notion: NotionContext = {
    repository: notionRepository(db.knex),
    tokens: tokenBox(config.internalSecret),
    apiUrl: config.notion.apiUrl,
    intervalMinutes: config.notion.intervalMinutes,
    notesAs: (identity) => notesPort.as(identity),
    logger: logger.child({ component: 'notion' }),
    running: new Set(),
  };

  // Imports are read, and PDFs and PNGs rendered, in processes of their own (`@noted/sandbox`).
  const sandbox = createSandbox({ name: 'export-import', processes: 1, ...config.sandbox });
  const renderSandbox = createSandbox({ name: 'export-render', processes: 1, ...config.sandbox });
  const renderers = deps.renderers ?? sandboxRenderers(renderSandbox);
  const app = createHttpApp({ service: 'export', logger, ready: () => ready() && processReady() });
  app.use(['/export', '/user/data'], requireIdentity(config.internalSecret));
  app.use(
    exportRouter({
      notes,
      publicUrl: config.publicUrl,
      pageSize: config.pageSize,
      logger,
      notion,
      account,
      imports: {
        notes: notesPort,
        maxBytes: config.importMaxBytes,
        sandbox,
        readTimeoutMs: config.importReadTimeoutMs,
        logger,
      },
      renderers,
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
    await db.migrate();
    grpcListening = await grpc.listen(config.grpcAddress);
    http = await listen(app, config.httpPort, config.host);
  } catch (error) {
    // What started is stopped: a port taken must not leave a listener behind.
    await grpc.stop();
    await Promise.all([sandbox.close(), renderSandbox.close()]);
    notes.close();
    await db.close();
    throw error;
  }
  serving = true;
  // Every replica looks; each due connection is claimed by one of them (notionSyncDue).
  const scheduler = startPeriodic({
    name: 'notion sync',
    intervalMs: deps.notionPollMs ?? 60_000,
    logger: notion.logger,
    run: async (isStopped) => {
      await notionSyncDue(notion, isStopped);
    },
  });
  const erasure = deps.bus
    ? startUserErasure({
        service: 'export',
        bus: deps.bus,
        logger,
        event: userEvents.deleted,
        erase: async ({ userId }) => {
          await forgetNotionUser(db, userId);
          return { notion: 1 };
        },
      })
    : undefined;
  const grpcAddress = `${config.grpcAddress.replace(/:\d+$/, '')}:${grpcListening.port}`;
  logger.info({ http: http.url, grpc: grpcAddress }, 'export service listening');

  return {
    httpUrl: http.url,
    grpcAddress,
    ready,
    stop: async () => {
      serving = false;
      await erasure?.stop();
      await scheduler.stop();
      // Exports under way finish (the server waits for open responses, up to its limit).
      await http.close();
      await Promise.all([...notion.running]);
      await Promise.all([sandbox.close(), renderSandbox.close()]);
      await grpc.stop();
      notes.close();
      await db.close();
    },
  };
};
