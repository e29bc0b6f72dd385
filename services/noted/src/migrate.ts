import path from 'node:path';
import { openDatabase, type Migration } from '@noted/db';
import { ConfigError, createLogger, type Logger } from '@noted/kit';
import { loadProgramEnv, type ProgramEnv } from './config.js';
import { TargetError } from './manager.js';

/**
 * The modules that own a database: each migrates its own schema (named as the module, as
 * startService names it), at the URL its config reads (`USERS_DATABASE_URL`, else
 * `DATABASE_URL`; PGlite under the data dir when neither is set).
 */
const dataModules = {
  users: async (env: ProgramEnv) => ({
    url: env.USERS_DATABASE_URL ?? env.DATABASE_URL,
    migrations: (await import('@noted/users')).usersMigrations,
  }),
  notes: async (env: ProgramEnv) => ({
    url: env.NOTES_DATABASE_URL ?? env.DATABASE_URL,
    migrations: (await import('@noted/notes')).notesMigrations,
  }),
  ai: async (env: ProgramEnv) => ({
    url: env.AI_DATABASE_URL ?? env.DATABASE_URL,
    migrations: (await import('@noted/ai')).aiMigrations,
  }),
  billing: async (env: ProgramEnv) => ({
    url: env.BILLING_DATABASE_URL ?? env.DATABASE_URL,
    migrations: (await import('@noted/billing')).billingMigrations,
  }),
  export: async (env: ProgramEnv) => ({
    url: env.EXPORT_DATABASE_URL ?? env.DATABASE_URL,
    migrations: (await import('@noted/export')).exportMigrations,
  }),
} satisfies Record<string, (env: ProgramEnv) => Promise<{ url?: string; migrations: Migration[] }>>;

export type DataModule = keyof typeof dataModules;
export const dataModuleNames = Object.keys(dataModules) as DataModule[];

/**
 * `noted migrate`: brings the databases of the given modules (all that own one by default,
 * `all` included) to their latest migration, then returns. Services migrate at start too, under
 * the same per-schema Postgres advisory lock, so running this first (a deploy's migration Job)
 * and starting replicas at once are both safe; a migration that fails stops here, before any
 * new replica starts.
 */
export const runMigrate = async (options: {
  env: Record<string, string | undefined>;
  targets: string[];
  /** Refuse a module with no database URL rather than migrate an embedded PGlite database. */
  requireUrl?: boolean;
  /** Defaults to a JSON logger at LOG_LEVEL. */
  logger?: Logger;
}): Promise<DataModule[]> => {
  const env = loadProgramEnv(options.env, { oneProcess: false });
  const logger = options.logger ?? createLogger({ level: env.LOG_LEVEL, name: 'noted' });
  const wanted = new Set<DataModule>();
  for (const target of options.targets) {
    if (target === 'all') dataModuleNames.forEach((name) => wanted.add(name));
    else if (Object.hasOwn(dataModules, target)) wanted.add(target as DataModule);
    else {
      throw new TargetError(
        `"${target}" has no database to migrate; migrate takes all, ${dataModuleNames.join(', ')}`,
      );
    }
  }
  const dataDir = path.resolve(env.NOTED_DATA_DIR);
  const chosen = dataModuleNames.filter((module) => wanted.has(module));
  const databases = await Promise.all(chosen.map((name) => dataModules[name](env)));
  if (options.requireUrl) {
    const missing = chosen.filter((_, i) => !databases[i]?.url);
    if (missing.length > 0) {
      const names = missing.map((name) => `${name.toUpperCase()}_DATABASE_URL`).join(', ');
      throw new ConfigError(`DATABASE_URL or ${names}: required by migrate --require-database-url`);
    }
  }
  const migrated: DataModule[] = [];
  for (const [i, name] of chosen.entries()) {
    const { url, migrations } = databases[i]!;
    const db = await openDatabase({
      url,
      dataDir: `${dataDir}/${name}`,
      schema: name,
      migrations,
      logger: logger.child({ module: name }),
      pglite: { sharedBuffersMb: env.NOTED_PGLITE_SHARED_BUFFERS_MB },
    });
    try {
      await db.migrate();
    } finally {
      await db.close();
    }
    logger.info({ module: name, dialect: db.dialect }, 'database migrated');
    migrated.push(name);
  }
  logger.info({ modules: migrated }, 'migrations done');
  return migrated;
};
