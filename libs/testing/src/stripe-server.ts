import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  API_VERSION,
  type StripeEvent,
  type StripeEventType,
  type StripeServerPrice,
  type StripeSubscription,
} from './stripe/objects.js';
import { checkoutPage, messagePage, portalPage } from './stripe/pages.js';
import { createStripeState, type StripeState } from './stripe/state.js';
import { createOutbox, type HeldWebhook, type WebhookDelivery } from './stripe/webhooks.js';
import {
  allowOnly,
  errorBody,
  expandList,
  invalid,
  newId,
  parseParams,
  readBody,
  secretKey,
  send,
  StripeApiError,
  type Params,
} from './stripe/wire.js';

/**
 * A stateful local server speaking Stripe's REST wire format (API version 2026-10-28.endive)
 * well enough for the real `stripe` SDK to drive subscription billing: customers (and their
 * deletion), prices, Checkout Sessions with a hosted checkout page, subscriptions, the customer
 * portal, and signed webhooks, with controls that move a subscription through its periods as
 * Stripe's test clocks would, or make Stripe forget an object. Reach it with
 * `new Stripe('sk_test_...', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 })`.
 */

export type {
  StripeCheckoutSession,
  StripeCustomer,
  StripeDeletedCustomer,
  StripeEvent,
  StripeEventType,
  StripeInvoice,
  StripePortalSession,
  StripePrice,
  StripeServerPrice,
  StripeSubscription,
} from './stripe/objects.js';
export type { HeldWebhook, WebhookDelivery } from './stripe/webhooks.js';
export { signatureHeader } from './stripe/webhooks.js';

export interface StripeServerOptions {
  /** The prices `GET /v1/prices/:id` and checkout know. */
  prices: StripeServerPrice[];
  /** The endpoint's signing secret, `whsec_...`. */
  webhookSecret: string;
  /** Where events are POSTed when `webhooks` is `'deliver'`. */
  webhookUrl?: string;
  /** `'deliver'` (the default with a webhookUrl) or `'hold'` (the default without): see takeHeld. */
  webhooks?: 'deliver' | 'hold';
  /** Base of the checkout and portal URLs handed out; defaults to the server's own URL. */
  publicUrl?: string;
  /** The server's clock in unix seconds, for objects and events; defaults to the wall clock. */
  now?: () => number;
  /** Pause before each retry of a failed delivery (3 retries); default 100 ms. */
  webhookRetryDelayMs?: number;
  /** The port on 127.0.0.1; a free one by default. */
  port?: number;
}

export interface StripeServer {
  /** `http://127.0.0.1:PORT`, the SDK's host and port. */
  readonly url: string;
  readonly port: number;
  /** Every event emitted so far, in order. */
  events(): StripeEvent[];
  /** The held deliveries (`webhooks: 'hold'`), signed; taking them empties the queue. */
  takeHeld(): HeldWebhook[];
  /** What each delivery to webhookUrl did (`webhooks: 'deliver'`). */
  deliveries(): WebhookDelivery[];
  /** Resolves when every event emitted so far has been delivered or given up on. */
  webhooksDelivered(): Promise<void>;
  /** The `Stripe-Signature` value for a payload, signed now or at `timestamp` (unix seconds). */
  sign(payload: string, timestamp?: number): string;
  /** POSTs one signed body to webhookUrl, as Stripe would; resolves to the status answered. */
  deliver(payload: string, header: string): Promise<number>;
  /**
   * The current period ends: a subscription set to cancel at period end is canceled
   * (`customer.subscription.deleted`); any other renews for one more interval with a paid
   * invoice (`invoice.paid`, then `customer.subscription.updated`), a trial becoming active.
   * Resolves once those events are delivered.
   */
  endPeriod(subscriptionId: string): Promise<StripeSubscription>;
  /**
   * The payment of the subscription's next invoice fails: an open invoice, status `past_due`
   * (`invoice.payment_failed`, then `customer.subscription.updated`). The period stays as it is.
   */
  failPayment(subscriptionId: string): Promise<StripeSubscription>;
  /** The customer's subscriptions, oldest first, as they are now. */
  subscriptionsOf(customerId: string): StripeSubscription[];
  /**
   * The object (a customer, subscription, checkout session, ...) is gone from Stripe, as after
   * the Dashboard's "Delete all test data": from now on its reads answer 404 `resource_missing`
   * and a parameter naming it 400 `resource_missing`. No event is sent.
   */
  forget(id: string): void;
  close(): Promise<void>;
}

interface Outcome {
  status: number;
  json: string;
}

type Route = [method: string, path: RegExp, run: (id: string, params: Params) => object];

const retrieve = (find: (id: string) => object) => (id: string, params: Params) => {
  allowOnly(params, ['expand']);
  return find(id);
};

