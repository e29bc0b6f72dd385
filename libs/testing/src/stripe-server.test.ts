import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterEach, describe, expect, it } from 'vitest';
import { startStripeServer, type StripeServer, type StripeServerOptions } from './stripe-server.js';

const secret = 'whsec_local_test_secret';
const day = 86_400;
/** Jan 31: one month later is Feb 28, as Stripe's calendar billing has it. */
const jan31 = Date.UTC(2027, 0, 31, 12) / 1000;
const feb28 = Date.UTC(2027, 1, 28, 12) / 1000;
const mar28 = Date.UTC(2027, 2, 28, 12) / 1000;

const prices: StripeServerOptions['prices'] = [
  { id: 'price_pro_monthly', unitAmount: 900, interval: 'month' },
  { id: 'price_pro_yearly', unitAmount: 9000, interval: 'year' },
  { id: 'price_pro_trial', unitAmount: 900, interval: 'month', trialDays: 14 },
];

interface Received {
  body: string;
  signature: string;
}

/** The billing service's webhook endpoint: records what Stripe posts, can refuse the next few. */
const startReceiver = async () => {
  const received: Received[] = [];
  let refuse = 0;
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      if (refuse > 0) {
        refuse--;
        res.writeHead(500).end();
        return;
      }
      received.push({
        body: Buffer.concat(parts).toString('utf8'),
        signature: String(req.headers['stripe-signature']),
      });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/stripe`,
    received,
    refuseNext: (count: number) => (refuse = count),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const setup = async (options: Partial<StripeServerOptions> = {}) => {
  const clock = { now: jan31 };
  const receiver = await startReceiver();
  cleanups.push(receiver.close);
  const server = await startStripeServer({
    prices,
    webhookSecret: secret,
    webhookUrl: receiver.url,
    webhookRetryDelayMs: 5,
    now: () => clock.now,
    ...options,
  });
  cleanups.push(server.close);
  const stripe = new Stripe('sk_test_local', {
    host: '127.0.0.1',
    port: server.port,
    protocol: 'http',
    maxNetworkRetries: 0,
  });
  /** Each delivered event, checked the way the billing service checks it. */
  const verified = () =>
    receiver.received.map(({ body, signature }) =>
      stripe.webhooks.constructEvent(body, signature, secret),
    );
  return { server, stripe, receiver, clock, verified };
};

const subscribe = async (
  { server, stripe }: { server: StripeServer; stripe: Stripe },
  price = 'price_pro_monthly',
  subscriptionData: Stripe.Checkout.SessionCreateParams.SubscriptionData = {},
) => {
  const customer = await stripe.customers.create({
    email: 'ada@example.com',
    name: 'Ada',
    metadata: { userId: 'user-1' },
  });
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    client_reference_id: 'user-1',
    line_items: [{ price, quantity: 1 }],
    success_url: 'http://app.test/billing/done?session={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://app.test/billing',
    metadata: { userId: 'user-1' },
    subscription_data: { metadata: { userId: 'user-1', plan: 'pro' }, ...subscriptionData },
  });
  const paid = await fetch(`${session.url}/pay`, { method: 'POST', redirect: 'manual' });
  expect(paid.status).toBe(303);
  const completed = await stripe.checkout.sessions.retrieve(session.id, {
    expand: ['subscription'],
  });
  const subscription = completed.subscription as Stripe.Subscription;
  expect(server.subscriptionsOf(customer.id).map((sub) => sub.id)).toEqual([subscription.id]);
  return { customer, session, paid, completed, subscription };
};

describe('the local Stripe server, driven by the real SDK', () => {
  it('takes a customer through checkout to an active subscription, with signed webhooks in order', async () => {
    const env = await setup();
    const { stripe, server } = env;
    const customer = await stripe.customers.create({
      email: 'ada@example.com',
      name: 'Ada',
      metadata: { userId: 'user-1' },
    });
    expect(customer).toMatchObject({
      object: 'customer',
      email: 'ada@example.com',
      name: 'Ada',
      metadata: { userId: 'user-1' },
      created: jan31,
      livemode: false,
    });
    expect(customer.id).toMatch(/^cus_/);
    expect(await stripe.customers.retrieve(customer.id)).toMatchObject({ id: customer.id });

    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      client_reference_id: 'user-1',
      line_items: [{ price: 'price_pro_monthly', quantity: 1 }],
      success_url: 'http://app.test/billing/done?session={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://app.test/billing',
      metadata: { userId: 'user-1' },
      subscription_data: { metadata: { userId: 'user-1', plan: 'pro' } },
    });
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      customer: customer.id,
      client_reference_id: 'user-1',
      metadata: { userId: 'user-1' },
      subscription: null,
      url: `${server.url}/checkout/${session.id}`,
    });
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.expires_at).toBeGreaterThan(session.created);

    const page = await (await fetch(session.url!)).text();
    expect(page).toContain('price_pro_monthly');
    expect(page).toContain('9.00 USD / month');
    expect(page).toContain(`<form method="post" action="/checkout/${session.id}/pay">`);
    expect(page).toContain('<a class="button" href="http://app.test/billing">Back</a>');

    const paid = await fetch(`${session.url}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://app.test/billing/done?session=${session.id}`);

    const completed = await stripe.checkout.sessions.retrieve(session.id, {
      expand: ['subscription'],
    });
    expect(completed).toMatchObject({ status: 'complete', payment_status: 'paid' });
    const subscription = completed.subscription as Stripe.Subscription;
    expect(subscription).toMatchObject({
      object: 'subscription',
      customer: customer.id,
      status: 'active',
      cancel_at_period_end: false,
      trial_end: null,
      metadata: { userId: 'user-1', plan: 'pro' },
    });
    const item = subscription.items.data[0]!;
    expect(item).toMatchObject({
      object: 'subscription_item',
      current_period_start: jan31,
      current_period_end: feb28,
      quantity: 1,
      subscription: subscription.id,
      price: { id: 'price_pro_monthly', unit_amount: 900, recurring: { interval: 'month' } },
    });
    expect((await stripe.checkout.sessions.retrieve(session.id)).subscription).toBe(
      subscription.id,
    );
    // Compared as JSON: the SDK turns decimal strings into its Decimal class, but not inside expansions.
    const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
    expect(json(await stripe.subscriptions.retrieve(subscription.id))).toEqual(json(subscription));
    const listed = await stripe.subscriptions.list({
      customer: customer.id,
      status: 'all',
      limit: 10,
    });
    expect(listed.data.map((sub) => sub.id)).toEqual([subscription.id]);
    expect(listed.has_more).toBe(false);

    // The redirect comes after delivery, so the success page finds the webhook's effects.
    const events = env.verified();
    expect(events.map((event) => event.type)).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'checkout.session.completed',
    ]);
    expect(events.map((event) => event.id)).toEqual(server.events().map((event) => event.id));
    const [created, invoicePaid, sessionCompleted] = events as [
      Stripe.CustomerSubscriptionCreatedEvent,
      Stripe.InvoicePaidEvent,
      Stripe.CheckoutSessionCompletedEvent,
    ];
    expect(created).toMatchObject({
      object: 'event',
      api_version: '2026-10-28.endive',
      created: jan31,
      livemode: false,
      data: { object: { id: subscription.id, status: 'active' } },
    });
    expect(invoicePaid.data.object).toMatchObject({
      object: 'invoice',
      status: 'paid',
      customer: customer.id,
      amount_paid: 900,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscription.id, metadata: { plan: 'pro' } },
      },
    });
    expect(subscription.latest_invoice).toBe(invoicePaid.data.object.id);
    expect(sessionCompleted.data.object).toMatchObject({
      id: session.id,
      status: 'complete',
      subscription: subscription.id,
      client_reference_id: 'user-1',
    });

    const { body, signature } = env.receiver.received[0]!;
    expect(() => stripe.webhooks.constructEvent(body, signature, 'whsec_wrong')).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    expect(() =>
      stripe.webhooks.constructEvent(body.replace('active', 'canceled'), signature, secret),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(server.deliveries().every((delivery) => delivery.delivered)).toBe(true);
  });

  it('changes the plan on the same subscription item', async () => {
    const env = await setup();
    const { subscription } = await subscribe(env);
    const item = subscription.items.data[0]!;
    const changed = await env.stripe.subscriptions.update(subscription.id, {
      items: [{ id: item.id, price: 'price_pro_yearly' }],
      proration_behavior: 'create_prorations',
      metadata: { plan: 'pro-yearly' },
    });
    expect(changed.items.data).toHaveLength(1);
    expect(changed.items.data[0]).toMatchObject({
      id: item.id,
      price: { id: 'price_pro_yearly', recurring: { interval: 'year' } },
    });
    expect(changed.metadata).toEqual({ userId: 'user-1', plan: 'pro-yearly' });
    await env.server.webhooksDelivered();
    const updated = env.verified().at(-1) as Stripe.CustomerSubscriptionUpdatedEvent;
    expect(updated.type).toBe('customer.subscription.updated');
    expect(updated.data.object.items.data[0]!.price.id).toBe('price_pro_yearly');
    expect(updated.data.previous_attributes).toMatchObject({
      items: { data: [{ id: item.id, price: { id: 'price_pro_monthly' } }] },
      metadata: { plan: 'pro' },
    });

    await expect(
      env.stripe.subscriptions.update(subscription.id, {
        items: [{ id: item.id, price: 'price_missing' }],
        cancel_at_period_end: true,
      }),
    ).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
      code: 'resource_missing',
      param: 'items[0][price]',
    });
    // A refused update changes nothing.
    expect(await env.stripe.subscriptions.retrieve(subscription.id)).toMatchObject({
      cancel_at_period_end: false,
      items: { data: [{ price: { id: 'price_pro_yearly' } }] },
    });
  });

  it('cancels at period end, and the subscription ends when the period does', async () => {
    const env = await setup();
    const { subscription } = await subscribe(env);
    const cancelling = await env.stripe.subscriptions.update(subscription.id, {
      cancel_at_period_end: true,
    });
    expect(cancelling).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
      cancel_at: feb28,
      canceled_at: jan31,
    });

    env.clock.now = feb28;
    const ended = await env.server.endPeriod(subscription.id);
    expect(ended).toMatchObject({ status: 'canceled', ended_at: feb28 });
    expect(env.verified().map((event) => event.type)).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'checkout.session.completed',
      'customer.subscription.updated',
      'customer.subscription.deleted',
    ]);
    const deleted = env.verified().at(-1) as Stripe.CustomerSubscriptionDeletedEvent;
    expect(deleted.data.object).toMatchObject({ id: subscription.id, status: 'canceled' });

    await expect(
      env.stripe.subscriptions.update(subscription.id, { cancel_at_period_end: false }),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    const listed = await env.stripe.subscriptions.list({
      customer: subscription.customer as string,
    });
    expect(listed.data).toEqual([]);
  });

  it('renews when the period ends: a paid invoice and the next period on the same item', async () => {
    const env = await setup();
    const { subscription } = await subscribe(env);
    env.clock.now = feb28;
    const renewed = await env.server.endPeriod(subscription.id);
    expect(renewed.items.data[0]).toMatchObject({
      id: subscription.items.data[0]!.id,
      current_period_start: feb28,
      current_period_end: mar28,
    });
    const [paid, updated] = env.verified().slice(3) as [
      Stripe.InvoicePaidEvent,
      Stripe.CustomerSubscriptionUpdatedEvent,
    ];
    expect(paid).toMatchObject({ type: 'invoice.paid', created: feb28 });
    expect(paid.data.object).toMatchObject({
      status: 'paid',
      billing_reason: 'subscription_cycle',
    });
    expect(updated.type).toBe('customer.subscription.updated');
    expect(updated.data.object.latest_invoice).toBe(paid.data.object.id);
    expect(updated.data.previous_attributes).toMatchObject({
      items: { data: [{ current_period_end: feb28 }] },
    });
  });

  it('a failed payment leaves the subscription past_due with an open invoice', async () => {
    const env = await setup();
    const { subscription } = await subscribe(env);
    const failed = await env.server.failPayment(subscription.id);
    expect(failed.status).toBe('past_due');
    const [paymentFailed, updated] = env.verified().slice(3) as [
      Stripe.InvoicePaymentFailedEvent,
      Stripe.CustomerSubscriptionUpdatedEvent,
    ];
    expect(paymentFailed.type).toBe('invoice.payment_failed');
    expect(paymentFailed.data.object).toMatchObject({
      status: 'open',
      amount_due: 900,
      amount_paid: 0,
      parent: { subscription_details: { subscription: subscription.id } },
    });
    expect(updated.type).toBe('customer.subscription.updated');
    expect(updated.data.previous_attributes).toMatchObject({ status: 'active' });
    expect(await env.stripe.subscriptions.retrieve(subscription.id)).toMatchObject({
      status: 'past_due',
      latest_invoice: paymentFailed.data.object.id,
    });
  });

  it("starts a trial from the price's trial days, and the trial becomes a paid period", async () => {
    const env = await setup();
    const { completed, subscription } = await subscribe(env, 'price_pro_trial');
    expect(completed.payment_status).toBe('no_payment_required');
    expect(subscription).toMatchObject({
      status: 'trialing',
      trial_start: jan31,
      trial_end: jan31 + 14 * day,
    });
    expect(subscription.items.data[0]!.current_period_end).toBe(jan31 + 14 * day);
    expect(env.verified().map((event) => event.type)).toEqual([
      'customer.subscription.created',
      'checkout.session.completed',
    ]);

    env.clock.now = jan31 + 14 * day;
    const active = await env.server.endPeriod(subscription.id);
    expect(active.status).toBe('active');
    expect(active.items.data[0]!.current_period_start).toBe(jan31 + 14 * day);
  });

  it('takes trial days from subscription_data too', async () => {
    const env = await setup();
    const { subscription } = await subscribe(env, 'price_pro_monthly', { trial_period_days: 7 });
    expect(subscription).toMatchObject({ status: 'trialing', trial_end: jan31 + 7 * day });
  });

  it('cancels at once on DELETE', async () => {
    const env = await setup();
    const { subscription } = await subscribe(env);
    env.clock.now = jan31 + day;
    const canceled = await env.stripe.subscriptions.cancel(subscription.id);
    expect(canceled).toMatchObject({
      status: 'canceled',
      canceled_at: jan31 + day,
      ended_at: jan31 + day,
    });
    await env.server.webhooksDelivered();
    expect(env.verified().at(-1)!.type).toBe('customer.subscription.deleted');
  });

  it('deletes a customer as Stripe does: its subscriptions end at once, it reads as deleted, no request takes it', async () => {
    const env = await setup();
    const { customer, subscription } = await subscribe(env);
    env.clock.now = jan31 + day;
    expect(await env.stripe.customers.del(customer.id)).toEqual(
      expect.objectContaining({ id: customer.id, object: 'customer', deleted: true }),
    );
    await env.server.webhooksDelivered();
    const [ended, deleted] = env.verified().slice(-2);
    expect(ended).toMatchObject({
      type: 'customer.subscription.deleted',
      data: { object: { id: subscription.id, status: 'canceled', ended_at: jan31 + day } },
    });
    expect(deleted).toMatchObject({
      type: 'customer.deleted',
      data: { object: { id: customer.id } },
    });
    expect(await env.stripe.subscriptions.retrieve(subscription.id)).toMatchObject({
      status: 'canceled',
      customer: customer.id,
    });
    // Still retrievable, to track its history; usable in nothing.
    const read = await env.stripe.customers.retrieve(customer.id);
    expect(read).toEqual(expect.objectContaining({ id: customer.id, deleted: true }));
    expect(read).not.toHaveProperty('email');
    const named = { statusCode: 400, code: 'resource_missing', param: 'customer' };
    await expect(
      env.stripe.billingPortal.sessions.create({ customer: customer.id }),
    ).rejects.toMatchObject({ ...named, message: `No such customer: '${customer.id}'` });
    await expect(
      env.stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: customer.id,
        line_items: [{ price: 'price_pro_monthly', quantity: 1 }],
        success_url: 'http://app.test/done',
      }),
    ).rejects.toMatchObject(named);
    await expect(env.stripe.customers.del(customer.id)).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
  });

  it('forgets an object as "Delete all test data" does: reads answer 404 resource_missing', async () => {
    const env = await setup({ webhooks: 'hold' });
    const { customer, subscription } = await subscribe(env);
    env.server.takeHeld();
    env.server.forget(subscription.id);
    await expect(env.stripe.subscriptions.retrieve(subscription.id)).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 404,
      code: 'resource_missing',
      param: 'id',
      message: `No such subscription: '${subscription.id}'`,
    });
    env.server.forget(customer.id);
    await expect(env.stripe.customers.retrieve(customer.id)).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
    expect(env.server.takeHeld()).toEqual([]);
    expect(() => env.server.forget('sub_never_made')).toThrow(/sub_never_made/);
  });

  it('the portal shows the plan and cancels it at period end', async () => {
    const env = await setup();
    const { customer, subscription } = await subscribe(env);
    const portal = await env.stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'http://app.test/billing',
    });
    expect(portal).toMatchObject({
      object: 'billing_portal.session',
      customer: customer.id,
      return_url: 'http://app.test/billing',
      url: `${env.server.url}/portal/${portal.id}`,
    });
    const page = await (await fetch(portal.url)).text();
    expect(page).toContain('price_pro_monthly');
    expect(page).toContain('<dd>active</dd>');
    expect(page).toContain('<dd>2027-02-28</dd>');
    expect(page).toContain('<a class="button" href="http://app.test/billing">Return</a>');

    const cancelled = await fetch(`${portal.url}/cancel`, { method: 'POST', redirect: 'manual' });
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get('location')).toBe(`/portal/${portal.id}`);
    expect(await (await fetch(portal.url)).text()).toContain('Renew plan');
    const updated = env.verified().at(-1) as Stripe.CustomerSubscriptionUpdatedEvent;
    expect(updated.type).toBe('customer.subscription.updated');
    expect(updated.data.object.cancel_at_period_end).toBe(true);
    expect(updated.data.previous_attributes).toMatchObject({ cancel_at_period_end: false });
    expect(env.server.subscriptionsOf(customer.id)[0]).toMatchObject({
      id: subscription.id,
      cancel_at_period_end: true,
    });
  });

  it('refuses to pay a session twice', async () => {
    const env = await setup();
    const { session } = await subscribe(env);
    const again = await fetch(`${session.url}/pay`, { method: 'POST', redirect: 'manual' });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('complete');
    expect(env.server.subscriptionsOf(session.customer as string)).toHaveLength(1);
  });

  it('answers the same Idempotency-Key with the same answer', async () => {
    const { stripe } = await setup();
    const first = await stripe.customers.create(
      { email: 'a@example.com' },
      { idempotencyKey: 'k1' },
    );
    const again = await stripe.customers.create(
      { email: 'a@example.com' },
      { idempotencyKey: 'k1' },
    );
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    const other = await stripe.customers.create(
      { email: 'a@example.com' },
      { idempotencyKey: 'k2' },
    );
    expect(other.id).not.toBe(first.id);
    await expect(
      stripe.customers.create({ email: 'b@example.com' }, { idempotencyKey: 'k1' }),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    // A refusal is an answer too: the same request with the same key gets it again.
    const missing = () => stripe.subscriptions.update('sub_missing', {}, { idempotencyKey: 'k3' });
    await expect(missing()).rejects.toMatchObject({ statusCode: 404 });
    await expect(missing()).rejects.toMatchObject({
      statusCode: 404,
      headers: { 'idempotent-replayed': 'true' },
    });
  });

  it("answers unknown ids and bad parameters in Stripe's error shape", async () => {
    const { stripe, server } = await setup();
    for (const call of [
      () => stripe.customers.retrieve('cus_missing'),
      () => stripe.prices.retrieve('price_missing'),
      () => stripe.subscriptions.retrieve('sub_missing'),
      () => stripe.checkout.sessions.retrieve('cs_test_missing'),
    ]) {
      await expect(call()).rejects.toMatchObject({
        type: 'StripeInvalidRequestError',
        statusCode: 404,
        code: 'resource_missing',
      });
    }
    const raw = await fetch(`${server.url}/v1/subscriptions/sub_missing`, {
      headers: { authorization: 'Bearer sk_test_local' },
    });
    expect(raw.status).toBe(404);
    expect(await raw.json()).toEqual({
      error: {
        type: 'invalid_request_error',
        message: "No such subscription: 'sub_missing'",
        code: 'resource_missing',
        param: 'id',
      },
    });

    const customer = await stripe.customers.create({ email: 'ada@example.com' });
    await expect(
      stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: customer.id,
        line_items: [{ price: 'price_missing', quantity: 1 }],
        success_url: 'http://app.test/done',
      }),
    ).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
      param: 'line_items[0][price]',
    });
    await expect(
      stripe.customers.create({ emial: 'typo@example.com' } as Stripe.CustomerCreateParams),
    ).rejects.toMatchObject({ statusCode: 400, message: 'Received unknown parameter: emial' });
    for (const path of ['email', 'metadata', 'missing']) {
      await expect(
        stripe.customers.retrieve(customer.id, { expand: [path] }),
      ).rejects.toMatchObject({
        statusCode: 400,
        param: 'expand',
        message: `This property cannot be expanded (${path}).`,
      });
    }
  });

  it('wants a test secret key', async () => {
    const { server } = await setup();
    const anonymous = await fetch(`${server.url}/v1/customers`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringContaining('API key') },
    });
    const live = new Stripe('sk_live_nope', {
      host: '127.0.0.1',
      port: server.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    await expect(live.customers.create({})).rejects.toBeInstanceOf(
      Stripe.errors.StripeAuthenticationError,
    );
  });

  it('retries a refused delivery and records each try', async () => {
    const env = await setup();
    env.receiver.refuseNext(2);
    await subscribe(env);
    const [first] = env.server.deliveries();
    expect(first).toMatchObject({ type: 'customer.subscription.created', delivered: true });
    expect(first!.attempts.map((attempt) => attempt.status)).toEqual([500, 500, 200]);
    expect(env.verified()).toHaveLength(3);
  });

  it('holds signed events for the test to deliver, or to tamper with', async () => {
    const env = await setup({ webhooks: 'hold' });
    const { subscription } = await subscribe(env);
    expect(env.receiver.received).toEqual([]);
    const held = env.server.takeHeld();
    expect(held.map((entry) => entry.event.type)).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'checkout.session.completed',
    ]);
    expect(env.server.takeHeld()).toEqual([]);
    for (const { payload, header } of held) {
      expect(env.stripe.webhooks.constructEvent(payload, header, secret).id).toBeTruthy();
    }
    const { payload, header, event } = held[0]!;
    expect(event.data.object).toMatchObject({ id: subscription.id });
    expect(await env.server.deliver(payload, header)).toBe(200);
    // Delivered twice: the billing service's handler must be idempotent.
    expect(await env.server.deliver(payload, header)).toBe(200);
    expect(env.verified().map((received) => received.id)).toEqual([event.id, event.id]);

    const stale = env.server.sign(payload, Math.floor(Date.now() / 1000) - 3600);
    expect(() => env.stripe.webhooks.constructEvent(payload, stale, secret)).toThrow(
      /Timestamp outside the tolerance zone/,
    );
  });
});
