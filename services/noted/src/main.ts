#!/usr/bin/env -S MALLOC_MMAP_THRESHOLD_=65536 MALLOC_TRIM_THRESHOLD_=1048576 node --max-old-space-size=384 --max-semi-space-size=4 --liftoff-only
// The settings, also in `npm start`: glibc's malloc gives buffers of 64 KB and more their own
// mappings and freed memory back (by default its threshold climbs after the first large buffers,
// and the main heap, fragmented, held 286 MB after 3,000 notes were created: 44 MB with these); V8
// grows its heap far less eagerly under a bound (it grew to 250 MB for 90 MB live while notes were
// created) and with a young generation of 4 MB semi-spaces (16 MB by default: 40 MB less with
// 10,000 notes, no slower measured); and PGlite's WebAssembly stays on the baseline compiler (its
// optimized code was 58 MB; no slower queries measured).
import { parseArgs } from 'node:util';
import { ConfigError } from '@noted/kit';
import { TargetError } from './manager.js';
import { runMigrate } from './migrate.js';
import { startNoted } from './program.js';
import { runReindex } from './reindex.js';

const usage = `Usage: noted [--target=all|identity,users,notes,ai,billing,realtime,export,gateway,bus]
       noted migrate [--target=all|users,notes,ai] [--require-database-url]
       noted reindex [--user=<user id>]

Runs the modules of Noted. --target takes a comma list (default: all). Configuration comes
from the environment; see README.md.

migrate brings the databases of the targets (default: all that have one) to their latest
migration and exits; services also migrate when they start. --require-database-url refuses a
module without a Postgres URL instead of migrating its embedded database.

reindex rebuilds the AI index from the notes (all users', or one user's) in the running ai
service and prints its progress.`;

const splitTargets = (list: string) =>
  list
    .split(',')
    .map((target) => target.trim())
    .filter(Boolean);

const main = async () => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      target: { type: 'string', default: 'all' },
      user: { type: 'string' },
      'require-database-url': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  if (positionals[0] === 'migrate' && positionals.length === 1) {
    await runMigrate({
      env: process.env,
      targets: splitTargets(values.target),
      requireUrl: values['require-database-url'] ?? false,
    });
    return;
  }
  if (positionals[0] === 'reindex') {
    await runReindex({
      env: process.env,
      ...(values.user ? { userId: values.user } : {}),
      out: (line) => process.stdout.write(`${line}\n`),
    });
    return;
  }
  if (positionals.length > 0) throw new TargetError(`unknown command: ${positionals.join(' ')}`);
  const running = await startNoted({ targets: splitTargets(values.target), env: process.env });
  const { logger } = running.context;
  logger.info({ modules: running.names, url: running.context.gateway.publicUrl }, 'Noted is ready');

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), 30_000).unref();
    running.stop().then(
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
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`noted: failed to start: ${detail}\n`);
  }
  process.exit(1);
});
