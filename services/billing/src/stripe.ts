import Stripe from 'stripe';
import { AppError } from '@noted/api';
import type { StripeSettings } from './config.js';

/** Stripe's answers wait this long at most; a webhook is retried by Stripe if we fail it. */
const STRIPE_TIMEOUT_MS = 20_000;

/** Webhook signatures older than this are refused (Stripe's own default). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The real SDK, against Stripe or, in tests, a local server that speaks its wire format. */
export const createStripeClient = (settings: StripeSettings): Stripe => {
  const local = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
  return new Stripe(settings.secretKey, {
    timeout: STRIPE_TIMEOUT_MS,
    maxNetworkRetries: 2,
    appInfo: { name: 'Noted' },
    telemetry: false,
    ...(local
      ? {
          host: local.hostname,
          port: Number(local.port || (local.protocol === 'https:' ? 443 : 80)),
          protocol: local.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
};

/**
 * A Stripe failure as the API answers it: Stripe unreachable or failing is 503 (try again; the
 * only Stripe failure a webhook answers with 5xx, so that Stripe redelivers), anything Stripe
 * refused is our fault (a wrong key, a bad parameter) and logged, never shown with Stripe's text.
 */
export const stripeFailure = (error: unknown): AppError => {
  if (error instanceof AppError) return error;
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError
  ) {
    return new AppError('UNAVAILABLE', 'The payment provider is not answering; try again shortly');
  }
  return new AppError('INTERNAL', 'The payment provider refused the request');
};

/** Runs a Stripe call, turning its failures into the API's. */
export const callStripe = async <T>(call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    throw Object.assign(stripeFailure(error), { cause: error });
  }
};

/**
 * Stripe has no such object: `resource_missing`, 404 for the id in the path, 400 for one in a
 * parameter (`param` names it). Stripe answers so for ever after, so it is never retried.
 */
export const isMissingInStripe = (error: unknown, param?: string): boolean =>
  error instanceof Stripe.errors.StripeInvalidRequestError &&
  error.code === 'resource_missing' &&
  (param === undefined || error.param === param);

/**
 * Runs a Stripe call as callStripe does, but answers undefined when Stripe has no such object
 * (the one in the path, or the one `param` names), which the caller handles as a fact.
 */
export const callStripeIfFound = async <T>(
  call: () => Promise<T>,
  param?: string,
): Promise<T | undefined> => {
  try {
    return await call();
  } catch (error) {
    if (isMissingInStripe(error, param)) return undefined;
    throw Object.assign(stripeFailure(error), { cause: error });
  }
};

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? undefined);

/** The subscription an invoice bills (its parent since API 2025-03-31, the old field before). */
export const invoiceSubscriptionId = (invoice: Stripe.Invoice): string | undefined => {
  const details = invoice.parent?.subscription_details;
  const legacy = (invoice as unknown as { subscription?: string | { id: string } | null })
    .subscription;
  return idOf(details?.subscription) ?? idOf(legacy);
};

export const customerIdOf = (value: string | { id: string } | null | undefined) => idOf(value);

/** A subscription's one item: its price and its period (items hold the period since 2025-03-31). */
export const subscriptionItem = (subscription: Stripe.Subscription) => {
  const item = subscription.items.data[0];
  if (!item) throw new AppError('INTERNAL', `Subscription ${subscription.id} has no item`);
  return item;
};

export const fromUnix = (seconds: number | null | undefined) =>
  seconds ? new Date(seconds * 1000) : null;
