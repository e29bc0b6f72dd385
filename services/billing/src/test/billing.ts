import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { createUnitOfWork, openDatabase, type Database } from '@noted/db';
import { createLogger, type Identity } from '@noted/kit';
import { billingEvents, entitlementsFromMessage } from '@noted/proto';
import { startStripeServer, type HeldWebhook, type StripeServer } from '@noted/testing';
import { billingConfigFrom, billingConfigSchema } from '../config.js';
import type { BillingContext } from '../context.js';
import { billingMigrations } from '../migrations.js';
import { billingContext } from '../service.js';
import { checkoutStart } from '../subscriptions/usecases.js';
import { webhookReceive } from '../webhooks/usecases.js';

export const WEBHOOK_SECRET = 'whsec_test_billing';

export const prices = [
  { id: 'price_standard_month', unitAmount: 500, interval: 'month' as const },
  { id: 'price_standard_year', unitAmount: 5000, interval: 'year' as const },
  { id: 'price_premium_month', unitAmount: 1200, interval: 'month' as const },
  { id: 'price_premium_year', unitAmount: 12000, interval: 'year' as const, trialDays: 14 },
];

export const logger = createLogger({ level: 'silent' });

/** The billing schema, migrated, in an embedded database of its own. */
export const openBillingDb = async () => {
  const db = await openDatabase({
    dataDir: mkdtempSync(path.join(tmpdir(), 'noted-billing-')),
    schema: 'billing',
    migrations: billingMigrations,
    logger,
  });
  await db.migrate();
  return db;
};

export const configFor = (env: Record<string, string>) =>
  billingConfigFrom(billingConfigSchema.parse(env), {
    host: '127.0.0.1',
    dataDir: '/nonexistent',
    internalSecret: 'x'.repeat(32),
    publicUrl: 'http://localhost:8080',
  });

/** The configuration of billing with payments, against the Stripe API at `apiUrl`. */
export const payingConfig = (apiUrl: string) =>
  configFor({
    STRIPE_SECRET_KEY: 'sk_test_billing',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_billing',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: apiUrl,
    STRIPE_PRICE_STANDARD_MONTHLY: 'price_standard_month',
    STRIPE_PRICE_STANDARD_YEARLY: 'price_standard_year',
    STRIPE_PRICE_PREMIUM_MONTHLY: 'price_premium_month',
    STRIPE_PRICE_PREMIUM_YEARLY: 'price_premium_year',
  });

export const identity = (): Identity => {
  const userId = randomUUID();
  return { userId, sub: `sub-${userId}`, email: `${userId}@example.com`, name: 'Pat' };
};

/** The announcements billing wrote to its outbox for a user, oldest first. */
export const announced = async (db: Database, userId: string) => {
  const rows = await db
    .knex('outbox')
    .where({ subject: billingEvents.subscriptionChanged.subject })
    .orderBy('seq');
  return rows
    .map((row: { payload: Buffer }) =>
      billingEvents.subscriptionChanged.decode(new Uint8Array(row.payload)),
    )
    .filter((event) => event.subscription?.userId === userId)
    .map((event) => ({
      plan: event.subscription?.plan,
      status: event.subscription?.status,
      version: event.version,
      notesPerMonth: entitlementsFromMessage(event.subscription?.entitlements ?? {})
        .notes_per_month,
    }));
};

/**
 * An event of the test's making, signed with the endpoint's secret as Stripe signs (now, or at
 * `timestamp`): what someone holding the secret could send.
 */
export const signedEvent = (
  stripe: StripeServer,
  type: string,
  object: Record<string, unknown>,
  timestamp?: number,
) => {
  const id = `evt_${randomUUID().replaceAll('-', '')}`;
  const payload = JSON.stringify(
    {
      id,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    },
    null,
    2,
  );
  return { id, payload, header: stripe.sign(payload, timestamp) };
};

/**
 * Billing with payments on its own database, with the real SDK against a local server speaking
 * Stripe's wire format whose webhooks are held for the test to deliver.
 */
export const startStripeBilling = async () => {
  const stripe: StripeServer = await startStripeServer({
    prices,
    webhookSecret: WEBHOOK_SECRET,
    webhooks: 'hold',
  });
  const db = await openBillingDb();
  const ctx: BillingContext = billingContext(payingConfig(stripe.url), {
    db,
    unitOfWork: createUnitOfWork(db.knex, () => {}),
    logger,
  });

  /** Takes the events Stripe would send now, signed as Stripe signs them. */
  const held = () => stripe.takeHeld();
  const receive = (webhook: Pick<HeldWebhook, 'payload' | 'header'>) =>
    webhookReceive(ctx, Buffer.from(webhook.payload), webhook.header);
  const receiveAll = async (webhooks: Pick<HeldWebhook, 'payload' | 'header'>[]) => {
    for (const webhook of webhooks) await receive(webhook);
  };

  /** The browser on Stripe's checkout page: Pay, then back to the success URL. */
  const pay = async (url: string) => {
    const { pathname } = new URL(url);
    const response = await fetch(`${stripe.url}${pathname}/pay`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    return new URL(response.headers.get('location') ?? '').searchParams.get('session_id');
  };

  /** A user who bought `plan` and whose events have all arrived. */
  const subscriber = async (plan: 'standard' | 'premium', interval: 'month' | 'year' = 'month') => {
    const who = identity();
    const session = await checkoutStart(ctx, who, { plan, interval });
    await pay(session.url);
    await receiveAll(held());
    return who;
  };

  const close = async () => {
    await db.close();
    await stripe.close();
  };

  return { stripe, db, ctx, held, receive, receiveAll, pay, subscriber, close };
};

export type StripeBilling = Awaited<ReturnType<typeof startStripeBilling>>;
