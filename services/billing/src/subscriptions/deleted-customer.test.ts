import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEvents } from '../metrics.js';
import { identity, startStripeBilling, type StripeBilling } from '../test/billing.js';
import {
  billingStatusOf,
  checkoutStart,
  portalOpen,
  subscriptionCancel,
  subscriptionChange,
} from './usecases.js';

const outcomeCount = async (type: string, outcome: string) =>
  (await webhookEvents.get()).values.find(
    ({ labels }) => labels.type === type && labels.outcome === outcome,
  )?.value ?? 0;

describe("a customer deleted in Stripe's Dashboard", () => {
  let billing: StripeBilling;

  const stripeApi = () => {
    if (!billing.ctx.stripe) throw new Error('payments are off');
    return billing.ctx.stripe.client;
  };
  const customerOf = async (userId: string) =>
    (await billing.db.knex('customers').where({ user_id: userId }).first())?.stripe_customer_id as
      string | undefined;

  beforeAll(async () => {
    billing = await startStripeBilling();
  }, 60_000);

  afterAll(async () => {
    await billing?.close();
  });

  it('ends the plan; the portal answers NOT_FOUND and forgets the customer; the next checkout makes a new one', async () => {
    const who = await billing.subscriber('standard');
    const gone = await customerOf(who.userId);
    if (!gone) throw new Error('no customer');
    expect(await stripeApi().customers.del(gone)).toMatchObject({ id: gone, deleted: true });
    const ended = billing.held();
    expect(ended.map((held) => held.event.type)).toEqual([
      'customer.subscription.deleted',
      'customer.deleted',
    ]);

    // Before Stripe's events arrive: what Stripe says wins, and nothing answers 500.
    await expect(
      subscriptionChange(billing.ctx, who.userId, { plan: 'premium', interval: 'month' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(await billingStatusOf(billing.ctx, who.userId)).toMatchObject({
      planName: 'free',
      status: 'canceled',
      isActive: false,
    });
    await expect(subscriptionCancel(billing.ctx, who.userId)).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(portalOpen(billing.ctx, who.userId)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
    });
    expect(await customerOf(who.userId)).toBeUndefined();

    await billing.receiveAll(ended);
    expect(await billingStatusOf(billing.ctx, who.userId)).toMatchObject({ status: 'canceled' });

    // Buying again: a new customer (Stripe would answer the first key with the deleted one).
    const session = await checkoutStart(billing.ctx, who, { plan: 'premium', interval: 'month' });
    await billing.pay(session.url);
    await billing.receiveAll(billing.held());
    const renewed = await customerOf(who.userId);
    expect(renewed).toBeDefined();
    expect(renewed).not.toBe(gone);
    expect(await billingStatusOf(billing.ctx, who.userId)).toMatchObject({
      planName: 'premium',
      isActive: true,
    });
    expect((await portalOpen(billing.ctx, who.userId)).url).toMatch(/\/portal\//);
  });

  it('takes a checkout whose customer was deleted before its events arrived, and links no one', async () => {
    const who = identity();
    const session = await checkoutStart(billing.ctx, who, { plan: 'standard', interval: 'month' });
    await billing.pay(session.url);
    const purchase = billing.held();
    const gone = await customerOf(who.userId);
    if (!gone) throw new Error('no customer');
    await stripeApi().customers.del(gone);
    const ended = billing.held();
    await expect(portalOpen(billing.ctx, who.userId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await customerOf(who.userId)).toBeUndefined();

    const before = await outcomeCount('checkout.session.completed', 'unknown_object');
    for (const event of [...purchase, ...ended]) {
      expect(await billing.receive(event)).toMatchObject({ received: true });
    }
    expect(await outcomeCount('checkout.session.completed', 'unknown_object')).toBe(before + 1);
    expect(await customerOf(who.userId)).toBeUndefined();
    expect(await billingStatusOf(billing.ctx, who.userId)).toMatchObject({
      planName: 'free',
      status: 'canceled',
    });
  });
});
