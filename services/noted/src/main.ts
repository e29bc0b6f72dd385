#!/usr/bin/env node
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, createLogger } from '@noted/kit';
import { internalSecretOf, loadProgramEnv, webRootOf } from './config.js';
import { TargetError, resolveTargets, startModules, type RunningModules } from './manager.js';
import { allTarget, modules, type ProgramContext } from './modules.js';
import { gatewayConfigFrom } from '@noted/gateway';

const usage = `Usage: noted [--target=all|bus,identity,users,notes,gateway]

Runs the modules of Noted. --target takes a comma list (default: all). Configuration comes
from the environment; see README.md.`;

const main = async () => {
  const { values } = parseArgs({
    options: { target: { type: 'string', default: 'all' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const targets = values.target.split(',').map((t) => t.trim()).filter(Boolean);
  const env = loadProgramEnv(process.env, { oneProcess: targets.includes('all') });
  const order = resolveTargets(modules, targets, allTarget);
  const logger = createLogger({ level: env.LOG_LEVEL, name: 'noted' });
  const dataDir = path.resolve(env.NOTED_DATA_DIR);
  const everything = targets.includes('all');
  const host = env.NOTED_BIND_HOST ?? (everything ? '127.0.0.1' : '0.0.0.0');
  const internalSecret = internalSecretOf(env, dataDir);
  const shared = { host, dataDir, internalSecret };
  if (!everything && !env.NATS_URL && order.some((m) => m === 'users' || m === 'notes')) {
    logger.warn('NATS_URL is not set: events stay inside this process (the in-process bus)');
  }
  let running: RunningModules | undefined;
  const context: ProgramContext = {
    env,
    logger,
    shared,
    endpoints: {},
    processReady: () => running?.ready() ?? false,
    gateway: gatewayConfigFrom(env, {
      host: env.NOTED_BIND_HOST ?? '0.0.0.0',
      internalSecret,
      webRoot: webRootOf(env),
    }),
  };
  logger.info({ targets, modules: order, dataDir }, 'starting Noted');
  running = await startModules(modules, order, context, logger);
  logger.info({ modules: running.names, url: context.gateway.publicUrl }, 'Noted is ready');

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    (running?.stop() ?? Promise.resolve()).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
};

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof TargetError) {
    process.stderr.write(`noted: ${error.message}\n`);
  } else {
    process.stderr.write(`noted: failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  }
  process.exit(1);
});
