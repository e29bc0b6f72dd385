import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, Note, NoteImageUploaded, User, UserUsage } from '@noted/api';
import { openDatabase, type Database } from '@noted/db';
import { createLogger, registry } from '@noted/kit';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import { noteEvents, userEventHeaders, userEvents } from '@noted/proto';
import { createFsStore, type ObjectStore } from '@noted/storage';
import { startStripeServer, type StripeServer } from '@noted/testing';
import { freePort, getTestApp, infraLabel, json, testInfra, type TestApp } from './test/app.js';

const WEBHOOK_SECRET = 'whsec_deletion';
/** The schemas of the services that own data; a schema added later is scanned when it exists. */
const SCHEMAS = ['users', 'notes', 'ai', 'billing', 'export'];
/**
 * The consumers of user.deleted that count what they erased: one per data-owning service, and
 * `identity` (run by the users service), which deletes the account at the identity provider.
 */
const ERASERS = ['users', 'notes', 'ai', 'billing', 'export', 'identity'];
/**
 * Where a deleted user's id may stay, and why: the tombstone that refuses the account's old
 * tokens (ids only, pruned after a week), the user.deleted event itself, which must go out
 * (pruned with the outbox's published events after a day), and ai's record of the users it
 * erased (ids only, pruned after two weeks), which drops a note event that comes late.
 */
const ALLOWED = {
  'users.deleted_users': () => true,
  'users.outbox': (row: { subject?: string }) => row.subject === userEvents.deleted.subject,
  'ai.erased_users': () => true,
} as Record<string, (row: Record<string, unknown>) => boolean>;

/** Every row of every table of the data schemas that names `id` in any column. */
const rowsNaming = async (db: Knex, schema: string, id: string) => {
  const columns: { table_name: string; column_name: string; data_type: string }[] = await db
    .select('c.table_name', 'c.column_name', 'c.data_type')
    .from('information_schema.columns as c')
    .join('information_schema.tables as t', function join() {
      this.on('t.table_schema', 'c.table_schema').andOn('t.table_name', 'c.table_name');
    })
    .where({ 'c.table_schema': schema, 't.table_type': 'BASE TABLE' });
  const tables = new Map<string, typeof columns>();
  for (const column of columns) {
    tables.set(column.table_name, [...(tables.get(column.table_name) ?? []), column]);
  }
  const found: Record<string, Record<string, unknown>[]> = {};
  for (const [table, ofTable] of tables) {
    const tests = ofTable.map((column) =>
      column.data_type === 'bytea'
        ? db.raw(`position(convert_to(?, 'UTF8') in ??) > 0`, [id, column.column_name])
        : db.raw(`??::text like ?`, [column.column_name, `%${id}%`]),
    );
    const rows: Record<string, unknown>[] = await db
      .withSchema(schema)
      .from(table)
      .whereRaw(tests.map(() => '(?)').join(' or '), tests);
    if (rows.length > 0) found[`${schema}.${table}`] = rows;
  }
  return found;
};

const erasures = async () => {
  const metric = await registry.getSingleMetric('noted_user_erasures_total')?.get();
  const counts: Record<string, number> = {};
  for (const value of metric?.values ?? []) {
    counts[`${value.labels.service}:${value.labels.outcome}`] = value.value;
  }
  return counts;
};

/**
 * Deleting an account through the whole app: two users with notes, an image, a chat, usage
 * and a paid subscription; A deletes the account, and afterwards no table of any service holds
 * a row naming A (but the tombstones and the announcement), not even after note events of A
 * that arrive late, the object store holds nothing under A's prefix, A's subscription is
 * cancelled in Stripe, A's development account is gone, A's token is refused, and B's data is
 * all there. A second delivery of the event changes nothing.
 */
