import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@noted/db';
import { createLogger } from '@noted/kit';
import { infraUrl } from '@noted/testing';
import { aiMigrations } from '../migrations.js';
import { indexRepository } from './repository.js';

const databaseUrl = infraUrl('PostgreSQL', 'TEST_DATABASE_URL');

describe.runIf(databaseUrl)('AI index versions on Postgres', () => {
  let db: Database;

  beforeAll(async () => {
    db = await openDatabase({
      url: databaseUrl,
      dataDir: mkdtempSync(path.join(tmpdir(), 'noted-ai-versions-')),
      schema: 'ai_versions_test',
      migrations: aiMigrations,
      logger: createLogger({ level: 'silent' }),
    });
    await db.migrate();
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  const versionOf = (userId: string) => indexRepository.version(db.knex, userId);

  it('batches naming the same users in other orders wait for each other, never deadlock', async () => {
    const [first, second] = [randomUUID(), randomUUID()].sort() as [string, string];
    await db.knex.transaction((trx) => indexRepository.bumpVersions(trx, [first, second]));
    // One batch holds the first user's version, as a batch part-way through its bump does...
    const holding = await db.knex.transaction();
    await indexRepository.bumpVersions(holding, [first]);
    // ...while another batch names both users the other way round...
    const other = db.knex.transaction((trx) => indexRepository.bumpVersions(trx, [second, first]));
    // Its refusal, if any, is reported where it is awaited below.
    other.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // ...and the first batch then needs the second user's version: with the other batch
    // holding it, Postgres would abort one of them as a deadlock.
    await indexRepository.bumpVersions(holding, [second]);
    await holding.commit();
    const bumped = await other;
    expect(bumped.get(first)).toBe(3);
    expect(bumped.get(second)).toBe(3);
    expect([await versionOf(first), await versionOf(second)]).toEqual([3, 3]);
  });
});