const apiRoutes = (state: StripeState): Route[] => [
  ['POST', /^\/v1\/customers$/, (_, params) => state.createCustomer(params)],
  ['GET', /^\/v1\/customers\/([^/]+)$/, retrieve(state.customer)],
  ['DELETE', /^\/v1\/customers\/([^/]+)$/, state.deleteCustomer],
  ['GET', /^\/v1\/prices\/([^/]+)$/, retrieve(state.price)],
  ['POST', /^\/v1\/checkout\/sessions$/, (_, params) => state.createCheckout(params)],
  ['GET', /^\/v1\/checkout\/sessions\/([^/]+)$/, retrieve((id) => state.checkout(id).session)],
  ['GET', /^\/v1\/subscriptions$/, (_, params) => state.listSubscriptions(params)],
  ['GET', /^\/v1\/subscriptions\/([^/]+)$/, retrieve(state.subscription)],
  ['POST', /^\/v1\/subscriptions\/([^/]+)$/, state.updateSubscription],
  ['DELETE', /^\/v1\/subscriptions\/([^/]+)$/, state.cancelSubscription],
  ['POST', /^\/v1\/billing_portal\/sessions$/, (_, params) => state.createPortal(params)],
];

/** Replaces ids by their objects along each `expand[]` path, refusing paths Stripe would. */
const expand = (
  state: StripeState,
  target: Record<string, unknown>,
  path: string[],
  full: string,
) => {
  const [head, ...rest] = path;
  if (target.object === 'list' && head === 'data' && Array.isArray(target.data)) {
    for (const entry of target.data) expand(state, entry as Record<string, unknown>, rest, full);
    return;
  }
  const refuse = () => invalid(`This property cannot be expanded (${full}).`, 'expand');
  if (head === undefined || !(head in target)) throw refuse();
  const value = target[head];
  if (typeof value === 'string' && rest.length === 0) {
    const found = state.byId(value);
    if (!found) throw refuse();
    target[head] = structuredClone(found);
  } else if (value !== null && typeof value === 'object' && rest.length > 0) {
    expand(state, value as Record<string, unknown>, rest, full);
  } else if (value !== null && !(typeof value === 'object' && rest.length === 0 && 'id' in value)) {
    throw refuse();
  }
};

