import path from 'node:path';
import { createLogger, startMetricsServer, type Logger } from '@noted/kit';
import type { EventBus } from '@noted/events';
import { gatewayConfigFrom } from '@noted/gateway';
import { internalSecretOf, loadProgramEnv, webRootOf } from './config.js';
import { writeEndpoints } from './endpoints.js';
import { resolveTargets, startModules, type RunningModules } from './manager.js';
import {
  allTarget,
  modules,
  type Endpoints,
  type ProgramContext,
  type Provides,
} from './modules.js';

export interface RunningNoted extends RunningModules {
  context: ProgramContext;
  /** Where the modules of this process listen. */
  endpoints: Endpoints;
  /** The event bus, when the bus module runs in this process. */
  bus: EventBus | undefined;
  /** Where this process's metrics are served, when their port could be taken. */
  metricsUrl?: string;
}

/** Starts the modules of the given targets with configuration from `env`. */
export const startNoted = async (options: {
  targets: string[];
  env: Record<string, string | undefined>;
  /** Defaults to a JSON logger at LOG_LEVEL. */
  logger?: Logger;
}): Promise<RunningNoted> => {
  const { targets } = options;
  const oneProcess = targets.includes('all');
  const env = loadProgramEnv(options.env, { oneProcess });
  const logger = options.logger ?? createLogger({ level: env.LOG_LEVEL, name: 'noted' });
  const order = resolveTargets(modules, targets, allTarget);
  const dataDir = path.resolve(env.NOTED_DATA_DIR);
  const internalSecret = internalSecretOf(env, dataDir);
  const shared = {
    host: env.NOTED_BIND_HOST ?? (oneProcess ? '127.0.0.1' : '0.0.0.0'),
    dataDir,
    internalSecret,
    pgliteSharedBuffersMb: env.NOTED_PGLITE_SHARED_BUFFERS_MB,
    sandbox: { memoryMb: env.NOTED_SANDBOX_MEMORY_MB },
    grpcServer: {
      maxConnectionAgeMs: env.NOTED_GRPC_MAX_CONNECTION_AGE_SECONDS * 1000,
      maxConnectionAgeGraceMs: env.NOTED_GRPC_MAX_CONNECTION_AGE_GRACE_SECONDS * 1000,
    },
  };
  if (!oneProcess && !env.NATS_URL && order.includes('bus')) {
    logger.warn('NATS_URL is not set: events stay inside this process (the in-process bus)');
  }
  const started: { modules?: RunningModules } = {};
  const context: ProgramContext = {
    env,
    logger,
    shared,
    processReady: () => started.modules?.ready() ?? false,
    gateway: gatewayConfigFrom(env, {
      host: env.NOTED_BIND_HOST ?? '0.0.0.0',
      internalSecret,
      webRoot: webRootOf(env),
    }),
  };
  logger.info({ targets, modules: order, dataDir }, 'starting Noted');
  started.modules = await startModules(modules, order, context, logger);
  const { bus, identity, users, notes, ai } = started.modules.provided as Partial<Provides>;
  const endpoints: Endpoints = { identity, users, notes, ai };
  writeEndpoints(dataDir, endpoints, logger);
  const metrics = await startMetricsServer(env.NOTED_METRICS_PORT, shared.host, logger);
  const running = started.modules;
  return {
    ...running,
    context,
    endpoints,
    bus,
    ...(metrics ? { metricsUrl: `${metrics.url}/metrics` } : {}),
    stop: async () => {
      await metrics?.close();
      await running.stop();
    },
  };
};
