import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@noted/kit';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { DEFAULT_PGLITE_SHARED_BUFFERS_MB } from './pglite.js';

const logger = createLogger({ level: 'silent' });
const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const sharedBuffersOf = async (dataDir: string, sharedBuffersMb?: number) => {
  const db = await openDatabase({
    dataDir,
    schema: 'settings',
    migrations: [],
    logger,
    ...(sharedBuffersMb ? { pglite: { sharedBuffersMb } } : {}),
  });
  try {
    const { rows } = await db.knex.raw('show shared_buffers');
    return rows[0].shared_buffers as string;
  } finally {
    await db.close();
  }
};

describe('PGlite memory settings', () => {
  it('makes a new database with the configured shared_buffers, and applies them at every start', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'noted-db-pglite-'));
    dirs.push(dataDir);
    expect(await sharedBuffersOf(dataDir, 8)).toBe('8MB');
    // initdb wrote 8 MB into the database's postgresql.conf; each start sets its own.
    expect(await sharedBuffersOf(dataDir)).toBe(`${DEFAULT_PGLITE_SHARED_BUFFERS_MB}MB`);
    expect(await sharedBuffersOf(dataDir, 32)).toBe('32MB');
  }, 60_000);
});

describe('PGlite databases made from a template (NOTED_PGLITE_TEMPLATE_DIR, the test runs)', () => {
  it('runs initdb once and gives each database its own copy', async () => {
    const root = await mkdtemp(join(tmpdir(), 'noted-db-template-'));
    dirs.push(root);
    const before = process.env.NOTED_PGLITE_TEMPLATE_DIR;
    process.env.NOTED_PGLITE_TEMPLATE_DIR = join(root, 'templates');
    try {
      const open = (name: string) =>
        openDatabase({ dataDir: join(root, name), schema: 'copies', migrations: [], logger });
      // Two at once: one template is kept, neither sees it half made.
      const [a, b] = await Promise.all([open('a'), open('b')]);
      await a.knex.raw('create table only_here (id int)');
      const inB = await b.knex.raw("select to_regclass('copies.only_here') as found");
      expect(inB.rows[0].found).toBeNull();
      await Promise.all([a.close(), b.close()]);
      expect((await readdir(join(root, 'templates'))).sort()).toEqual([
        `initdb-${DEFAULT_PGLITE_SHARED_BUFFERS_MB}mb`,
      ]);
    } finally {
      if (before === undefined) delete process.env.NOTED_PGLITE_TEMPLATE_DIR;
      else process.env.NOTED_PGLITE_TEMPLATE_DIR = before;
    }
  }, 60_000);
});