describe(`deleting an account (${infraLabel})`, () => {
  let app: TestApp;
  let stripe: StripeServer;
  let dataDir: string;
  let objects: ObjectStore;
  const users: Record<
    'a' | 'b',
    { email: string; token: string; user: User; subscription: string }
  > = {} as never;

  const waitFor = async <T>(read: () => Promise<T>, done: (value: T) => boolean) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const value = await read();
      if (done(value) || Date.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const subscribe = async (token: string) => {
    const session = await json<{ sessionId: string; url: string }>(
      app.api(token, 'POST', '/api/stripe/checkout-sessions', { plan: 'standard' }),
    );
    await fetch(`${stripe.url}${new URL(session.url).pathname}/pay`, {
      method: 'POST',
      redirect: 'manual',
    });
    await stripe.webhooksDelivered();
    const status = await json<{ planName: string }>(
      app.api(token, 'GET', `/api/stripe/verify-subscription/${session.sessionId}`),
    );
    expect(status.planName).toBe('standard');
    const created = stripe
      .events()
      .filter((event) => event.type === 'customer.subscription.created')
      .map((event) => event.data.object as { id: string; metadata?: Record<string, string> });
    return created.at(-1)?.id ?? '';
  };

  const stripeStatus = async (subscription: string) =>
    (
      await json<{ status: string }>(
        fetch(`${stripe.url}/v1/subscriptions/${subscription}`, {
          headers: { authorization: 'Bearer sk_test_deletion' },
        }),
      )
    ).status;

  beforeAll(async () => {
    const port = await freePort();
    stripe = await startStripeServer({
      prices: [{ id: 'price_std_m', unitAmount: 500, interval: 'month' }],
      webhookSecret: WEBHOOK_SECRET,
      webhookUrl: `http://127.0.0.1:${port}/api/stripe/webhook`,
    });
    dataDir = mkdtempSync(path.join(tmpdir(), 'noted-deletion-'));
    app = await getTestApp({
      port,
      env: {
        NOTED_DATA_DIR: dataDir,
        STRIPE_SECRET_KEY: 'sk_test_deletion',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_deletion',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: stripe.url,
        STRIPE_PRICE_STANDARD_MONTHLY: 'price_std_m',
      },
    });
    objects = createFsStore({ root: path.join(dataDir, 'notes', 'objects') });
    const photo = await sharp({
      create: { width: 64, height: 48, channels: 3, background: '#3a7bd5' },
    })
      .png()
      .toBuffer();
    for (const name of ['a', 'b'] as const) {
      const email = `${name}-${randomUUID()}@example.com`;
      const token = await app.tokenFor(email);
      const user = await json<User>(app.api(token, 'GET', '/user'));
      for (const title of ['sourdough starter', 'bread baking']) {
        const note = await json<Note>(
          app.api(token, 'POST', '/api/note/create/direct', {
            title,
            note: `Feed the ${title} every day, [[${title === 'bread baking' ? 'sourdough starter' : 'bread baking'}]] #kitchen`,
          }),
        );
        const form = new FormData();
        form.append('image', new Blob([new Uint8Array(photo)], { type: 'image/png' }), 'p.png');
        const uploaded = await fetch(`${app.url}/api/notes/${note.id}/images`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: form,
        });
        expect((await json<NoteImageUploaded>(uploaded)).image.url).toContain(note.id);
      }
      // Indexed by ai (from the notes' events) before the chat that reads the index.
      await waitFor(
        () =>
          json<{ items: unknown[] }>(
            app.api(token, 'GET', '/ai/note/assist/search?query=sourdough'),
          ),
        (hits) => hits.items.length > 0,
      );
      const chat = await app.api(token, 'POST', '/api/knowledge/chat/answer', {
        question: 'How often do I feed the sourdough starter?',
      });
      expect(chat.status).toBe(200);
      await chat.text();
      const subscription = await subscribe(token);
      users[name] = { email, token, user, subscription };
    }
  }, 180_000);

  afterAll(async () => {
    await app?.stop();
    await stripe?.close();
  });

  it('asks for the account’s email, and deletes nothing without it', async () => {
    const refused = await app.api(users.a.token, 'DELETE', '/user', { confirm: users.b.email });
    expect(refused.status).toBe(422);
    expect((await json<ErrorBody>(refused)).error.code).toBe('CONFIRMATION_MISMATCH');
    expect((await app.api(users.a.token, 'GET', '/api/notes')).status).toBe(200);
  });

  it('erases A everywhere, cancels A’s subscription, refuses A’s token, and keeps B', async () => {
    const before = await erasures();
    const deleted = await app.api(users.a.token, 'DELETE', '/user', {
      confirm: users.a.email.toUpperCase(),
    });
    expect(deleted.status).toBe(202);
    expect(await deleted.json()).toMatchObject({ userId: users.a.user.userId });

    // Refused at once, never created again by the next request with the same token.
    for (const route of ['/user', '/api/notes', '/user/usage']) {
      const refused = await app.api(users.a.token, 'GET', route);
      expect(refused.status).toBe(401);
      expect((await json<ErrorBody>(refused)).error.code).toBe('ACCOUNT_DELETED');
    }

    const after = await waitFor(erasures, (counts) =>
      ERASERS.every(
        (service) => (counts[`${service}:erased`] ?? 0) > (before[`${service}:erased`] ?? 0),
      ),
    );
    for (const service of ERASERS) {
      expect(after[`${service}:erased`], service).toBe((before[`${service}:erased`] ?? 0) + 1);
      expect(after[`${service}:failed`] ?? 0, service).toBe(before[`${service}:failed`] ?? 0);
    }
    expect(await stripeStatus(users.a.subscription)).toBe('canceled');
    expect(await stripeStatus(users.b.subscription)).toBe('active');
    expect(await objects.list(`${users.a.user.userId}/`)).toEqual([]);
    expect((await objects.list(`${users.b.user.userId}/`)).length).toBe(2);

    // A second delivery of the same event (another message id, past the bus's de-duplication).
    const again = userEvents.deleted.encode({
      eventId: randomUUID(),
      userId: users.a.user.userId,
      authId: users.a.user.authId,
    });
    await app.noted.bus?.publish(userEvents.deleted.subject, again, { id: randomUUID() });
    const twice = await waitFor(erasures, (counts) =>
      ERASERS.every(
        (service) => (counts[`${service}:erased`] ?? 0) > (after[`${service}:erased`] ?? 0),
      ),
    );
    for (const service of ERASERS) {
      expect(twice[`${service}:erased`], service).toBe((after[`${service}:erased`] ?? 0) + 1);
      expect(twice[`${service}:failed`] ?? 0, service).toBe(before[`${service}:failed`] ?? 0);
    }
    // The cancellation's webhook came and went without placing the subscription on A again.
    await stripe.webhooksDelivered();

    // A note event published just before the erasure and delivered after it (a newer version
    // of a note, and a new note) is dropped by ai: the last test finds nothing of A's in ai.
    for (const event of [noteEvents.created, noteEvents.updated]) {
      const payload = event.encode({
        eventId: randomUUID(),
        occurredAt: timestampNow(),
        note: {
          id: randomUUID(),
          userId: users.a.user.userId,
          title: 'sourdough starter',
          body: 'Feed the sourdough starter twice a day',
          createdAt: timestampNow(),
          updatedAt: timestampNow(),
        },
      });
      await app.noted.bus?.publish(event.subject, payload, {
        id: randomUUID(),
        headers: userEventHeaders(users.a.user.userId),
      });
    }
    // B's note, created after them: once ai has indexed it, it has handled A's events too.
    await json<Note>(
      app.api(users.b.token, 'POST', '/api/note/create/direct', {
        title: 'rye',
        note: 'Rye needs a longer rise',
      }),
    );
    const rye = await waitFor(
      () =>
        json<{ items: unknown[] }>(
          app.api(users.b.token, 'GET', '/ai/note/assist/search?query=rye'),
        ),
      (hits) => hits.items.length > 0,
    );
    expect(rye.items.length).toBeGreaterThan(0);

    // The development provider deleted the account: the same email signs up as a new account.
    const fresh = await waitFor(
      async () => json<User>(app.api(await app.tokenFor(users.a.email), 'GET', '/user')),
      (user) => user.authId !== users.a.user.authId,
    );
    expect(fresh.authId).not.toBe(users.a.user.authId);
    expect(fresh.userId).not.toBe(users.a.user.userId);

    // B's data is all there (the two notes and the one written above).
    const b = users.b.token;
    expect((await json<{ total: number }>(app.api(b, 'GET', '/api/notes'))).total).toBe(3);
    expect((await json<UserUsage>(app.api(b, 'GET', '/user/usage'))).notes.used).toBe(3);
    expect(
      await json<{ planName: string }>(app.api(b, 'GET', '/api/stripe/subscription-status')),
    ).toMatchObject({ planName: 'standard' });
    expect(
      (await json<{ items: unknown[] }>(app.api(b, 'GET', '/api/knowledge/chat/history'))).items,
    ).toHaveLength(1);
  }, 120_000);

  it('leaves no row naming A in any table of any service, and B’s rows in each', async () => {
    await app.stop();
    const seen = {
      a: {} as Record<string, Record<string, unknown>[]>,
      b: {} as Record<string, Record<string, unknown>[]>,
    };
    const scan = async (db: Knex, schema: string) => {
      seen.a = { ...seen.a, ...(await rowsNaming(db, schema, users.a.user.userId)) };
      seen.b = { ...seen.b, ...(await rowsNaming(db, schema, users.b.user.userId)) };
    };
    if (testInfra.databaseUrl) {
      const db = knex({ client: 'pg', connection: testInfra.databaseUrl });
      try {
        for (const schema of SCHEMAS) await scan(db, schema);
      } finally {
        await db.destroy();
      }
    } else {
      for (const schema of SCHEMAS) {
        if (!existsSync(path.join(dataDir, schema))) continue;
        const db: Database = await openDatabase({
          dataDir: path.join(dataDir, schema),
          schema,
          migrations: [],
          logger: createLogger({ level: 'silent' }),
        });
        try {
          await scan(db.knex, schema);
        } finally {
          await db.close();
        }
      }
    }
    const left = Object.fromEntries(
      Object.entries(seen.a)
        .map(([table, rows]) => [table, rows.filter((row) => !ALLOWED[table]?.(row))] as const)
        .filter(([, rows]) => rows.length > 0),
    );
    expect(left).toEqual({});
    expect(Object.keys(seen.a).sort()).toEqual([
      'ai.erased_users',
      'users.deleted_users',
      'users.outbox',
    ]);
    for (const table of [
      'users.users',
      'users.usage_counters',
      'notes.notes',
      'notes.note_links',
      'ai.chunks',
      'ai.chats',
      'billing.subscriptions',
      'billing.customers',
    ]) {
      expect(seen.b[table]?.length ?? 0, table).toBeGreaterThan(0);
    }
  }, 120_000);
});
