import { randomUUID } from 'node:crypto';
import { assertPublishSubject, type EventBus } from '@noted/events';
import { registry, type Logger } from '@noted/kit';
import type { Knex } from 'knex';
import { Gauge } from 'prom-client';
import type { Database, Migration } from './database.js';
import type { EventConnection, EventTransaction } from './unit-of-work.js';

/** Include in a service's migrations to use `enqueueEvent` and `startOutboxRelay`. */
export const outboxMigrations: Migration[] = [
  {
    name: '0000_noted_outbox',
    async up(knex) {
      await knex.schema.createTable('outbox', (table) => {
        table.uuid('id').primary();
        // Commit order is not id or created_at order; the relay publishes by seq.
        table.bigIncrements('seq', { primaryKey: false });
        table.text('subject').notNullable();
        table.binary('payload').notNullable();
        table.jsonb('headers').notNullable().defaultTo('{}');
        table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        table.timestamp('published_at', { useTz: true }).nullable();
      });
      await knex.raw('create index outbox_unpublished on outbox (seq) where published_at is null');
    },
    async down(knex) {
      await knex.schema.dropTable('outbox');
    },
  },
];

export interface OutboxEvent {
  /** The event id, published as the bus message id. */
  id: string;
  subject: string;
  data: Uint8Array;
  headers?: Record<string, string>;
}

/**
 * An event with a new id, for the outbox: `type` is its declaration in `@noted/proto` (the
 * subject and how to encode the payload), `fields` the payload's fields given that id, and
 * `headers` what a consumer may read without decoding it (the user it concerns).
 */
export const outboxEvent = <Fields>(
  type: { subject: string; encode: (fields: Fields) => Uint8Array },
  fields: (eventId: string) => NoInfer<Fields>,
  headers?: Record<string, string>,
): OutboxEvent => {
  const id = randomUUID();
  return {
    id,
    subject: type.subject,
    data: type.encode(fields(id)),
    ...(headers ? { headers } : {}),
  };
};

const outboxRow = (event: OutboxEvent) => {
  assertPublishSubject(event.subject);
  return {
    id: event.id,
    subject: event.subject,
    payload: Buffer.from(event.data.buffer, event.data.byteOffset, event.data.byteLength),
    headers: JSON.stringify(event.headers ?? {}),
  };
};

/** Records an event in the unit of work's transaction; it is published only if that commits. */
export const enqueueEvent = async (trx: EventTransaction, event: OutboxEvent): Promise<void> => {
  await trx('outbox').insert(outboxRow(event));
};

/**
 * Runs one write (an insert or update with RETURNING, built or raw) and records its event in a
 * single statement, which is atomic without a transaction: one round trip where a transaction
 * takes four. The event is recorded only when the write returned a row (a guarded insert or an
 * update that matched nothing records none). Answers what the write returned.
 */
export const writeWithEvent = async <Row>(
  knex: EventConnection,
  write: Knex.QueryBuilder | Knex.Raw,
  event: OutboxEvent,
): Promise<Row[]> => {
  const row = outboxRow(event);
  const rows: unknown = await knex
    .with('written', write)
    .with(
      'event',
      knex.raw(
        `insert into outbox (id, subject, payload, headers)
         select ?::uuid, ?, ?::bytea, ?::jsonb where exists (select 1 from written)`,
        [row.id, row.subject, row.payload, row.headers],
      ),
    )
    .select('*')
    .from('written');
  return rows as Row[];
};

export interface OutboxRelayOptions {
  db: Database;
  bus: EventBus;
  service: string;
  logger: Logger;
  /** How often to look for events when not kicked. Default 500 ms. */
  pollMs?: number;
  /**
   * The least time between two runs started by kicks. Under load, writes kick the relay far
   * more often than it needs to run: their events wait up to this long and go out together,
   * one transaction for many. Default 20 ms.
   */
  kickIntervalMs?: number;
  /** Events per transaction. Default 100. */
  batch?: number;
  /** How long published rows are kept before being deleted. Default 24 h. */
  retainMs?: number;
}

export interface OutboxRelay {
  /**
   * Publish soon, e.g. right after a transaction that enqueued events commits: at once when
   * the relay last ran `kickIntervalMs` ago or more, else when that much time has passed.
   */
  kick(): void;
  /** Stops polling and waits for the batch in progress. */
  stop(): Promise<void>;
}

interface OutboxRow {
  id: string;
  subject: string;
  payload: Buffer;
  headers: Record<string, string>;
}

/** The running relays' backlog queries, counted when metrics are scraped. */
const backlogs = new Map<object, { service: string; count: () => Promise<number> }>();

