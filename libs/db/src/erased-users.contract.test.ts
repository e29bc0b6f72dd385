import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@noted/kit';
import { infraUrl } from '@noted/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Migration } from './database.js';
import { erasedUsers, erasedUsersMigrations } from './erase.js';

const logger = createLogger({ level: 'silent' });
const databaseUrl = infraUrl('PostgreSQL', 'TEST_DATABASE_URL');

/** A user's rows, as an event consumer writes them. */
const rowsMigration: Migration = {
  name: '0001_rows',
  async up(knex) {
    await knex.schema.createTable('rows', (table) => {
      table.increments('id');
      table.text('user_id').notNullable();
    });
  },
};
const migrations = [...erasedUsersMigrations, rowsMigration];

const adapters = [
  {
    name: 'pglite',
    skip: false,
    open: async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'noted-erased-users-'));
      const db = await openDatabase({ dataDir, schema: 'erased', migrations, logger });
      return { db, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'postgres',
    skip: !databaseUrl,
    open: async () => {
      const schema = `erased_${randomUUID().slice(0, 8)}`;
      const db = await openDatabase({
        url: databaseUrl,
        dataDir: '/nonexistent',
        schema,
        migrations,
        logger,
      });
      return {
        db,
        cleanup: async () => {
          await db.knex.raw('drop schema if exists ?? cascade', [schema]);
        },
      };
    },
  },
];

/** Whether a promise is still pending after `ms`. */
const pendingAfter = async (promise: Promise<unknown>, ms: number) =>
  Promise.race([
    promise.then(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(true), ms)),
  ]);

describe.each(adapters)('erased users: $name', (adapter) => {
  describe.skipIf(adapter.skip)(
    adapter.skip ? 'skipped: TEST_DATABASE_URL is not set' : 'behaviour',
    () => {
      let db: Database;
      let cleanup: () => Promise<void>;

      beforeAll(async () => {
        ({ db, cleanup } = await adapter.open());
        await db.migrate();
      });

      afterAll(async () => {
        await cleanup?.();
        await db?.close();
      });

      it('knows the users erased here, once each, until they are pruned', async () => {
        const [gone, kept] = [randomUUID(), randomUUID()];
        await erasedUsers.record(db.knex, gone);
        // A second delivery of user.deleted records nothing more.
        await erasedUsers.record(db.knex, gone);
        expect(await db.knex('erased_users').where({ user_id: gone })).toHaveLength(1);
        expect(await erasedUsers.peek(db.knex, [gone, kept, gone])).toEqual(new Set([gone]));
        expect(await db.knex.transaction((trx) => erasedUsers.among(trx, [kept, gone]))).toEqual(
          new Set([gone]),
        );
        expect(await erasedUsers.prune(db.knex, new Date(Date.now() - 60_000))).toBe(0);
        expect(await erasedUsers.prune(db.knex, new Date(Date.now() + 60_000))).toBeGreaterThan(0);
        expect(await erasedUsers.peek(db.knex, [gone])).toEqual(new Set());
      });

      it('waits for a writer of the user in flight, and refuses the writers that come after', async () => {
        const user = randomUUID();
        const writer = await db.knex.transaction();
        expect(await erasedUsers.among(writer, [user])).toEqual(new Set());
        const recording = erasedUsers.record(db.knex, user);
        // The erasure does not begin while a write of the user's rows is under way ...
        expect(await pendingAfter(recording, 300)).toBe(true);
        await writer('rows').insert({ user_id: user });
        await writer.commit();
        // ... so that it finds that row to delete, and every later writer sees the record.
        await recording;
        expect(await db.knex('rows').where({ user_id: user })).toHaveLength(1);
        const late = await db.knex.transaction((trx) => erasedUsers.among(trx, [user]));
        expect(late).toEqual(new Set([user]));
      });
    },
  );
});
