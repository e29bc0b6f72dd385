import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUnitOfWork } from '@noted/db';
import type { HeldWebhook } from '@noted/testing';
import { webhookEvents } from '../metrics.js';
import { billingContext } from '../service.js';
import { billingStatusOf, checkoutStart } from '../subscriptions/usecases.js';
import {
  announced,
  identity,
  logger,
  payingConfig,
  signedEvent,
  startStripeBilling,
  type StripeBilling,
} from '../test/billing.js';
import { webhookReceive } from './usecases.js';

/** The webhook outcomes counted while `work` ran, as `type outcome` → how many. */
const countedDuring = async (work: () => Promise<unknown>) => {
  const counts = async () =>
    new Map(
      (await webhookEvents.get()).values.map(({ labels, value }) => [
        `${labels.type} ${labels.outcome}`,
        value,
      ]),
    );
  const before = await counts();
  await work();
  const after = await counts();
  return Object.fromEntries(
    [...after]
      .map(([key, value]) => [key, value - (before.get(key) ?? 0)] as const)
      .filter(([, delta]) => delta !== 0),
  );
};

describe("Stripe's webhooks, well signed, about objects Stripe or Noted does not know", () => {
  let billing: StripeBilling;

  const stripeApi = () => {
    if (!billing.ctx.stripe) throw new Error('payments are off');
    return billing.ctx.stripe.client;
  };
  const customerRowOf = (userId: string) =>
    billing.db.knex('customers').where({ user_id: userId }).first();
  const subscriptionRowOf = (userId: string) =>
    billing.db.knex('subscriptions').where({ user_id: userId }).first();
  const eventRecorded = async (id: string) =>
    (await billing.db.knex('stripe_events').where({ id }).first()) !== undefined;

  /**
   * A Checkout paid in Stripe for `userId` by `customerId`, not started through Noted (someone
   * with the Stripe account's key): its checkout.session.completed, held.
   */
  const checkoutInStripe = async (userId: string, customerId: string) => {
    const session = await stripeApi().checkout.sessions.create({
      mode: 'subscription',
      customer: customerId,
      client_reference_id: userId,
      line_items: [{ price: 'price_standard_month', quantity: 1 }],
      success_url: 'http://localhost:8080/subscription/success?session_id={CHECKOUT_SESSION_ID}',
    });
    await billing.pay(session.url ?? '');
    const completed = billing
      .held()
      .find((held) => held.event.type === 'checkout.session.completed');
    if (!completed) throw new Error('no checkout.session.completed');
    const { subscription } = await stripeApi().checkout.sessions.retrieve(session.id);
    return { completed, subscriptionId: subscription as string };
  };

  beforeAll(async () => {
    billing = await startStripeBilling();
  }, 60_000);

  afterAll(async () => {
    await billing?.close();
  });

  it('acknowledges the events of a subscription Stripe no longer has, applies none, and takes a redelivery as a duplicate', async () => {
    const who = identity();
    const session = await checkoutStart(billing.ctx, who, { plan: 'standard', interval: 'month' });
    await billing.pay(session.url);
    const events = billing.held();
    expect(events.map((held) => held.event.type)).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'checkout.session.completed',
    ]);
    billing.stripe.forget(String(events[0]!.event.data.object.id));

    const counted = await countedDuring(async () => {
      for (const event of events) {
        expect(await billing.receive(event)).toEqual({ received: true, duplicate: false });
      }
    });
    expect(counted).toEqual({
      'customer.subscription.created unknown_object': 1,
      'invoice.paid unknown_object': 1,
      'checkout.session.completed unknown_object': 1,
    });
    expect(await subscriptionRowOf(who.userId)).toBeUndefined();
    expect(await billingStatusOf(billing.ctx, who.userId)).toMatchObject({
      planName: 'free',
      status: 'inactive',
    });
    expect(await announced(billing.db, who.userId)).toEqual([]);
    const checkout = await billing.db
      .knex('checkout_sessions')
      .where({ id: session.sessionId })
      .first();
    expect(checkout.completed_at).toBeNull();
    for (const event of events) expect(await eventRecorded(event.event.id)).toBe(true);

    // Delivered again (Stripe retries anything it thinks failed): known, and not asked again.
    const again = await countedDuring(async () => {
      expect(await billing.receive(events[0]!)).toEqual({ received: true, duplicate: true });
    });
    expect(again).toEqual({ 'customer.subscription.created duplicate': 1 });
  });

  it('links no one for a checkout whose subscription Stripe lacks, nor for a second one of another user and the same customer', async () => {
    const customer = await stripeApi().customers.create({ email: 'shared@example.com' });
    const first = identity();
    const second = identity();
    const counted = await countedDuring(async () => {
      for (const who of [first, second]) {
        const { completed, subscriptionId } = await checkoutInStripe(who.userId, customer.id);
        billing.stripe.forget(subscriptionId);
        expect(await billing.receive(completed)).toEqual({ received: true, duplicate: false });
      }
    });
    expect(counted).toEqual({ 'checkout.session.completed unknown_object': 2 });
    for (const who of [first, second]) {
      expect(await customerRowOf(who.userId)).toBeUndefined();
      expect(await subscriptionRowOf(who.userId)).toBeUndefined();
    }
    expect(await billing.db.knex('customers').where({ stripe_customer_id: customer.id })).toEqual(
      [],
    );
  });

  it("takes the event's word for nothing: a checkout Stripe never had links no one", async () => {
    const customer = await stripeApi().customers.create({ email: 'forged@example.com' });
    const users = [identity(), identity()];
    const counted = await countedDuring(async () => {
      for (const who of users) {
        const forged = signedEvent(billing.stripe, 'checkout.session.completed', {
          id: 'cs_test_never_made',
          object: 'checkout.session',
          mode: 'subscription',
          status: 'complete',
          client_reference_id: who.userId,
          customer: customer.id,
          subscription: 'sub_never_made',
        });
        expect(await billing.receive(forged)).toEqual({ received: true, duplicate: false });
        expect(await eventRecorded(forged.id)).toBe(true);
      }
    });
    expect(counted).toEqual({ 'checkout.session.completed unknown_object': 2 });
    for (const who of users) expect(await customerRowOf(who.userId)).toBeUndefined();
  });

  it('acknowledges a checkout of a customer linked to another user, or of a user linked to another customer, and writes nothing', async () => {
    const owner = await billing.subscriber('standard');
    const ownerCustomer = (await customerRowOf(owner.userId)).stripe_customer_id as string;
    const ownerSubscription = (await subscriptionRowOf(owner.userId)).stripe_subscription_id;

    // Another user paying as the owner's customer.
    const other = identity();
    const theirs = await checkoutInStripe(other.userId, ownerCustomer);
    // The owner paying as a customer that is not theirs.
    const stranger = await stripeApi().customers.create({ email: 'stranger@example.com' });
    const strangers = await checkoutInStripe(owner.userId, stranger.id);

    const counted = await countedDuring(async () => {
      for (const { completed } of [theirs, strangers]) {
        expect(await billing.receive(completed)).toEqual({ received: true, duplicate: false });
      }
    });
    expect(counted).toEqual({ 'checkout.session.completed conflict': 2 });
    expect(await customerRowOf(other.userId)).toBeUndefined();
    expect(await subscriptionRowOf(other.userId)).toBeUndefined();
    expect(await billing.db.knex('customers').where({ stripe_customer_id: stranger.id })).toEqual(
      [],
    );
    expect(await customerRowOf(owner.userId)).toMatchObject({ stripe_customer_id: ownerCustomer });
    expect(await subscriptionRowOf(owner.userId)).toMatchObject({
      stripe_subscription_id: ownerSubscription,
      status: 'active',
    });
    // Redelivered: a duplicate, still nothing written.
    const again = await countedDuring(async () => {
      expect(await billing.receive(theirs.completed)).toEqual({ received: true, duplicate: true });
    });
    expect(again).toEqual({ 'checkout.session.completed duplicate': 1 });
    expect(await customerRowOf(other.userId)).toBeUndefined();
  });

  it('refuses a signature stamped more than 300 s before or after now, and records nothing', async () => {
    const now = Math.floor(Date.now() / 1000);
    const event = signedEvent(billing.stripe, 'customer.created', {
      id: 'cus_anyone',
      object: 'customer',
    });
    const refused = async (payload: string, header: string) => {
      const error = await webhookReceive(billing.ctx, Buffer.from(payload), header).catch(
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    };
    const counted = await countedDuring(async () => {
      await refused(event.payload, billing.stripe.sign(event.payload, now + 301));
      await refused(event.payload, billing.stripe.sign(event.payload, now + 3600));
      await refused(event.payload, billing.stripe.sign(event.payload, now - 301));
      // Signed, but no event: not JSON, or JSON without an event's fields.
      await refused('not json', billing.stripe.sign('not json'));
      await refused('{"id":"evt_1"}', billing.stripe.sign('{"id":"evt_1"}'));
    });
    expect(counted).toEqual({ 'other refused': 5 });
    expect(await eventRecorded(event.id)).toBe(false);

    // Within the tolerance, ahead (a clock a little fast) or behind, it is taken, once.
    const ahead = billing.stripe.sign(event.payload, now + 290);
    expect(await webhookReceive(billing.ctx, Buffer.from(event.payload), ahead)).toEqual({
      received: true,
      duplicate: false,
    });
    const behind = billing.stripe.sign(event.payload, now - 290);
    expect(await webhookReceive(billing.ctx, Buffer.from(event.payload), behind)).toEqual({
      received: true,
      duplicate: true,
    });
  });

  it('answers 503 and records nothing while Stripe cannot be reached, so that its redelivery applies the event', async () => {
    const unreachable = billingContext(payingConfig('http://127.0.0.1:9'), {
      db: billing.db,
      unitOfWork: createUnitOfWork(billing.db.knex, () => {}),
      logger,
    });
    const who = identity();
    const session = await checkoutStart(billing.ctx, who, { plan: 'standard', interval: 'month' });
    await billing.pay(session.url);
    const [created, ...rest] = billing.held() as [HeldWebhook, ...HeldWebhook[]];
    const failure = await webhookReceive(
      unreachable,
      Buffer.from(created.payload),
      created.header,
    ).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'UNAVAILABLE', status: 503 });
    expect(await eventRecorded(created.event.id)).toBe(false);

    expect(await billing.receive(created)).toEqual({ received: true, duplicate: false });
    await billing.receiveAll(rest);
    expect(await billingStatusOf(billing.ctx, who.userId)).toMatchObject({
      planName: 'standard',
      isActive: true,
    });
  }, 30_000);
});
