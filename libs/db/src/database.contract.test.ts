import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryBus, type BusMessage, type EventBus } from '@noted/events';
import { createLogger } from '@noted/kit';
import { infraUrl } from '@noted/testing';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Migration } from './database.js';
import {
  enqueueEvent,
  outboxMigrations,
  outboxPending,
  startOutboxRelay,
  writeWithEvent,
  type OutboxEvent,
} from './outbox.js';
import { processOnce, processedEventsMigrations } from './processed.js';
import { createUnitOfWork, type EventTransaction } from './unit-of-work.js';

const logger = createLogger({ level: 'silent' });
const databaseUrl = infraUrl('PostgreSQL', 'TEST_DATABASE_URL');
const run = randomUUID().slice(0, 8);

const waitFor = async (condition: () => boolean | Promise<boolean>, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let thingsMigrationRuns = 0;
const thingsMigration: Migration = {
  name: '0001_things',
  async up(knex) {
    thingsMigrationRuns += 1;
    await knex.schema.createTable('things', (table) => {
      table.text('name').primary();
      table.integer('count').notNullable().defaultTo(0);
    });
  },
  async down(knex) {
    await knex.schema.dropTable('things');
  },
};
const migrations = [...outboxMigrations, ...processedEventsMigrations, thingsMigration];

interface Adapter {
  name: 'pglite' | 'postgres';
  skip: boolean;
  /** `open` opens with the given migrations (all of them by default): code of another version. */
  setup(): Promise<{
    open(list?: Migration[]): Promise<Database>;
    cleanup(): Promise<void>;
    dataDir?: string;
  }>;
}

const adapters: Adapter[] = [
  {
    name: 'pglite',
    skip: false,
    async setup() {
      const dataDir = await mkdtemp(join(tmpdir(), 'noted-db-contract-'));
      return {
        dataDir,
        open: (list = migrations) =>
          openDatabase({ dataDir, schema: 'contract', migrations: list, logger }),
        cleanup: () => rm(dataDir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'postgres',
    skip: !databaseUrl,
    async setup() {
      const schema = `contract_${run}`;
      const open = (list = migrations) =>
        openDatabase({
          url: databaseUrl,
          dataDir: '/nonexistent',
          schema,
          migrations: list,
          logger,
        });
      return {
        open,
        async cleanup() {
          const db = await open();
          await db.knex.raw('drop schema if exists ?? cascade', [schema]);
          await db.close();
        },
      };
    },
  },
];

describe.each(adapters)('database contract: $name', (adapter) => {
  describe.skipIf(adapter.skip)(
    adapter.skip ? 'skipped: TEST_DATABASE_URL is not set' : 'behaviour',
    () => {
      let harness: Awaited<ReturnType<Adapter['setup']>>;
      let db: Database;

      beforeAll(async () => {
        thingsMigrationRuns = 0;
        harness = await adapter.setup();
        db = await harness.open();
        await db.migrate();
      });

      afterAll(async () => {
        await db?.close();
        await harness?.cleanup();
      });

      it('runs each migration once, in the service schema, also across re-opens', async () => {
        expect(db.dialect).toBe(adapter.name);
        await db.migrate();
        expect(thingsMigrationRuns).toBe(1);
        const recorded = await db.knex
          .withSchema(db.schema)
          .table('knex_migrations')
          .orderBy('id')
          .pluck('name');
        expect(recorded).toEqual([
          '0000_noted_outbox',
          '0000_noted_processed_events',
          '0001_things',
        ]);
        // Unqualified names resolve to the service schema, where the migrations put the tables.
        const tables = await db
          .knex('information_schema.tables')
          .where('table_schema', db.schema)
          .orderBy('table_name')
          .pluck('table_name');
        expect(tables).toEqual([
          'knex_migrations',
          'knex_migrations_lock',
          'outbox',
          'processed_events',
          'things',
        ]);
        const { rows } = await db.knex.raw('select current_schema() as schema');
        expect(rows[0].schema).toBe(db.schema);

        await db.close();
        db = await harness.open();
        await db.migrate();
        expect(thingsMigrationRuns).toBe(1);
      });

      it('lets the previous version start on a database migrated further (a rolling upgrade, a rollback)', async () => {
        await db.close();
        const previous = await harness.open(migrations.filter((m) => m !== thingsMigration));
        try {
          await expect(previous.migrate()).resolves.toBeUndefined();
          expect(await previous.knex('things').count({ n: '*' })).toBeDefined();
        } finally {
          await previous.close();
          db = await harness.open();
        }
        await db.migrate();
        expect(thingsMigrationRuns).toBe(1);
      });

      it('keeps committed data across close and re-open', async () => {
        await db.knex('things').insert({ name: 'kept', count: 7 });
        await db.close();
        db = await harness.open();
        expect(await db.knex('things').where({ name: 'kept' }).first()).toEqual({
          name: 'kept',
          count: 7,
        });
      });

      it('leaves nothing behind when a transaction rolls back', async () => {
        await expect(
          db.knex.transaction(async (trx) => {
            await trx('things').insert({ name: 'rolled-back' });
            throw new Error('abort');
          }),
        ).rejects.toThrow('abort');
        expect(await db.knex('things').where({ name: 'rolled-back' }).first()).toBeUndefined();
      });

      it('runs 20 concurrent read-modify-write transactions without losing an update', async () => {
        await db.knex('things').insert({ name: 'counter', count: 0 });
        await Promise.all(
          Array.from({ length: 20 }, () =>
            db.knex.transaction(async (trx) => {
              const row = await trx('things').where({ name: 'counter' }).forUpdate().first();
              await settle(5);
              await trx('things')
                .where({ name: 'counter' })
                .update({ count: Number(row.count) + 1 });
            }),
          ),
        );
        expect((await db.knex('things').where({ name: 'counter' }).first()).count).toBe(20);
      });

      it('records a processed event once per consumer', async () => {
        const eventId = randomUUID();
        expect(await db.knex.transaction((trx) => processOnce(trx, 'indexer', eventId))).toBe(true);
        expect(await db.knex.transaction((trx) => processOnce(trx, 'indexer', eventId))).toBe(
          false,
        );
        expect(await db.knex.transaction((trx) => processOnce(trx, 'notifier', eventId))).toBe(
          true,
        );
      });

      it('reports health, and no health once closed', async () => {
        expect(await db.healthy()).toBe(true);
        await db.close();
        expect(await db.healthy()).toBe(false);
        db = await harness.open();
        expect(await db.healthy()).toBe(true);
      });

      describe('outbox', () => {
        const subject = `noted.contract.v1.thing.changed`;
        const bytes = (text: string) => new TextEncoder().encode(text);

        const listen = async (bus: EventBus) => {
          const seen: BusMessage[] = [];
          await bus.subscribe({
            durable: `outbox-${randomUUID()}`,
            subject,
            handler: async (m) => void seen.push(m),
          });
          return seen;
        };
        // Written as a service writes, through a unit of work; these tests kick their relays.
        const inTransaction = <T>(work: (trx: EventTransaction) => Promise<T>) =>
          createUnitOfWork(db.knex, () => {})(work);
        const written = <Row>(write: Knex.QueryBuilder | Knex.Raw, event: OutboxEvent) =>
          createUnitOfWork(db.knex, () => {}).statement((knex) =>
            writeWithEvent<Row>(knex, write, event),
          );
        const publishedAt = async (id: string) =>
          (await db.knex('outbox').where({ id }).first())?.published_at as Date | null | undefined;

        it('publishes nothing for a rolled-back transaction', async () => {
          const bus = createMemoryBus({ service: 'contract', logger });
          const seen = await listen(bus);
          const relay = startOutboxRelay({ db, bus, service: 'contract', logger, pollMs: 50 });
          const id = randomUUID();
          await expect(
            inTransaction(async (trx) => {
              await enqueueEvent(trx, { id, subject, data: bytes('never') });
              throw new Error('abort');
            }),
          ).rejects.toThrow('abort');
          relay.kick();
          await settle(300);
          await relay.stop();
          await bus.close();
          expect(seen).toEqual([]);
          expect(await db.knex('outbox').where({ id }).first()).toBeUndefined();
        });

        it('publishes a committed event once, with its id and headers, and marks it', async () => {
          const bus = createMemoryBus({ service: 'contract', logger });
          const seen = await listen(bus);
          const relay = startOutboxRelay({ db, bus, service: 'contract', logger, pollMs: 50 });
          const id = randomUUID();
          await inTransaction(async (trx) => {
            await trx('things').insert({ name: `thing-${id}` });
            await enqueueEvent(trx, {
              id,
              subject,
              data: bytes('payload'),
              headers: { 'x-request-id': 'r1' },
            });
          });
          relay.kick();
          await waitFor(() => seen.length === 1);
          await waitFor(async () => (await publishedAt(id)) instanceof Date);
          await settle(300);
          await relay.stop();
          await bus.close();
          expect(seen).toHaveLength(1);
          expect(seen[0]).toMatchObject({ id, subject, headers: { 'x-request-id': 'r1' } });
          expect(new TextDecoder().decode(seen[0]!.data)).toBe('payload');
        });

        it('publishes events kicked in quick succession together, in one transaction', async () => {
          const bus = createMemoryBus({ service: 'contract', logger });
          const seen = await listen(bus);
          const relay = startOutboxRelay({
            db,
            bus,
            service: 'contract',
            logger,
            pollMs: 60_000,
            kickIntervalMs: 300,
          });
          const ids = Array.from({ length: 5 }, () => randomUUID());
          for (const id of ids) {
            await inTransaction((trx) => enqueueEvent(trx, { id, subject, data: bytes(id) }));
            relay.kick();
          }
          await waitFor(() => seen.length === ids.length);
          await relay.stop();
          await bus.close();
          expect(seen.map((m) => m.id)).toEqual(ids);
          // One UPDATE marks a batch, and now() is the time its transaction started.
          const marks = await db.knex('outbox').whereIn('id', ids).distinct('published_at');
          expect(marks).toHaveLength(1);
        });

        it('writes a row and its event in one statement, or neither', async () => {
          const id = randomUUID();
          const name = `single-${id}`;
          const rows = await written<{ name: string; count: number }>(
            db.knex('things').insert({ name, count: 3 }).returning(['name', 'count']),
            { id, subject, data: bytes('written') },
          );
          expect(rows).toEqual([{ name, count: 3 }]);
          expect(await db.knex('outbox').where({ id }).first()).toMatchObject({ subject });

          // The same name again breaks the primary key: the event is not recorded either.
          const second = randomUUID();
          await expect(
            written(db.knex('things').insert({ name }).returning('name'), {
              id: second,
              subject,
              data: bytes('never'),
            }),
          ).rejects.toThrow();
          expect(await db.knex('outbox').where({ id: second }).first()).toBeUndefined();
          // Left pending, it would be published first by the next test's relay.
          await db.knex('outbox').where({ id }).delete();
        });

        it('records no event when the write writes no row', async () => {
          const id = randomUUID();
          const rows = await written(
            db
              .knex('things')
              .where({ name: `missing-${id}` })
              .update({ count: 1 })
              .returning('name'),
            { id, subject, data: bytes('nothing') },
          );
          expect(rows).toEqual([]);
          expect(await db.knex('outbox').where({ id }).first()).toBeUndefined();

          const guarded = randomUUID();
          const name = `guarded-${guarded}`;
          const insertUnlessTaken = (taken: string) =>
            db.knex.raw(
              `insert into things (name) select ? where not exists
                 (select 1 from things where name = ?) returning name`,
              [name, taken],
            );
          expect(
            await written(insertUnlessTaken(name), {
              id: guarded,
              subject,
              data: bytes('guarded'),
            }),
          ).toEqual([{ name }]);
          const refused = randomUUID();
          expect(
            await written(insertUnlessTaken(name), {
              id: refused,
              subject,
              data: bytes('refused'),
            }),
          ).toEqual([]);
          expect(await db.knex('outbox').where({ id: guarded }).first()).toMatchObject({ subject });
          expect(await db.knex('outbox').where({ id: refused }).first()).toBeUndefined();
          await db.knex('outbox').where({ id: guarded }).delete();
        });

        it('wakes the relay when a unit of work commits, and not when it fails', async () => {
          const bus = createMemoryBus({ service: 'contract', logger });
          const seen = await listen(bus);
          const relay = startOutboxRelay({ db, bus, service: 'contract', logger, pollMs: 60_000 });
          await settle(200);
          let wakes = 0;
          const unitOfWork = createUnitOfWork(db.knex, () => {
            wakes += 1;
            relay.kick();
          });
          await expect(
            unitOfWork(async (trx) => {
              await enqueueEvent(trx, { id: randomUUID(), subject, data: bytes('never') });
              throw new Error('abort');
            }),
          ).rejects.toThrow('abort');
          expect(wakes).toBe(0);
          const id = randomUUID();
          await unitOfWork((trx) => enqueueEvent(trx, { id, subject, data: bytes('committed') }));
          expect(wakes).toBe(1);
          await waitFor(() => seen.length === 1);
          const single = randomUUID();
          await unitOfWork.statement((knex) =>
            writeWithEvent(
              knex,
              knex('things')
                .insert({ name: `uow-${single}` })
                .returning('name'),
              {
                id: single,
                subject,
                data: bytes('one statement'),
              },
            ),
          );
          expect(wakes).toBe(2);
          await waitFor(() => seen.length === 2);
          await relay.stop();
          await bus.close();
          expect(seen.map((m) => m.id)).toEqual([id, single]);
        });

        it('publishes events in commit order', async () => {
          const bus = createMemoryBus({ service: 'contract', logger });
          const seen = await listen(bus);
          const ids = Array.from({ length: 5 }, () => randomUUID());
          for (const id of ids) {
            await inTransaction((trx) => enqueueEvent(trx, { id, subject, data: bytes(id) }));
          }
          const relay = startOutboxRelay({
            db,
            bus,
            service: 'contract',
            logger,
            pollMs: 50,
            batch: 2,
          });
          await waitFor(() => seen.length === ids.length);
          await relay.stop();
          await bus.close();
          expect(seen.map((m) => m.id)).toEqual(ids);
        });

        it('shares the work between relays of several replicas, publishing each event once', async () => {
          const bus = createMemoryBus({ service: 'contract', logger });
          const seen = await listen(bus);
          const sent: string[] = [];
          const countingBus: EventBus = {
            publish: async (s, data, options) => {
              sent.push(options.id);
              await bus.publish(s, data, options);
            },
            subscribe: (options) => bus.subscribe(options),
            listen: (options) => bus.listen(options),
            healthy: () => bus.healthy(),
            close: async () => undefined,
          };
          const ids = Array.from({ length: 40 }, () => randomUUID());
          await inTransaction(async (trx) => {
            for (const id of ids) await enqueueEvent(trx, { id, subject, data: bytes(id) });
          });
          const relays = [1, 2, 3].map(() =>
            startOutboxRelay({
              db,
              bus: countingBus,
              service: 'contract',
              logger,
              pollMs: 20,
              batch: 5,
            }),
          );
          await waitFor(() => seen.length === ids.length);
          await settle(200);
          await Promise.all(relays.map((relay) => relay.stop()));
          await bus.close();
          expect([...sent].sort()).toEqual([...ids].sort());
        });

        it('keeps retrying while the bus is down and publishes once it is back', async () => {
          const bus = createMemoryBus({ service: 'contract', logger });
          const seen = await listen(bus);
          let outages = 3;
          const flakyBus: EventBus = {
            publish: async (s, data, options) => {
              if (outages > 0) {
                outages -= 1;
                throw new Error('bus unavailable');
              }
              await bus.publish(s, data, options);
            },
            subscribe: (options) => bus.subscribe(options),
            listen: (options) => bus.listen(options),
            healthy: () => outages === 0,
            close: async () => undefined,
          };
          const id = randomUUID();
          await inTransaction((trx) => enqueueEvent(trx, { id, subject, data: bytes('late') }));
          const relay = startOutboxRelay({
            db,
            bus: flakyBus,
            service: 'contract',
            logger,
            pollMs: 20,
          });
          await waitFor(async () => (await publishedAt(id)) instanceof Date);
          await waitFor(() => seen.length === 1);
          await relay.stop();
          await bus.close();
          expect(outages).toBe(0);
          expect(seen.map((m) => m.id)).toEqual([id]);
        });

        it('reports the events not yet published as noted_outbox_pending_events, per service', async () => {
          const bus = createMemoryBus({ service: 'contract', logger });
          let down = true;
          const downBus: EventBus = {
            publish: async (s, data, options) => {
              if (down) throw new Error('bus unavailable');
              await bus.publish(s, data, options);
            },
            subscribe: (options) => bus.subscribe(options),
            listen: (options) => bus.listen(options),
            healthy: () => !down,
            close: async () => undefined,
          };
          const service = `backlog-${randomUUID().slice(0, 8)}`;
          const pending = async () =>
            (await outboxPending.get()).values.find((v) => v.labels.service === service)?.value;
          const before = Number(
            (await db.knex('outbox').whereNull('published_at').count({ n: '*' }).first())?.n,
          );
          const ids = [randomUUID(), randomUUID()];
          for (const id of ids) {
            await inTransaction((trx) => enqueueEvent(trx, { id, subject, data: bytes('waits') }));
          }
          const relay = startOutboxRelay({ db, bus: downBus, service, logger, pollMs: 20 });
          expect(await pending()).toBe(before + 2);
          down = false;
          await waitFor(async () => (await publishedAt(ids[1]!)) instanceof Date);
          expect(await pending()).toBe(0);
          await relay.stop();
          expect(await pending()).toBeUndefined();
          await bus.close();
        });

        it('re-publishes the same id after a crash between publish and mark, and the bus de-duplicates it', async () => {
          const bus = createMemoryBus({ service: 'contract', logger });
          const seen = await listen(bus);
          const sent: string[] = [];
          const crashingBus: EventBus = {
            publish: async (s, data, options) => {
              sent.push(options.id);
              await bus.publish(s, data, options);
              throw new Error('process died before marking');
            },
            subscribe: (options) => bus.subscribe(options),
            listen: (options) => bus.listen(options),
            healthy: () => bus.healthy(),
            close: async () => undefined,
          };
          const id = randomUUID();
          await inTransaction((trx) => enqueueEvent(trx, { id, subject, data: bytes('once') }));

          const crashed = startOutboxRelay({
            db,
            bus: crashingBus,
            service: 'contract',
            logger,
            pollMs: 50,
          });
          await waitFor(() => sent.length >= 1);
          await crashed.stop();
          expect(await publishedAt(id)).toBeNull();

          const countingBus: EventBus = {
            ...crashingBus,
            publish: async (s, data, options) => {
              sent.push(options.id);
              await bus.publish(s, data, options);
            },
          };
          const restarted = startOutboxRelay({
            db,
            bus: countingBus,
            service: 'contract',
            logger,
            pollMs: 50,
          });
          await waitFor(async () => (await publishedAt(id)) instanceof Date);
          await settle(300);
          await restarted.stop();
          await bus.close();
          expect(sent.filter((sentId) => sentId === id).length).toBeGreaterThanOrEqual(2);
          expect(seen.map((m) => m.id)).toEqual([id]);
        });
      });

      if (adapter.name === 'pglite') {
        it('refuses to open a data directory that is already open', async () => {
          await expect(harness.open()).rejects.toThrow(/already open in this process/);
          expect(await db.healthy()).toBe(true);
        });

        it('takes over a lock left behind by a crashed process', async () => {
          await db.close();
          await writeFile(join(harness.dataDir!, 'noted.lock'), String(process.pid));
          db = await harness.open();
          expect(await db.healthy()).toBe(true);
          await db.close();
          await writeFile(join(harness.dataDir!, 'noted.lock'), '999999999');
          db = await harness.open();
          expect(await db.healthy()).toBe(true);
        });
      }

      if (adapter.name === 'postgres') {
        it('lets replicas migrate at the same time, running each migration once', async () => {
          const schema = `contract_${run}_race`;
          let runs = 0;
          const racing: Migration[] = [
            {
              name: '0001_race',
              async up(knex) {
                runs += 1;
                await knex.schema.createTable('race', (table) => table.increments('id'));
              },
            },
          ];
          const replicas = await Promise.all(
            [1, 2, 3].map(() =>
              openDatabase({
                url: databaseUrl,
                dataDir: '/nonexistent',
                schema,
                migrations: racing,
                logger,
              }),
            ),
          );
          try {
            await Promise.all(replicas.map((replica) => replica.migrate()));
            expect(runs).toBe(1);
          } finally {
            await replicas[0]!.knex.raw('drop schema if exists ?? cascade', [schema]);
            await Promise.all(replicas.map((replica) => replica.close()));
          }
        });
      }
    },
  );
});
