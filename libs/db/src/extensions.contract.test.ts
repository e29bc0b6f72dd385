import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@noted/kit';
import { infraUrl } from '@noted/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Migration } from './database.js';

const logger = createLogger({ level: 'silent' });
const databaseUrl = infraUrl('PostgreSQL', 'TEST_DATABASE_URL');
const schema = `extensions_${randomUUID().slice(0, 8)}`;

const wordsMigration: Migration = {
  name: '0001_words',
  extensions: ['pg_trgm'],
  async up(knex) {
    await knex.raw('create extension if not exists pg_trgm with schema public');
    await knex.schema.createTable('words', (table) => table.text('word').primary());
    await knex.raw('create index words_trgm on words using gin (word gin_trgm_ops)');
  },
};

describe.each([
  { name: 'pglite', url: undefined, skip: false },
  { name: 'postgres', url: databaseUrl, skip: !databaseUrl },
])('database extensions: $name', ({ url, skip }) => {
  describe.skipIf(skip)('pg_trgm', () => {
    let dataDir: string;
    let db: Database;

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'noted-db-extensions-'));
      db = await openDatabase({ url, dataDir, schema, migrations: [wordsMigration], logger });
      await db.migrate();
    });

    afterAll(async () => {
      if (url) await db?.knex.raw('drop schema if exists ?? cascade', [schema]);
      await db?.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('is loaded for a migration that declares it, and finds words alike', async () => {
      await db.knex('words').insert([{ word: 'meeting' }, { word: 'garden' }]);
      const rows = await db
        .knex('words')
        .select('word')
        .whereRaw('word % ?', ['meetng'])
        .orderByRaw('similarity(word, ?) desc', ['meetng']);
      expect(rows).toEqual([{ word: 'meeting' }]);
    });
  });
});
