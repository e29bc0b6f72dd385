import { grpcBinding, startService, type ServiceDeps } from '@noted/service';
import { serveRoutes } from '@noted/kit';
import { aiV1 } from '@noted/proto';
import type { AiConfig } from './config.js';
import { chatHandlers } from './chat/routes.js';
import type { AiContext } from './context.js';
import { generateHandlers } from './generate/routes.js';
import { aiGrpc } from './grpc.js';
import { startIndexConsumer } from './index/consumer.js';
import { startUserDeletion } from './deletion/erase.js';
import { createIndexer } from './index/indexer.js';
import { createReindexer, startIndexRepair } from './index/reindex.js';
import { aiMigrations } from './migrations.js';
import { createNotesClient } from './notes-client.js';
import { createArticleReader } from './capture/article-reader.js';
import { createSafeFetch } from './capture/fetch.js';
import { createOcr } from './capture/ocr.js';
import { createPdfReader } from './capture/pdf.js';
import type { CaptureTools } from './capture/reader.js';
import { startCaptureReader, startWaitingCaptureRetry } from './capture/worker.js';
import type { AiProvider } from './providers/port.js';
import { createProvider } from './providers/select.js';
import { createIndexCache } from './retrieval/cache.js';
import { searchHandlers } from './search/routes.js';
import { settingsRepository } from './settings/repository.js';
import { createStreamLimiter } from './sse.js';
import { settingsHandlers } from './settings/routes.js';
import { summaryHandlers } from './summaries/routes.js';
import { writerHandlers } from './writer/routes.js';

/** Every public route of the ai service, as its contracts in `@noted/api` declare them. */
export const aiRouter = (ctx: AiContext) =>
  serveRoutes('ai', {
    ...writerHandlers(ctx),
    ...summaryHandlers(ctx),
    ...searchHandlers(ctx),
    ...chatHandlers(ctx),
    ...generateHandlers(ctx),
    ...settingsHandlers(ctx),
  });

/**
 * The ai service: AI routes for the gateway, AiService over gRPC, and the index it keeps from
 * note events. `provider` replaces the configured one (tests).
 */
export const startAi = async (config: AiConfig, deps: ServiceDeps & { provider?: AiProvider }) => {
  const logger = deps.logger.child({ module: 'ai' });
  const notes = createNotesClient({
    address: config.notesGrpcAddress,
    internalSecret: config.internalSecret,
  });
  // Usage is recorded once the database is open; until then there are no calls to record.
  let recordUsage: AiContext['knex'] | undefined;
  const provider =
    deps.provider ??
    createProvider({
      ...(config.openai ? { openai: config.openai } : {}),
      localEmbeddings: config.localEmbeddings,
      logger,
      onUsage: (call, model, usage) => {
        if (!recordUsage) return;
        settingsRepository
          .recordUsage(recordUsage, call.userId, model, usage)
          .catch((error: unknown) => {
            logger.warn({ err: error }, 'token usage could not be recorded');
          });
      },
    });
  const tools: CaptureTools = {
    fetch: createSafeFetch({ allowPrivateAddresses: config.capture.allowAddresses }),
    ocr: createOcr({ workers: config.capture.ocrWorkers, memoryMb: config.capture.ocrMemoryMb }),
    pdf: createPdfReader({ workers: 1, limits: { memoryMb: config.capture.sandbox.memoryMb } }),
    article: createArticleReader({
      workers: 1,
      limits: { memoryMb: config.capture.sandbox.memoryMb },
    }),
  };
  let context: AiContext | undefined;
  const contextOf = (knex: AiContext['knex']): AiContext => {
    if (!context) {
      recordUsage = knex;
      const indexer = createIndexer({ knex, provider, notes });
      context = {
        knex,
        provider,
        notes,
        indexer,
        indexes: createIndexCache({
          knex,
          maxBytes: config.indexCacheBytes,
          models: () => provider.models,
        }),
        logger,
        streams: createStreamLimiter(),
      };
    }
    return context;
  };
  let reindexer: ReturnType<typeof createReindexer> | undefined;
  const reindexerOf = (ctx: AiContext) => {
    reindexer ??= createReindexer({ knex: ctx.knex, notes, indexer: ctx.indexer, logger });
    return reindexer;
  };

  logger.info(
    { provider: provider.name, models: provider.models },
    provider.name === 'local'
      ? 'AI: the built-in local provider (no language model; set OPENAI_BASE_URL for one)'
      : 'AI: an OpenAI-compatible provider',
  );
  return startService(
    {
      name: 'ai',
      migrations: aiMigrations,
      identityPaths: ['/ai', '/api'],
      routes: ({ db }) => aiRouter(contextOf(db.knex)),
      grpc: ({ db }) => {
        const ctx = contextOf(db.knex);
        return grpcBinding(aiV1.AiService, aiGrpc(ctx, reindexerOf(ctx)));
      },
      workers: ({ db, bus }) => {
        const ctx = contextOf(db.knex);
        return [
          startIndexConsumer({ bus, indexer: ctx.indexer, logger }),
          startUserDeletion({ bus, knex: db.knex, logger }),
          startIndexRepair({ knex: db.knex, notes, indexer: ctx.indexer, logger }),
          startCaptureReader({ bus, ctx, tools, workers: config.capture.workers, logger }),
          startWaitingCaptureRetry({ ctx, logger, intervalMs: 10 * 60_000 }),
          { stop: () => reindexerOf(ctx).stop() },
        ];
      },
      onStop: async () => {
        await Promise.all([tools.ocr.close(), tools.pdf.close(), tools.article.close()]);
        notes.close();
        await provider.close();
      },
    },
    config,
    deps,
  );
};
