import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutSession, ErrorBody, SubscriptionStatus, UserUsage } from '@noted/api';
import { startStripeServer, type StripeServer } from '@noted/testing';
import { freePort, getTestApp, infraLabel, json, type TestApp } from './test/app.js';

const WEBHOOK_SECRET = 'whsec_integration';

/**
 * Plans end to end: the gateway, billing with the real Stripe SDK against a local Stripe that
 * delivers signed webhooks to the gateway, the outbox and the bus, and the users service whose
 * quota follows the plan.
 */
describe(`paid plans through the gateway (${infraLabel})`, () => {
  let app: TestApp;
  let stripe: StripeServer;
  let token: string;

  const waitFor = async <T>(read: () => Promise<T>, done: (value: T) => boolean) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const value = await read();
      if (done(value) || Date.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const status = () =>
    json<SubscriptionStatus>(app.api(token, 'GET', '/api/stripe/subscription-status'));
  const usage = () => json<UserUsage>(app.api(token, 'GET', '/user/usage'));
  const createNote = (title: string) =>
    app.api(token, 'POST', '/api/note/create/direct', { title, note: title });

  beforeAll(async () => {
    const port = await freePort();
    stripe = await startStripeServer({
      prices: [
        { id: 'price_std_m', unitAmount: 500, interval: 'month' },
        { id: 'price_pre_m', unitAmount: 1200, interval: 'month' },
      ],
      webhookSecret: WEBHOOK_SECRET,
      webhookUrl: `http://127.0.0.1:${port}/api/stripe/webhook`,
    });
    app = await getTestApp({
      port,
      env: {
        FREE_NOTES_PER_MONTH: '2',
        STRIPE_SECRET_KEY: 'sk_test_integration',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_integration',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: stripe.url,
        STRIPE_PRICE_STANDARD_MONTHLY: 'price_std_m',
        STRIPE_PRICE_PREMIUM_MONTHLY: 'price_pre_m',
      },
    });
    token = await app.tokenFor(`payer-${randomUUID()}@example.com`);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await stripe?.close();
  });

  it('serves the plans without an account, and takes webhooks only signed', async () => {
    const plans = await app.api(undefined, 'GET', '/api/stripe/plans');
    expect(plans.status).toBe(200);
    expect(await plans.json()).toMatchObject({ paymentsEnabled: true });
    const unsigned = await app.api(undefined, 'POST', '/api/stripe/webhook', {
      id: 'evt_1',
      object: 'event',
      type: 'invoice.paid',
    });
    expect(unsigned.status).toBe(400);
    expect((await json<ErrorBody>(unsigned)).error.code).toBe('BAD_REQUEST');
    expect((await app.api(undefined, 'GET', '/api/stripe/subscription-status')).status).toBe(401);
  });

  it('goes free → standard → premium → cancelled → free, the quota following each step', async () => {
    expect(await status()).toMatchObject({ planName: 'free', status: 'inactive' });
    expect((await usage()).notes.limit).toBe(2);
    expect((await createNote('one')).status).toBe(201);
    expect((await createNote('two')).status).toBe(201);
    const refused = await createNote('three');
    expect(refused.status).toBe(403);
    expect((await json<ErrorBody>(refused)).error.code).toBe('NOTES_LEFT_NOT_ENOUGH');

    // Standard, through Checkout: the webhooks reach the gateway signed.
    const checkout = await app.api(token, 'POST', '/api/stripe/checkout-sessions', {
      plan: 'standard',
      interval: 'month',
    });
    expect(checkout.status).toBe(201);
    const session = await json<CheckoutSession>(checkout);
    const paid = await fetch(`${stripe.url}${new URL(session.url).pathname}/pay`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(paid.headers.get('location')).toBe(
      `${app.url}/subscription/success?session_id=${session.sessionId}`,
    );
    await stripe.webhooksDelivered();
    expect(stripe.deliveries().every((delivery) => delivery.delivered)).toBe(true);
    expect(
      await json<SubscriptionStatus>(
        app.api(token, 'GET', `/api/stripe/verify-subscription/${session.sessionId}`),
      ),
    ).toMatchObject({ planName: 'standard', isActive: true });
    // The users service hears of it through the bus: the quota follows within seconds.
    expect((await waitFor(usage, (u) => u.notes.limit === 1000)).notes).toEqual({
      used: 2,
      limit: 1000,
    });
    expect((await createNote('three')).status).toBe(201);

    // Premium: the subscription changes in place.
    const changed = await app.api(token, 'PUT', '/api/stripe/subscription', {
      plan: 'premium',
      interval: 'month',
    });
    expect(await json<SubscriptionStatus>(changed)).toMatchObject({ planName: 'premium' });
    expect((await waitFor(usage, (u) => u.notes.limit === -1)).recordingTimeLimit).toBe(3600);

    // Cancelled: premium until the period ends, then free; the notes stay.
    const cancelled = await app.api(token, 'DELETE', '/api/stripe/subscription');
    expect(await json<SubscriptionStatus>(cancelled)).toMatchObject({
      planName: 'premium',
      cancelAtPeriodEnd: true,
    });
    const [subscription] = stripe
      .events()
      .filter((event) => event.type === 'customer.subscription.created')
      .map((event) => (event.data.object as { id: string }).id);
    await stripe.endPeriod(subscription ?? '');
    expect(await waitFor(status, (s) => s.planName === 'free')).toMatchObject({
      status: 'canceled',
      isActive: false,
    });
    expect((await waitFor(usage, (u) => u.notes.limit === 2)).notes).toEqual({
      used: 3,
      limit: 2,
    });
    const overQuota = await createNote('four');
    expect(overQuota.status).toBe(403);
    expect((await json<ErrorBody>(overQuota)).error.code).toBe('NOTES_LEFT_NOT_ENOUGH');
    const list = await json<{ total: number }>(app.api(token, 'GET', '/api/notes'));
    expect(list.total).toBe(3);
  });

  it('never shows one user another user’s checkout', async () => {
    const other = await app.tokenFor(`other-${randomUUID()}@example.com`);
    const mine = await json<CheckoutSession>(
      app.api(token, 'POST', '/api/stripe/checkout-sessions', { plan: 'standard' }),
    );
    const theirs = await app.api(other, 'GET', `/api/stripe/verify-subscription/${mine.sessionId}`);
    expect(theirs.status).toBe(404);
    expect((await json<ErrorBody>(theirs)).error.code).toBe('NOT_FOUND');
  });
});
