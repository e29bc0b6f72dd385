import type { Express, Router } from 'express';
import type { DescService } from '@bufbuild/protobuf';
import {
  CALLER_METADATA,
  createHttpApp,
  finishHttpApp,
  listen,
  optionalIdentity,
  requireIdentity,
  verifyCaller,
  type Logger,
  type RunningModule,
} from '@noted/kit';
import {
  createUnitOfWork,
  openDatabase,
  startOutboxRelay,
  type Database,
  type Migration,
  type OutboxRelay,
  type UnitOfWork,
} from '@noted/db';
import type { EventBus } from '@noted/events';
import { createGrpcServer, type GrpcServer, type ServiceImpl } from '@noted/grpc';

export interface ServiceSettings {
  httpPort: number;
  grpcAddress: string;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  internalSecret: string;
  /** PGlite's shared_buffers in MB, when `databaseUrl` is unset (libs/db's default if unset). */
  pgliteSharedBuffersMb?: number;
  /** How long clients' connections to the gRPC server live (libs/grpc's defaults if unset). */
  grpcServer?: { maxConnectionAgeMs: number; maxConnectionAgeGraceMs: number };
}

export interface ServiceParts {
  db: Database;
  /** How the service writes: each unit commits, then wakes the outbox relay. */
  unitOfWork: UnitOfWork;
  logger: Logger;
  /** The event bus, for workers that consume events. */
  bus: EventBus;
}

export interface ServiceDefinition {
  /** Module name: schema, data folder, metrics label and log field. */
  name: string;
  migrations: Migration[];
  /** Public path prefixes the gateway forwards here with a signed identity. */
  identityPaths: string[];
  /**
   * Public paths that take no identity (they prove themselves otherwise: a signature, a
   * capability in the path); one ending in `/` opens every path under it.
   */
  openPaths?: string[];
  /**
   * Public paths served signed in or not (contracts with `auth: 'optional'`): an identity is
   * taken when the gateway sends one, and the request goes on without one otherwise.
   */
  optionalIdentityPaths?: string[];
  /** Paths whose raw body a handler reads (see `HttpAppOptions.rawBodyPaths`). */
  rawBodyPaths?: string[];
  routes: (parts: ServiceParts) => Router;
  grpc: (parts: ServiceParts) => GrpcBinding;
  /** Background work (schedulers) started once the service serves, stopped before it closes. */
  workers?: (parts: ServiceParts) => Worker[];
  /**
   * Releases what the service holds besides its servers and database (clients of others);
   * also called when start-up fails.
   */
  onStop?: () => Promise<void> | void;
}

export interface Worker {
  stop(): Promise<void>;
}

export interface GrpcBinding {
  desc: DescService;
  impl: ServiceImpl<DescService>;
}

/** Pairs a service descriptor with its implementation, checked against each other. */
export const grpcBinding = <S extends DescService>(desc: S, impl: ServiceImpl<S>): GrpcBinding => ({
  desc,
  impl: impl as unknown as ServiceImpl<DescService>,
});

export interface ServiceDeps {
  bus: EventBus;
  logger: Logger;
  /** The readiness of the whole process (every module's), which /readyz reports. */
  processReady?: () => boolean;
}

export interface RunningService extends RunningModule {
  httpUrl: string;
  grpcAddress: string;
  app: Express;
}

/**
 * Starts what every data-owning service has: its database (migrated), the outbox relay, an
 * HTTP server that only accepts gateway-signed identities, and a gRPC server that only accepts
 * Noted services. Stops them in reverse.
 */
export const startService = async (
  definition: ServiceDefinition,
  settings: ServiceSettings,
  deps: ServiceDeps,
): Promise<RunningService> => {
  const logger = deps.logger.child({ module: definition.name });
  const opened: { db?: Database; relay?: OutboxRelay; grpc?: GrpcServer } = {};
  const release = async () => {
    await opened.grpc?.stop();
    await opened.relay?.stop();
    await definition.onStop?.();
    await opened.db?.close();
  };
  try {
    return await serve(definition, settings, deps, logger, opened, release);
  } catch (error) {
    await release();
    throw error;
  }
};

const serve = async (
  definition: ServiceDefinition,
  settings: ServiceSettings,
  deps: ServiceDeps,
  logger: Logger,
  opened: { db?: Database; relay?: OutboxRelay; grpc?: GrpcServer },
  release: () => Promise<void>,
): Promise<RunningService> => {
  const db = await openDatabase({
    url: settings.databaseUrl,
    dataDir: `${settings.dataDir}/${definition.name}`,
    schema: definition.name,
    migrations: definition.migrations,
    logger,
    ...(settings.pgliteSharedBuffersMb
      ? { pglite: { sharedBuffersMb: settings.pgliteSharedBuffersMb } }
      : {}),
  });
  opened.db = db;
  await db.migrate();
  const relay = startOutboxRelay({ db, bus: deps.bus, service: definition.name, logger });
  opened.relay = relay;
  const parts: ServiceParts = {
    db,
    unitOfWork: createUnitOfWork(db.knex, relay.kick),
    logger,
    bus: deps.bus,
  };

  let serving = false;
  const ready = () => serving && deps.bus.healthy();
  const processReady = deps.processReady ?? ready;
  const app = createHttpApp({
    service: definition.name,
    logger,
    ready: () => ready() && processReady(),
    ...(definition.rawBodyPaths ? { rawBodyPaths: definition.rawBodyPaths } : {}),
  });
  const openPaths = definition.openPaths ?? [];
  const isOpen = (path: string) =>
    openPaths.some((open) => (open.endsWith('/') ? path.startsWith(open) : path === open));
  const identity = requireIdentity(settings.internalSecret);
  const optional = new Set(definition.optionalIdentityPaths ?? []);
  const maybeIdentity = optionalIdentity(settings.internalSecret);
  for (const path of definition.identityPaths) {
    app.use(path, (req, res, next) => {
      const requested = req.originalUrl.split('?')[0] ?? '';
      if (isOpen(requested)) {
        next();
        return;
      }
      if (optional.has(requested)) maybeIdentity(req, res, next);
      else identity(req, res, next);
    });
  }
  app.use(definition.routes(parts));
  finishHttpApp(app, logger);

  const grpc = createGrpcServer({
    service: definition.name,
    logger,
    ...settings.grpcServer,
    authenticate: async (metadata) => {
      await verifyCaller(settings.internalSecret, metadata.get(CALLER_METADATA)[0]?.toString());
    },
  });
  opened.grpc = grpc;
  const binding = definition.grpc(parts);
  grpc.add(binding.desc, binding.impl);
  const grpcListening = await grpc.listen(settings.grpcAddress);
  const http = await listen(app, settings.httpPort, settings.host);
  const grpcAddress = `${settings.grpcAddress.replace(/:\d+$/, '')}:${grpcListening.port}`;
  const workers = definition.workers?.(parts) ?? [];
  serving = true;
  logger.info({ http: http.url, grpc: grpcAddress }, `${definition.name} service listening`);

  return {
    httpUrl: http.url,
    grpcAddress,
    app,
    ready,
    stop: async () => {
      serving = false;
      await Promise.all(workers.map((worker) => worker.stop()));
      await http.close();
      await release();
    },
  };
};
