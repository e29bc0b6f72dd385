import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { infraUrl } from './infra.js';
import { startStripeServer, type StripeServer } from './stripe-server.js';

/**
 * The local Stripe server against stripe-mock, Stripe's own mock generated from its OpenAPI
 * document (deploy/local/stripe-mock.sh): each SDK call the billing service makes goes to both,
 * and every field the service reads must be in both answers with the same JSON type (`object`
 * with the same value). stripe-mock is stateless and answers from fixtures, so values differ.
 */

const stripeMockUrl = infraUrl('stripe-mock', 'STRIPE_MOCK_URL');

type JsonType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null';
/** Field path (dots, numbers index arrays) → the JSON types Stripe documents for it. */
type Fields = Record<string, JsonType | JsonType[]>;

const jsonType = (value: unknown): JsonType | 'undefined' =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : (typeof value as JsonType | 'undefined');

const at = (value: unknown, path: string): { present: boolean; value: unknown } => {
  let current = value;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object' || !(key in current)) {
      return { present: false, value: undefined };
    }
    current = (current as Record<string, unknown>)[key];
  }
  return { present: true, value: current };
};

/**
 * Fields (by the end of their path) that stripe-mock v0.203.0's fixtures lack although API
 * 2026-10-28.endive and the SDK's types have them: checked on the local server only, and listed
 * so that a stripe-mock that has them fails here until the entry goes.
 */
const missingFromStripeMock: Record<string, string> = {
  'recurring.trial_period_days':
    'no price fixture has recurring.trial_period_days (the SDK types it number | null)',
};
const knownGap = (path: string) =>
  Object.keys(missingFromStripeMock).some((end) => path === end || path.endsWith(`.${end}`));

/** JSON as it crossed the wire: the SDK turns decimal strings into its Decimal class. */
const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const conforms = (label: string, fields: Fields, mock: unknown, local: unknown) => {
  const answers = { 'stripe-mock': wire(mock), local: wire(local) };
  for (const [path, types] of Object.entries(fields)) {
    const allowed = Array.isArray(types) ? types : [types];
    for (const [who, answer] of Object.entries(answers)) {
      const found = at(answer, path);
      if (who === 'stripe-mock' && knownGap(path)) {
        expect(found.present, `${label}.${path} has come to stripe-mock: drop the note`).toBe(
          false,
        );
        continue;
      }
      expect(found.present, `${who} answers ${label} without ${path}`).toBe(true);
      expect(allowed, `${who}: ${label}.${path} is ${jsonType(found.value)}`).toContain(
        jsonType(found.value),
      );
    }
    const kind = at(answers.local, path).value;
    if ((path === 'object' || path.endsWith('.object')) && typeof kind === 'string') {
      expect(kind, `${label}.${path}`).toBe(at(answers['stripe-mock'], path).value);
    }
  }
};

const timestamp: JsonType = 'number';
const maybe = (type: JsonType): JsonType[] => [type, 'null'];

const customerFields: Fields = {
  id: 'string',
  object: 'string',
  email: maybe('string'),
  name: maybe('string'),
  metadata: 'object',
  created: timestamp,
  livemode: 'boolean',
};

const priceFields: Fields = {
  id: 'string',
  object: 'string',
  active: 'boolean',
  currency: 'string',
  unit_amount: maybe('number'),
  product: 'string',
  type: 'string',
  livemode: 'boolean',
  recurring: 'object',
  'recurring.interval': 'string',
  'recurring.interval_count': 'number',
  'recurring.trial_period_days': maybe('number'),
  'recurring.usage_type': 'string',
};

const subscriptionFields: Fields = {
  id: 'string',
  object: 'string',
  customer: 'string',
  status: 'string',
  cancel_at_period_end: 'boolean',
  cancel_at: maybe(timestamp),
  canceled_at: maybe(timestamp),
  ended_at: maybe(timestamp),
  trial_start: maybe(timestamp),
  trial_end: maybe(timestamp),
  created: timestamp,
  start_date: timestamp,
  metadata: 'object',
  latest_invoice: maybe('string'),
  livemode: 'boolean',
  items: 'object',
  'items.object': 'string',
  'items.data': 'array',
  'items.has_more': 'boolean',
  'items.data.0.id': 'string',
  'items.data.0.object': 'string',
  'items.data.0.quantity': 'number',
  'items.data.0.current_period_start': timestamp,
  'items.data.0.current_period_end': timestamp,
  'items.data.0.subscription': 'string',
  'items.data.0.price': 'object',
  ...Object.fromEntries(
    Object.entries(priceFields).map(([path, types]) => [`items.data.0.price.${path}`, types]),
  ),
};

