import Stripe from 'stripe';
import { AppError } from '@noted/api';
import { paying, type BillingContext, type PayingContext as Paying } from '../context.js';
import { eventTypeLabel, webhookEvents } from '../metrics.js';
import { WEBHOOK_TOLERANCE_SECONDS, invoiceSubscriptionId } from '../stripe.js';
import { subscriptionsRepository } from '../subscriptions/repository.js';
import {
  applySubscription,
  checkoutApply,
  readSubscription,
  settleEvent,
  unknownObject,
  type StripeEventRef,
  type SyncOutcome,
} from '../subscriptions/sync.js';

const badSignature = () =>
  new AppError(
    'BAD_REQUEST',
    'The Stripe-Signature does not match this event, or it was not made within 5 minutes of now',
  );

/** The signing time of a Stripe-Signature, read as the SDK reads it (the last `t=` wins). */
const signedAt = (header: string): number => {
  let timestamp = Number.NaN;
  for (const part of header.split(',')) {
    const [key, value] = part.split('=');
    if (key === 't') timestamp = Number.parseInt(value ?? '', 10);
  }
  return timestamp;
};

/** What billing reads of any event; a signed body without it is not one of Stripe's events. */
const isEvent = (value: unknown): value is Stripe.Event => {
  const event = value as Partial<Stripe.Event> | null;
  return (
    typeof event?.id === 'string' &&
    event.id !== '' &&
    typeof event.type === 'string' &&
    typeof event.data?.object === 'object' &&
    event.data.object !== null
  );
};

/**
 * Checks Stripe's signature over the exact bytes received, signed within the tolerance of now
 * in either direction (the SDK only refuses old ones); anything else is refused.
 */
const verified = (ctx: Paying, rawBody: Buffer | undefined, signature: string | undefined) => {
  const secret = ctx.stripe.settings.webhookSecret;
  if (!secret) {
    throw new AppError(
      'UNAVAILABLE',
      'Webhooks are not configured: STRIPE_WEBHOOK_SECRET is unset',
    );
  }
  if (!rawBody || !signature) {
    throw new AppError('BAD_REQUEST', 'A Stripe event must come with its Stripe-Signature');
  }
  const now = ctx.now().getTime();
  let event: unknown;
  try {
    event = ctx.stripe.client.webhooks.constructEvent(
      rawBody,
      signature,
      secret,
      WEBHOOK_TOLERANCE_SECONDS,
      undefined,
      now,
    );
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw badSignature();
    // Signed, but not JSON: no event of Stripe's.
    if (error instanceof SyntaxError) throw new AppError('BAD_REQUEST', 'The body is not JSON');
    throw error;
  }
  if (!(signedAt(signature) - Math.floor(now / 1000) <= WEBHOOK_TOLERANCE_SECONDS)) {
    throw badSignature();
  }
  if (!isEvent(event)) throw new AppError('BAD_REQUEST', 'The body is not a Stripe event');
  return event;
};

/**
 * Takes one Stripe event: verifies it, and applies the state of the subscription it concerns
 * as Stripe has it now (read again, so events arriving late, twice or out of order converge on
 * the latest state), once per event id.
 *
 * An event about an object Stripe does not have (deleted there, or never there), or one that
 * would link a user or customer already linked to another, is acknowledged (200) with nothing
 * written but its id, as Stripe advises: a failure would be redelivered for days to the same
 * end. Only a failure that may pass answers 5xx, so that Stripe delivers the event again:
 * Stripe unreachable or failing (503 UNAVAILABLE), our database down, or Stripe refusing our
 * own request (a wrong key: 500 until it is fixed).
 */
export const webhookReceive = async (
  context: BillingContext,
  rawBody: Buffer | undefined,
  signature: string | undefined,
): Promise<{ received: true; duplicate: boolean }> => {
  let ctx: Paying;
  let event: Stripe.Event;
  try {
    ctx = paying(context);
    event = verified(ctx, rawBody, signature);
  } catch (error) {
    webhookEvents.inc({ type: 'other', outcome: 'refused' });
    throw error;
  }
  const type = eventTypeLabel(event.type);
  try {
    const outcome = await apply(ctx, event);
    webhookEvents.inc({ type, outcome });
    ctx.logger.info({ stripeEvent: event.id, type: event.type, outcome }, 'Stripe event');
    return { received: true, duplicate: outcome === 'duplicate' };
  } catch (error) {
    webhookEvents.inc({ type, outcome: 'failed' });
    throw error;
  }
};

/** The id of the event's object, when it has one. */
const objectId = (event: Stripe.Event) => {
  const { id } = event.data.object as { id?: unknown };
  return typeof id === 'string' && id !== '' ? id : undefined;
};

/** The subscription a subscription or invoice event is about (a checkout is read whole). */
const subscriptionOf = (event: Stripe.Event): string | undefined => {
  switch (event.type) {
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return objectId(event);
    case 'invoice.paid':
    case 'invoice.payment_failed':
      return invoiceSubscriptionId(event.data.object);
    default:
      return undefined;
  }
};

const apply = async (ctx: Paying, event: Stripe.Event): Promise<SyncOutcome | 'ignored'> => {
  const ref: StripeEventRef = { id: event.id, type: event.type };
  // A redelivery is answered without asking Stripe; a parallel one is caught by the transaction.
  if (await subscriptionsRepository.eventSeen(ctx.knex, event.id)) return 'duplicate';
  if (event.type === 'checkout.session.completed') {
    const sessionId = objectId(event);
    if (sessionId && event.data.object.mode === 'subscription') {
      return checkoutApply(ctx, sessionId, ref);
    }
    return settleEvent(ctx, ref, 'ignored');
  }
  const subscriptionId = subscriptionOf(event);
  if (!subscriptionId) return settleEvent(ctx, ref, 'ignored');
  const read = await readSubscription(ctx, subscriptionId);
  if (!read) {
    return settleEvent(
      ctx,
      ref,
      unknownObject(ctx, { stripeEvent: event.id, subscription: subscriptionId }),
    );
  }
  return applySubscription(ctx, read, ref);
};
