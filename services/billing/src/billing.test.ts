import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@noted/api';
import { createUnitOfWork, type Database } from '@noted/db';
import type { HeldWebhook, StripeServer } from '@noted/testing';
import type { BillingContext } from './context.js';
import { billingContext } from './service.js';
import { applySubscription, readSubscription } from './subscriptions/sync.js';
import {
  billingStatusOf,
  checkoutStart,
  checkoutVerify,
  portalOpen,
  subscriptionCancel,
  subscriptionChange,
} from './subscriptions/usecases.js';
import {
  announced,
  configFor,
  identity,
  logger,
  openBillingDb,
  startStripeBilling,
  type StripeBilling,
} from './test/billing.js';
import { webhookReceive } from './webhooks/usecases.js';

describe('billing without Stripe', () => {
  let db: Database;
  let ctx: BillingContext;

  beforeAll(async () => {
    db = await openBillingDb();
    ctx = billingContext(configFor({}), {
      db,
      unitOfWork: createUnitOfWork(db.knex, () => {}),
      logger,
    });
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('answers the free plan with nothing held back, and refuses payments with PAYMENTS_DISABLED', async () => {
    const who = identity();
    expect(await billingStatusOf(ctx, who.userId)).toMatchObject({
      planName: 'free',
      status: 'inactive',
      isActive: false,
      expiresAt: null,
      paymentsEnabled: false,
      // Nothing can be bought here, so the free plan limits nothing the operator did not set.
      entitlements: {
        notes_per_month: -1,
        recordingTimeLimit: -1,
        export_pdf: true,
        export_image: true,
      },
    });
    for (const call of [
      () => checkoutStart(ctx, who, { plan: 'standard', interval: 'month' }),
      () => subscriptionChange(ctx, who.userId, { plan: 'premium', interval: 'month' }),
      () => subscriptionCancel(ctx, who.userId),
      () => portalOpen(ctx, who.userId),
      () => webhookReceive(ctx, Buffer.from('{}'), 't=1,v1=00'),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'PAYMENTS_DISABLED', status: 404 });
    }
  });
});

describe('billing with Stripe (the real SDK against a local server speaking its wire format)', () => {
  let billing: StripeBilling;
  let db: Database;
  let ctx: BillingContext;
  let stripe: StripeServer;

  const held = () => billing.held();
  const receive = (webhook: HeldWebhook) => billing.receive(webhook);
  const receiveAll = (webhooks: HeldWebhook[]) => billing.receiveAll(webhooks);
  const pay = (url: string) => billing.pay(url);
  const subscriber = (plan: 'standard' | 'premium', interval?: 'month' | 'year') =>
    billing.subscriber(plan, interval);

  const subscriptionOf = async (userId: string) =>
    (await db.knex('subscriptions').where({ user_id: userId }).first()) as {
      stripe_subscription_id: string;
    };

  /** A subscription as Stripe has it now (it has every one these tests read). */
  const readNow = async (subscriptionId: string) => {
    const read = await readSubscription(ctx, subscriptionId);
    if (!read) throw new Error(`Stripe has no ${subscriptionId}`);
    return read;
  };

  beforeAll(async () => {
    billing = await startStripeBilling();
    ({ db, ctx, stripe } = billing);
  }, 60_000);

  afterAll(async () => {
    await billing?.close();
  });

  it('lists the plans with the prices Stripe has', async () => {
    const { billingPlans } = await import('./subscriptions/usecases.js');
    const list = await billingPlans(ctx);
    expect(list).toMatchObject({ paymentsEnabled: true, publishableKey: 'pk_test_billing' });
    expect(list.plans.map((plan) => [plan.name, plan.tier])).toEqual([
      ['free', 'free'],
      ['standard', 'premium'],
      ['premium', 'premium'],
    ]);
    expect(list.plans[2]?.prices).toEqual([
      { interval: 'month', amount: 1200, currency: 'usd', trialDays: null },
      { interval: 'year', amount: 12000, currency: 'usd', trialDays: 14 },
    ]);
  });

  it('goes free → standard through Checkout and announces the plan once', async () => {
    const who = identity();
    const session = await checkoutStart(ctx, who, { plan: 'standard', interval: 'month' });
    expect(session.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\//);
    const returned = await pay(session.url);
    expect(returned).toBe(session.sessionId);
    const webhooks = held();
    expect(webhooks.map((webhook) => webhook.event.type)).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'checkout.session.completed',
    ]);
    await receiveAll(webhooks);
    const status = await billingStatusOf(ctx, who.userId);
    expect(status).toMatchObject({
      planName: 'standard',
      status: 'active',
      isActive: true,
      interval: 'month',
      cancelAtPeriodEnd: false,
      entitlements: { notes_per_month: 1000, recordingTimeLimit: 600 },
    });
    expect(new Date(status.expiresAt ?? 0).getTime()).toBeGreaterThan(Date.now() + 27 * 86_400_000);
    // Three events about one change: one announcement.
    expect(await announced(db, who.userId)).toEqual([
      expect.objectContaining({ plan: 'standard', status: 'active', notesPerMonth: 1000 }),
    ]);
    // A second checkout is refused: a subscriber changes plan instead.
    await expect(
      checkoutStart(ctx, who, { plan: 'premium', interval: 'month' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('verifies the return from Checkout before the webhook arrives, for its owner only', async () => {
    const who = identity();
    const session = await checkoutStart(ctx, who, { plan: 'premium', interval: 'month' });
    await pay(session.url);
    const other = identity();
    await expect(checkoutVerify(ctx, other.userId, session.sessionId)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await checkoutVerify(ctx, who.userId, session.sessionId)).toMatchObject({
      planName: 'premium',
      isActive: true,
    });
    // The webhooks arriving afterwards change nothing more.
    await receiveAll(held());
    expect(await announced(db, who.userId)).toHaveLength(1);
  });

  it('refuses an event with a bad signature, another secret or a stale timestamp, and applies none', async () => {
    const who = identity();
    const session = await checkoutStart(ctx, who, { plan: 'standard', interval: 'month' });
    await pay(session.url);
    const [created] = held();
    if (!created) throw new Error('no event');
    const tampered = created.payload.replace('"active"', '"canceled"');
    const attempts = [
      { body: tampered, header: created.header },
      { body: created.payload, header: 't=1,v1=deadbeef' },
      { body: created.payload, header: '' },
      // Signed correctly, 301 seconds ago: Stripe's tolerance is 300.
      {
        body: created.payload,
        header: stripe.sign(created.payload, Math.floor(Date.now() / 1000) - 301),
      },
    ];
    for (const attempt of attempts) {
      const refused = await webhookReceive(
        ctx,
        Buffer.from(attempt.body),
        attempt.header || undefined,
      ).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    }
    expect(await db.knex('stripe_events').where({ id: created.event.id }).first()).toBeUndefined();
    expect(await billingStatusOf(ctx, who.userId)).toMatchObject({ planName: 'free' });
    // Signed 299 seconds ago it is taken.
    const fresh = stripe.sign(created.payload, Math.floor(Date.now() / 1000) - 299);
    expect(await webhookReceive(ctx, Buffer.from(created.payload), fresh)).toEqual({
      received: true,
      duplicate: false,
    });
    expect(await billingStatusOf(ctx, who.userId)).toMatchObject({ planName: 'standard' });
  });

  it('applies the same event delivered twice at once exactly once', async () => {
    const who = identity();
    const session = await checkoutStart(ctx, who, { plan: 'standard', interval: 'year' });
    await pay(session.url);
    const [created, ...rest] = held();
    if (!created) throw new Error('no event');
    const answers = await Promise.all(Array.from({ length: 6 }, () => receive(created)));
    expect(answers.filter((answer) => !answer.duplicate)).toHaveLength(1);
    expect(await db.knex('stripe_events').where({ id: created.event.id })).toHaveLength(1);
    await receiveAll(rest);
    expect(await receive(created)).toEqual({ received: true, duplicate: true });
    expect(await announced(db, who.userId)).toHaveLength(1);
  });

  it('never moves a subscription back: a change arriving before the purchase, an older read after a newer one', async () => {
    // A user changes plan right after buying: Stripe's `updated` reaches us before `created`.
    const who = identity();
    const session = await checkoutStart(ctx, who, { plan: 'standard', interval: 'month' });
    await pay(session.url);
    const purchase = held();
    const customer = await db.knex('customers').where({ user_id: who.userId }).first();
    const [bought] = stripe.subscriptionsOf(customer.stripe_customer_id);
    if (!bought || !ctx.stripe) throw new Error('no subscription');
    await ctx.stripe.client.subscriptions.update(bought.id, {
      items: [{ id: bought.items.data[0]?.id ?? '', price: 'price_premium_month' }],
    });
    const change = held();
    expect(change.map((webhook) => webhook.event.type)).toEqual(['customer.subscription.updated']);
    await receiveAll([...change, ...purchase.reverse()]);
    expect(await billingStatusOf(ctx, who.userId)).toMatchObject({ planName: 'premium' });
    expect((await announced(db, who.userId)).map((event) => event.plan)).toEqual(['premium']);

    // A read taken before the one stored (a slow replica) changes nothing.
    const older = await readNow(bought.id);
    expect(await applySubscription(ctx, { ...older, readAt: new Date(Date.now() - 60_000) })).toBe(
      'stale',
    );
    expect(await billingStatusOf(ctx, who.userId)).toMatchObject({ planName: 'premium' });
  });

  it('never stores one subscription for two users, nor links a user to a second customer', async () => {
    const owner = await subscriber('standard');
    const { stripe_subscription_id: id } = await subscriptionOf(owner.userId);
    const other = identity();
    const customer = await db.knex('customers').where({ user_id: owner.userId }).first();
    // As a checkout naming another user would apply it.
    expect(
      await applySubscription(ctx, await readNow(id), undefined, {
        sessionId: 'cs_test_other',
        userId: other.userId,
        customerId: 'cus_of_no_one',
      }),
    ).toBe('conflict');
    // As a checkout naming the owner with a customer that is not theirs would.
    const { subscription: fresh } = await readNow(id);
    expect(
      await applySubscription(ctx, { subscription: fresh, readAt: new Date() }, undefined, {
        sessionId: 'cs_test_owner',
        userId: owner.userId,
        customerId: 'cus_not_theirs',
      }),
    ).toBe('conflict');
    expect(await db.knex('subscriptions').where({ user_id: other.userId })).toEqual([]);
    expect(await db.knex('customers').whereIn('user_id', [owner.userId, other.userId])).toEqual([
      customer,
    ]);
  });

  it('cancels at the end of the period, only an active paid plan; the deletion makes the user free', async () => {
    const who = await subscriber('premium');
    const cancelled = await subscriptionCancel(ctx, who.userId);
    expect(cancelled).toMatchObject({
      planName: 'premium',
      isActive: true,
      cancelAtPeriodEnd: true,
    });
    await receiveAll(held());
    // Undo: the same plan again keeps it.
    expect(
      await subscriptionChange(ctx, who.userId, { plan: 'premium', interval: 'month' }),
    ).toMatchObject({ cancelAtPeriodEnd: false });
    await subscriptionCancel(ctx, who.userId);
    await receiveAll(held());
    const { stripe_subscription_id: id } = await subscriptionOf(who.userId);
    await stripe.endPeriod(id);
    const ended = held();
    expect(ended.map((webhook) => webhook.event.type)).toEqual(['customer.subscription.deleted']);
    await receiveAll(ended);
    expect(await billingStatusOf(ctx, who.userId)).toMatchObject({
      planName: 'free',
      status: 'canceled',
      isActive: false,
      entitlements: { notes_per_month: 100 },
    });
    expect((await announced(db, who.userId)).at(-1)).toMatchObject({
      plan: 'free',
      status: 'canceled',
      notesPerMonth: 100,
    });
    await expect(subscriptionCancel(ctx, who.userId)).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(subscriptionCancel(ctx, identity().userId)).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    // Subscribed again: the ended subscription, read afresh (a late event), does not replace it.
    const session = await checkoutStart(ctx, who, { plan: 'standard', interval: 'month' });
    await pay(session.url);
    await receiveAll(held());
    expect(await billingStatusOf(ctx, who.userId)).toMatchObject({ planName: 'standard' });
    expect(await applySubscription(ctx, await readNow(id))).toBe('stale');
    expect(await billingStatusOf(ctx, who.userId)).toMatchObject({
      planName: 'standard',
      isActive: true,
    });
  });

  it('keeps a past-due plan active and says the payment failed', async () => {
    const who = await subscriber('standard');
    const { stripe_subscription_id: id } = await subscriptionOf(who.userId);
    await stripe.failPayment(id);
    const failed = held();
    expect(failed.map((webhook) => webhook.event.type)).toEqual([
      'invoice.payment_failed',
      'customer.subscription.updated',
    ]);
    await receiveAll(failed);
    expect(await billingStatusOf(ctx, who.userId)).toMatchObject({
      planName: 'standard',
      status: 'past_due',
      isActive: true,
      paymentFailed: true,
    });
    // The card is fixed and the next invoice paid: active again.
    await stripe.endPeriod(id);
    await receiveAll(held());
    expect(await billingStatusOf(ctx, who.userId)).toMatchObject({
      status: 'active',
      paymentFailed: false,
    });
  });

  it('starts a trial when the price has one', async () => {
    const who = await subscriber('premium', 'year');
    expect(await billingStatusOf(ctx, who.userId)).toMatchObject({
      planName: 'premium',
      status: 'trialing',
      isActive: true,
      interval: 'year',
    });
    expect((await billingStatusOf(ctx, who.userId)).trialEndsAt).not.toBeNull();
  });

  it('opens the customer portal for a customer only', async () => {
    const who = await subscriber('standard');
    const portal = await portalOpen(ctx, who.userId);
    expect(portal.url).toMatch(/\/portal\//);
    await expect(portalOpen(ctx, identity().userId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('acknowledges an event type it does not act on, once', async () => {
    const payload = JSON.stringify({
      id: `evt_${randomUUID().replaceAll('-', '')}`,
      object: 'event',
      type: 'customer.created',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'cus_x', object: 'customer' } },
      api_version: '2026-10-28.endive',
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    });
    const header = stripe.sign(payload);
    expect(await webhookReceive(ctx, Buffer.from(payload), header)).toEqual({
      received: true,
      duplicate: false,
    });
    expect(await webhookReceive(ctx, Buffer.from(payload), header)).toEqual({
      received: true,
      duplicate: true,
    });
  });
});