export const startStripeServer = async (options: StripeServerOptions): Promise<StripeServer> => {
  const mode = options.webhooks ?? (options.webhookUrl ? 'deliver' : 'hold');
  if (mode === 'deliver' && !options.webhookUrl) {
    throw new Error("startStripeServer: webhooks: 'deliver' needs a webhookUrl");
  }
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const outbox = createOutbox({
    mode,
    url: options.webhookUrl,
    secret: options.webhookSecret,
    retries: 3,
    retryDelayMs: options.webhookRetryDelayMs ?? 100,
  });
  const events: StripeEvent[] = [];
  const emit = (type: StripeEventType, object: object, previous?: Record<string, unknown>) => {
    const event: StripeEvent = {
      id: newId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: now(),
      data: {
        object: structuredClone(object) as Record<string, unknown>,
        ...(previous ? { previous_attributes: structuredClone(previous) } : {}),
      },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    events.push(event);
    outbox.push(event);
  };

  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const state = createStripeState({
    prices: options.prices,
    now,
    publicUrl: (options.publicUrl ?? url).replace(/\/$/, ''),
    emit,
  });
  const routes = apiRoutes(state);
  /** Idempotency-Key → the request it first came with and the answer given. */
  const idempotent = new Map<string, Outcome & { path: string; body: string }>();

  const authenticate = (req: IncomingMessage) => {
    const key = secretKey(req);
    if (!key) {
      throw new StripeApiError(
        401,
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      );
    }
    if (!key.startsWith('sk_test_')) {
      throw new StripeApiError(401, `Invalid API Key provided: ${key.slice(0, 8)}***`);
    }
  };

  /** Runs the route; Stripe's errors become answers too, so an idempotent replay repeats them. */
  const attempt = (method: string, path: string, params: Params): Outcome => {
    try {
      const route = routes.find(([verb, pattern]) => verb === method && pattern.test(path));
      if (!route) throw new StripeApiError(404, `Unrecognized request URL (${method}: ${path}).`);
      const id = decodeURIComponent(path.match(route[1])![1] ?? '');
      const result = structuredClone(route[2](id, params)) as Record<string, unknown>;
      for (const entry of expandList(params)) expand(state, result, entry.split('.'), entry);
      return { status: 200, json: JSON.stringify(result, null, 2) };
    } catch (error) {
      if (error instanceof StripeApiError) return { status: error.status, json: errorBody(error) };
      throw error;
    }
  };

  const api = async (req: IncomingMessage, res: ServerResponse, path: string, query: string) => {
    const body = await readBody(req);
    const method = req.method ?? 'GET';
    const key = method === 'POST' ? req.headers['idempotency-key'] : undefined;
    const respond = (): Outcome & { replayed?: boolean } => {
      authenticate(req);
      const run = () => attempt(method, path, { ...parseParams(query), ...parseParams(body) });
      if (typeof key !== 'string') return run();
      const first = idempotent.get(key);
      if (!first) {
        const outcome = run();
        idempotent.set(key, { path, body, ...outcome });
        return outcome;
      }
      if (first.path !== path || first.body !== body) {
        throw new StripeApiError(
          400,
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          { type: 'idempotency_error' },
        );
      }
      return { ...first, replayed: true };
    };
    let outcome: Outcome & { replayed?: boolean };
    try {
      outcome = respond();
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      outcome = { status: error.status, json: errorBody(error) };
    }
    send(res, outcome.status, outcome.json, {
      'content-type': 'application/json',
      'request-id': newId('req', 14),
      'stripe-version': String(req.headers['stripe-version'] ?? API_VERSION),
      ...(outcome.replayed ? { 'idempotent-replayed': 'true' } : {}),
    });
  };

  const html = (res: ServerResponse, status: number, body: string) =>
    send(res, status, body, { 'content-type': 'text/html; charset=utf-8' });
  const redirect = (res: ServerResponse, location: string) => send(res, 303, '', { location });

  const pages = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    await readBody(req);
    const [, kind, id = '', action] = path.split('/').map(decodeURIComponent);
    const route = `${req.method} ${kind}${action ? `/${action}` : ''}`;
    if (route === 'GET checkout') {
      const { session, priceId, trialDays } = state.checkout(id);
      const price = state.price(priceId);
      if (session.status !== 'open') {
        html(res, 200, messagePage('Checkout', `This checkout is ${session.status}.`));
      } else {
        html(
          res,
          200,
          checkoutPage(
            session,
            price,
            trialDays ?? price.recurring?.trial_period_days ?? undefined,
          ),
        );
      }
    } else if (route === 'POST checkout/pay') {
      const session = state.payCheckout(id);
      await outbox.idle();
      if (session.success_url)
        redirect(res, session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', id));
      else html(res, 200, messagePage('Checkout', 'Payment complete.'));
    } else if (route === 'GET portal') {
      const portal = state.portal(id);
      html(res, 200, portalPage(id, portal.return_url, state.subscriptionOf(portal.customer)));
    } else if (route === 'POST portal/cancel' || route === 'POST portal/renew') {
      const subscription = state.subscriptionOf(state.portal(id).customer);
      if (!subscription || subscription.status === 'canceled') {
        throw invalid('There is no subscription to change.');
      }
      state.cancelAtPeriodEnd(subscription.id, action === 'cancel');
      await outbox.idle();
      redirect(res, `/portal/${encodeURIComponent(id)}`);
    } else {
      throw new StripeApiError(404, `No page at ${req.method} ${path}`);
    }
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const { pathname, search } = new URL(req.url ?? '/', url);
    const isApi = pathname.startsWith('/v1/');
    const handled = isApi ? api(req, res, pathname, search.slice(1)) : pages(req, res, pathname);
    handled.catch((error: unknown) => {
      if (res.headersSent) return res.destroy();
      const known = error instanceof StripeApiError;
      const status = known ? error.status : 500;
      const message = error instanceof Error ? error.message : String(error);
      if (isApi) {
        const failure = new StripeApiError(status, message, {
          type: known ? undefined : 'api_error',
        });
        send(res, status, errorBody(failure), { 'content-type': 'application/json' });
      } else {
        html(res, status, messagePage(status === 404 ? 'Not found' : 'Error', message));
      }
    });
  });

  const settled = async <T>(value: T): Promise<T> => {
    await outbox.idle();
    return value;
  };

  return {
    url,
    port,
    events: () => structuredClone(events),
    takeHeld: () => outbox.takeHeld(),
    deliveries: () => structuredClone(outbox.deliveries),
    webhooksDelivered: () => outbox.idle(),
    sign: (payload, timestamp) => outbox.sign(payload, timestamp),
    deliver: (payload, header) => outbox.post(payload, header),
    endPeriod: async (subscriptionId) => settled(state.endPeriod(subscriptionId)),
    failPayment: async (subscriptionId) => settled(state.failPayment(subscriptionId)),
    subscriptionsOf: (customerId) => state.subscriptionsOf(customerId),
    forget: (id) => state.forget(id),
    close: async () => {
      await outbox.idle();
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
    },
  };
};