/** What an operator alerts on when the bus is down or the relay stalls: events not yet out. */
export const outboxPending = new Gauge({
  name: 'noted_outbox_pending_events',
  help: 'Outbox rows not yet published to the event bus, by service (counted at scrape)',
  labelNames: ['service'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    const counts = await Promise.all(
      [...backlogs.values()].map(async ({ service, count }) => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), 2000);
        });
        try {
          return { service, pending: await Promise.race([count(), timeout]) };
        } catch {
          // No sample while the database does not answer; the scrape itself still succeeds.
          return { service, pending: undefined };
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    for (const { service, pending } of counts) {
      // Replicas in one process count the same table: one sample per service.
      if (pending !== undefined) this.set({ service }, pending);
    }
  },
});

const pruneEveryMs = 10 * 60_000;
const maxBackoffMs = 30_000;

/**
 * Publishes committed outbox rows in order, with the row id as message id, and marks them.
 * Rows are locked with FOR UPDATE SKIP LOCKED, so relays of several replicas share the work.
 * A crash between publish and mark re-publishes the same id, which the bus de-duplicates.
 */
export const startOutboxRelay = (options: OutboxRelayOptions): OutboxRelay => {
  const { db, bus } = options;
  const pollMs = options.pollMs ?? 500;
  const kickIntervalMs = options.kickIntervalMs ?? 20;
  const batch = options.batch ?? 100;
  const retainMs = options.retainMs ?? 24 * 3600_000;
  const logger = options.logger.child({ component: 'outbox-relay', service: options.service });

  let stopped = false;
  let running: Promise<void> | undefined;
  let kicked = false;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  let lastRunAt = 0;
  let failures = 0;
  let lastPrune = 0;

  const publishBatch = async (): Promise<{ count: number; error?: unknown }> =>
    db.knex.transaction(async (trx) => {
      const rows: OutboxRow[] = await trx('outbox')
        .select('id', 'subject', 'payload', 'headers')
        .whereNull('published_at')
        .orderBy('seq')
        .limit(batch)
        .forUpdate()
        .skipLocked();
      const published: string[] = [];
      let error: unknown;
      for (const row of rows) {
        try {
          await bus.publish(row.subject, row.payload, { id: row.id, headers: row.headers });
          published.push(row.id);
        } catch (publishError) {
          // Keep order: stop here, mark what went out, and try this row again later.
          error = publishError;
          logger.warn(
            { subject: row.subject, messageId: row.id, err: publishError },
            'outbox publish failed',
          );
          break;
        }
      }
      if (published.length > 0) {
        await trx('outbox').whereIn('id', published).update({ published_at: trx.fn.now() });
      }
      return { count: rows.length, error };
    });

  const prune = async () => {
    if (Date.now() - lastPrune < pruneEveryMs) return;
    lastPrune = Date.now();
    const removed = await db
      .knex('outbox')
      .whereNotNull('published_at')
      .where('published_at', '<', new Date(Date.now() - retainMs))
      .delete();
    if (removed > 0) logger.debug({ removed }, 'pruned published outbox rows');
  };

  const relay = async () => {
    for (;;) {
      const { count, error } = await publishBatch();
      if (error) throw error;
      if (count < batch || stopped) break;
    }
    await prune();
  };

  /** Runs the relay in `delayMs`, unless a run is already due sooner. */
  const schedule = (delayMs: number) => {
    if (stopped) return;
    const at = Date.now() + delayMs;
    if (timer && timerAt <= at) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(tick, delayMs);
  };

  const untilKickAllowed = () => Math.max(0, lastRunAt + kickIntervalMs - Date.now());

  const tick = () => {
    if (stopped) return;
    if (running) {
      kicked = true;
      return;
    }
    clearTimeout(timer);
    timer = undefined;
    timerAt = Infinity;
    lastRunAt = Date.now();
    running = relay()
      .then(
        () => {
          if (failures > 0) logger.info({ failures }, 'outbox relay recovered');
          failures = 0;
        },
        (error: unknown) => {
          failures += 1;
          if (failures === 1)
            logger.error({ err: error }, 'outbox relay failed; retrying with backoff');
        },
      )
      .finally(() => {
        running = undefined;
        const wasKicked = kicked;
        kicked = false;
        if (wasKicked && failures === 0) schedule(untilKickAllowed());
        else schedule(failures === 0 ? pollMs : Math.min(pollMs * 2 ** failures, maxBackoffMs));
      });
  };

  const backlogKey = {};
  backlogs.set(backlogKey, {
    service: options.service,
    count: async () => {
      const row = await db.knex('outbox').whereNull('published_at').count({ pending: '*' }).first();
      return Number(row?.pending ?? 0);
    },
  });

  tick();
  return {
    kick: () => {
      if (stopped) return;
      if (running) kicked = true;
      else schedule(untilKickAllowed());
    },
    async stop() {
      stopped = true;
      backlogs.delete(backlogKey);
      clearTimeout(timer);
      await running;
    },
  };
};