const sessionFields: Fields = {
  id: 'string',
  object: 'string',
  mode: 'string',
  status: maybe('string'),
  payment_status: 'string',
  url: maybe('string'),
  customer: maybe('string'),
  client_reference_id: maybe('string'),
  metadata: maybe('object'),
  success_url: maybe('string'),
  cancel_url: maybe('string'),
  created: timestamp,
  expires_at: timestamp,
  livemode: 'boolean',
};

const portalFields: Fields = {
  id: 'string',
  object: 'string',
  customer: 'string',
  return_url: maybe('string'),
  url: 'string',
  created: timestamp,
  livemode: 'boolean',
};

const invoiceFields: Fields = {
  id: 'string',
  object: 'string',
  customer: 'string',
  status: maybe('string'),
  amount_due: 'number',
  amount_paid: 'number',
  currency: 'string',
  created: timestamp,
  parent: maybe('object'),
  'parent.type': 'string',
  'parent.subscription_details': maybe('object'),
  'parent.subscription_details.subscription': 'string',
  'parent.subscription_details.metadata': maybe('object'),
  lines: 'object',
  'lines.object': 'string',
  'lines.data': 'array',
};

const eventFields: Fields = {
  id: 'string',
  object: 'string',
  api_version: maybe('string'),
  created: timestamp,
  data: 'object',
  'data.object': 'object',
  livemode: 'boolean',
  pending_webhooks: 'number',
  request: maybe('object'),
  'request.id': maybe('string'),
  'request.idempotency_key': maybe('string'),
  type: 'string',
};

const client = (url: string) => {
  const { hostname, port } = new URL(url);
  return new Stripe('sk_test_conformance', {
    host: hostname,
    port: Number(port),
    protocol: 'http',
    maxNetworkRetries: 0,
  });
};

