import { mkdtemp, rm } from 'node:fs/promises';
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
