import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { PGlite, Extension } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import type { Logger } from '@noted/kit';
import knex, { type Knex } from 'knex';
import { DEFAULT_PGLITE_SHARED_BUFFERS_MB, openPglite, type PgliteSettings } from './pglite.js';

/** Postgres extensions a migration may create; PGlite must load their modules when it opens. */
export type DatabaseExtension = 'pg_trgm';

const pgliteExtensions = {
  pg_trgm: async () => (await import('@electric-sql/pglite/contrib/pg_trgm')).pg_trgm,
} satisfies Record<DatabaseExtension, () => Promise<Extension>>;

/** A schema change, written as code so it runs from compiled output with no file lookup. */
export interface Migration {
  /** Unique and stable: recorded in the service's `knex_migrations` table once run. */
  name: string;
  /** Extensions `up` creates (`create extension if not exists ...`). */
  extensions?: DatabaseExtension[];
  up(knex: Knex): Promise<void>;
  down?(knex: Knex): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://...`; without it an embedded PGlite database lives in `dataDir`. */
  url?: string;
  /** PGlite's data directory, one per service (created if missing). Unused with `url`. */
  dataDir: string;
  /** The service's schema: its tables and its migration records live there. */
  schema: string;
  migrations: Migration[];
  logger: Logger;
  /** Postgres connections at most. Default 10 (PGlite always has one). */
  poolMax?: number;
  /** PGlite's memory settings; unused with `url`. */
  pglite?: Partial<PgliteSettings>;
}

export interface Database {
  knex: Knex;
  dialect: 'postgres' | 'pglite';
  schema: string;
  /** Runs the migrations not run yet, one replica at a time. */
  migrate(): Promise<void>;
  /** True when a trivial query answers within 2 s. */
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const lockedHere = new Set<string>();

/** PGlite does not lock its directory, and two instances on one directory corrupt it. */
const lockDataDir = async (dataDir: string): Promise<() => Promise<void>> => {
  if (lockedHere.has(dataDir)) {
    throw new Error(`database directory ${dataDir} is already open in this process`);
  }
  const lockFile = join(dataDir, 'noted.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lockFile, String(process.pid), { flag: 'wx' });
      lockedHere.add(dataDir);
      return async () => {
        lockedHere.delete(dataDir);
        await rm(lockFile, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number((await readFile(lockFile, 'utf8').catch(() => '')).trim());
      // Our own pid in the file is a leftover of a crash (containers reuse pids, often 1).
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isRunning(holder)) {
        throw new Error(`database directory ${dataDir} is already open in process ${holder}`);
      }
      await rm(lockFile, { force: true });
    }
  }
  throw new Error(`could not lock database directory ${dataDir}`);
};

const schemaPattern = /^[a-z_][a-z0-9_]{0,62}$/;

const migrationSource = (migrations: Migration[]): Knex.MigrationSource<Migration> => ({
  getMigrations: async () => migrations,
  getMigrationName: (migration) => migration.name,
  getMigration: async (migration) => ({
    up: (k: Knex) => migration.up(k),
    down: (k: Knex) => (migration.down ? migration.down(k) : Promise.resolve()),
  }),
});

const assertUniqueNames = (migrations: Migration[]) => {
  const names = new Set<string>();
  for (const { name } of migrations) {
    if (names.has(name)) throw new Error(`migration ${name} is listed twice`);
    names.add(name);
  }
};

/**
 * Opens the service's database: Postgres over `pg` when a URL is given, else PGlite through
 * PGlite's node-postgres adapter, so both speak through the same `pg` driver and parse types
 * alike (bytea as Buffer, int8 and numeric as strings). The schema is created if missing and
 * is first on the search path.
 *
 * PGlite has a single connection: knex's pool (size 1) queues callers, so concurrent
 * transactions run one after another. Inside a transaction, use the transaction object for
 * every query; a query on the outer `knex` would wait for the connection the transaction holds.
 */
export const openDatabase = async (options: DatabaseOptions): Promise<Database> => {
  const { schema } = options;
  if (!schemaPattern.test(schema)) throw new Error(`invalid schema name ${JSON.stringify(schema)}`);
  assertUniqueNames(options.migrations);
  const logger = options.logger.child({ component: 'database', schema });
  const searchPath = [schema, 'public'];

  let pglite: PGlite | undefined;
  let unlock: (() => Promise<void>) | undefined;
  let db: Knex;
  if (options.url) {
    db = knex({
      client: 'pg',
      connection: { connectionString: options.url, application_name: schema },
      searchPath,
      // Migrations hold a lock on one connection while running on another: at least two.
      pool: { min: 0, max: Math.max(2, options.poolMax ?? 10) },
      acquireConnectionTimeout: 10_000,
    });
  } else {
    const dataDir = resolve(options.dataDir);
    await mkdir(dataDir, { recursive: true });
    unlock = await lockDataDir(dataDir);
    try {
      const wanted = [...new Set(options.migrations.flatMap((m) => m.extensions ?? []))];
      const extensions = Object.fromEntries(
        await Promise.all(
          wanted.map(async (name) => [name, await pgliteExtensions[name]()] as const),
        ),
      );
      pglite = await openPglite(dataDir, {
        extensions,
        settings: {
          sharedBuffersMb: options.pglite?.sharedBuffersMb ?? DEFAULT_PGLITE_SHARED_BUFFERS_MB,
        },
      });
    } catch (error) {
      await unlock();
      throw error;
    }
    const { connection, user, database, host, port, password } = createPgConfig(pglite);
    const settings: Knex.PgConnectionConfig & { connection: unknown } = {
      connection,
      user,
      database,
      host,
      port,
      password,
    };
    db = knex({
      client: 'pg',
      connection: settings,
      searchPath,
      pool: { min: 1, max: 1 },
      acquireConnectionTimeout: 60_000,
    });
  }
  const dialect = pglite ? 'pglite' : 'postgres';

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await db.destroy();
    await pglite?.close();
    await unlock?.();
  };

  // Replicas starting together take turns; the lock is released when the transaction ends.
  const withMigrationLock = async (work: () => Promise<void>) => {
    if (dialect === 'pglite') return work();
    await db.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`noted:migrate:${schema}`]);
      await work();
    });
  };

  try {
    await withMigrationLock(async () => {
      await db.raw('create schema if not exists ??', [schema]);
    });
  } catch (error) {
    await close();
    throw error;
  }
  logger.info({ dialect }, 'database open');

  return {
    knex: db,
    dialect,
    schema,
    async migrate() {
      await withMigrationLock(async () => {
        // A database migrated by a newer version stays usable by this one: during a rolling
        // upgrade the pods not yet replaced restart on it, and a rollback returns to it.
        // Migrations are written for that (expand first, contract a release later).
        const [, ran] = (await db.migrate.latest({
          migrationSource: migrationSource(options.migrations),
          schemaName: schema,
          tableName: 'knex_migrations',
          disableMigrationsListValidation: true,
        })) as [number, string[]];
        if (ran.length > 0) logger.info({ migrations: ran }, 'migrations applied');
      });
    },
    async healthy() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), 2000);
      });
      try {
        return await Promise.race([db.raw('select 1').then(() => true), timeout]);
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    close,
  };
};