describe.skipIf(!stripeMockUrl)('the local Stripe server answers as stripe-mock does', () => {
  let server: StripeServer;
  let mock: Stripe;
  let local: Stripe;
  let customer: Stripe.Customer;
  let session: Stripe.Checkout.Session;
  let subscription: Stripe.Subscription;
  let held: ReturnType<StripeServer['takeHeld']>;

  const checkoutParams = (customerId: string): Stripe.Checkout.SessionCreateParams => ({
    mode: 'subscription',
    customer: customerId,
    client_reference_id: 'user-1',
    line_items: [{ price: 'price_pro_monthly', quantity: 1 }],
    success_url: 'http://app.test/billing/done?session={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://app.test/billing',
    metadata: { userId: 'user-1' },
    subscription_data: { metadata: { userId: 'user-1' }, trial_period_days: 7 },
  });

  beforeAll(async () => {
    server = await startStripeServer({
      prices: [{ id: 'price_pro_monthly', unitAmount: 900, interval: 'month' }],
      webhookSecret: 'whsec_conformance',
      webhooks: 'hold',
    });
    mock = client(stripeMockUrl!);
    local = client(server.url);
    customer = await local.customers.create({ email: 'ada@example.com', name: 'Ada' });
    session = await local.checkout.sessions.create(checkoutParams(customer.id));
    const paid = await fetch(`${session.url}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    subscription = (await local.subscriptions.list({ customer: customer.id })).data[0]!;
    // A renewal, so that an invoice.paid is held as well.
    await server.endPeriod(subscription.id);
    held = server.takeHeld();
  });
  afterAll(() => server?.close());

  it('POST /v1/customers', async () => {
    const params = { email: 'ada@example.com', name: 'Ada', metadata: { userId: 'user-1' } };
    conforms(
      'customer',
      customerFields,
      await mock.customers.create(params),
      await local.customers.create(params),
    );
  });

  it('GET /v1/customers/:id', async () => {
    conforms(
      'customer',
      customerFields,
      await mock.customers.retrieve('cus_123'),
      await local.customers.retrieve(customer.id),
    );
  });

  it('DELETE /v1/customers/:id', async () => {
    const deletedFields: Fields = { id: 'string', object: 'string', deleted: 'boolean' };
    const doomed = await local.customers.create({ email: 'doomed@example.com' });
    conforms(
      'customer',
      deletedFields,
      await mock.customers.del('cus_123'),
      await local.customers.del(doomed.id),
    );
  });

  it('GET /v1/prices/:id', async () => {
    conforms(
      'price',
      priceFields,
      await mock.prices.retrieve('price_123'),
      await local.prices.retrieve('price_pro_monthly'),
    );
  });

  it('POST /v1/checkout/sessions', async () => {
    conforms(
      'checkout.session',
      { ...sessionFields, subscription: maybe('string') },
      await mock.checkout.sessions.create(checkoutParams('cus_123')),
      await local.checkout.sessions.create(checkoutParams(customer.id)),
    );
  });

  it('GET /v1/checkout/sessions/:id with expand[]=subscription', async () => {
    const expanded = Object.fromEntries(
      Object.entries(subscriptionFields).map(([path, types]) => [`subscription.${path}`, types]),
    );
    conforms(
      'checkout.session',
      { ...sessionFields, subscription: 'object', ...expanded },
      await mock.checkout.sessions.retrieve('cs_test_123', { expand: ['subscription'] }),
      await local.checkout.sessions.retrieve(session.id, { expand: ['subscription'] }),
    );
  });

  it('GET /v1/subscriptions/:id', async () => {
    conforms(
      'subscription',
      subscriptionFields,
      await mock.subscriptions.retrieve('sub_123'),
      await local.subscriptions.retrieve(subscription.id),
    );
  });

  it('GET /v1/subscriptions?customer&status=all&limit', async () => {
    const listed = Object.fromEntries(
      Object.entries(subscriptionFields).map(([path, types]) => [`data.0.${path}`, types]),
    );
    const fields: Fields = {
      object: 'string',
      data: 'array',
      has_more: 'boolean',
      url: 'string',
      ...listed,
    };
    conforms(
      'list',
      fields,
      await mock.subscriptions.list({ customer: 'cus_123', status: 'all', limit: 10 }),
      await local.subscriptions.list({ customer: customer.id, status: 'all', limit: 10 }),
    );
  });

  it('POST /v1/subscriptions/:id changing the plan', async () => {
    const params = (itemId: string): Stripe.SubscriptionUpdateParams => ({
      items: [{ id: itemId, price: 'price_pro_monthly' }],
      proration_behavior: 'create_prorations',
      metadata: { plan: 'pro' },
    });
    conforms(
      'subscription',
      subscriptionFields,
      await mock.subscriptions.update('sub_123', params('si_123')),
      await local.subscriptions.update(subscription.id, params(subscription.items.data[0]!.id)),
    );
  });

  it('POST /v1/subscriptions/:id with cancel_at_period_end', async () => {
    conforms(
      'subscription',
      subscriptionFields,
      await mock.subscriptions.update('sub_123', { cancel_at_period_end: true }),
      await local.subscriptions.update(subscription.id, { cancel_at_period_end: true }),
    );
  });

  it('POST /v1/billing_portal/sessions', async () => {
    const params = (id: string) => ({ customer: id, return_url: 'http://app.test/billing' });
    conforms(
      'billing_portal.session',
      portalFields,
      await mock.billingPortal.sessions.create(params('cus_123')),
      await local.billingPortal.sessions.create(params(customer.id)),
    );
  });

  it('DELETE /v1/subscriptions/:id', async () => {
    conforms(
      'subscription',
      subscriptionFields,
      await mock.subscriptions.cancel('sub_123'),
      await local.subscriptions.cancel(subscription.id),
    );
  });

  it('the invoice of invoice.paid is an invoice as GET /v1/invoices/:id has it', async () => {
    const paid = held.find((entry) => entry.event.type === 'invoice.paid');
    expect(paid).toBeDefined();
    conforms(
      'invoice',
      invoiceFields,
      await mock.invoices.retrieve('in_123'),
      paid!.event.data.object,
    );
  });

  it('webhook events are events as GET /v1/events/:id has them', async () => {
    expect(held.map((entry) => entry.event.type)).toEqual([
      'customer.subscription.created',
      'checkout.session.completed',
      'invoice.paid',
      'customer.subscription.updated',
    ]);
    const mockEvent = await mock.events.retrieve('evt_123');
    for (const { payload } of held) conforms('event', eventFields, mockEvent, JSON.parse(payload));
  });
});
