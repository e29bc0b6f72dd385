import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '@noted/kit';
import { openDatabase } from '@noted/db';
import { aiMigrations } from '@noted/ai';
import { notesMigrations } from '@noted/notes';
import { usersMigrations } from '@noted/users';
import { billingMigrations } from '@noted/billing';
import { exportMigrations } from '@noted/export';
import { runMigrate } from './migrate.js';
import { infraLabel, testInfra } from './test/app.js';

const logger = createLogger({ level: 'silent' });
const migrationsOf = {
  users: usersMigrations,
  notes: notesMigrations,
  ai: aiMigrations,
  billing: billingMigrations,
  export: exportMigrations,
};

const environment = () => ({
  NOTED_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'noted-migrate-')),
  ...(testInfra.databaseUrl ? { DATABASE_URL: testInfra.databaseUrl } : {}),
});

/** The migrations recorded as run in a module's schema. */
const recorded = async (env: Record<string, string>, name: keyof typeof migrationsOf) => {
  const db = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: `${env.NOTED_DATA_DIR}/${name}`,
    schema: name,
    migrations: [],
    logger,
  });
  try {
    const rows: { name: string }[] = await db.knex
      .withSchema(name)
      .table('knex_migrations')
      .select('name');
    return rows.map((row) => row.name).sort();
  } finally {
    await db.close();
  }
};

describe(`noted migrate (${infraLabel})`, () => {
  it('runs the migrations of the modules it is given, and a second run changes nothing', async () => {
    const env = environment();
    expect(await runMigrate({ env, targets: ['notes'], logger })).toEqual(['notes']);
    const names = notesMigrations.map((migration) => migration.name).sort();
    expect(await recorded(env, 'notes')).toEqual(names);
    expect(await runMigrate({ env, targets: ['notes'], logger })).toEqual(['notes']);
    expect(await recorded(env, 'notes')).toEqual(names);
  }, 120_000);

  it('refuses a target without a database before opening any', async () => {
    await expect(
      runMigrate({ env: environment(), targets: ['users', 'gateway'], logger }),
    ).rejects.toThrow(/"gateway" has no database to migrate/);
  });

  it('with requireUrl, refuses a module without a database URL instead of migrating PGlite', async () => {
    const env = { NOTED_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'noted-migrate-')) };
    await expect(
      runMigrate({ env, targets: ['users', 'notes'], requireUrl: true, logger }),
    ).rejects.toThrow(/USERS_DATABASE_URL, NOTES_DATABASE_URL/);
    const withUrl = { ...env, NOTES_DATABASE_URL: 'postgres://noted@127.0.0.1:1/noted' };
    await expect(
      runMigrate({ env: withUrl, targets: ['users', 'notes'], requireUrl: true, logger }),
    ).rejects.toThrow(/USERS_DATABASE_URL:/);
  });

  // PGlite takes seconds per database to create; every module is covered against Postgres.
  it.runIf(testInfra.databaseUrl)(
    'migrates every module that owns a database, replicas at once taking turns on the lock',
    async () => {
      const env = environment();
      const runs = await Promise.all(
        [1, 2, 3].map(() => runMigrate({ env, targets: ['all'], logger })),
      );
      expect(runs).toEqual([1, 2, 3].map(() => ['users', 'notes', 'ai', 'billing', 'export']));
      for (const [name, migrations] of Object.entries(migrationsOf)) {
        expect(await recorded(env, name as keyof typeof migrationsOf)).toEqual(
          migrations.map((migration) => migration.name).sort(),
        );
      }
    },
    120_000,
  );
});
