import Stripe from 'stripe';
import { AppError } from '@noted/api';
import { paying, type BillingContext, type PayingContext as Paying } from '../context.js';
import { eventTypeLabel, webhookEvents } from '../metrics.js';
import {
  WEBHOOK_TOLERANCE_SECONDS,
  callStripe,
  customerIdOf,
  invoiceSubscriptionId,
} from '../stripe.js';
import { subscriptionsRepository } from '../subscriptions/repository.js';
import {
  applySubscription,
  readSubscription,
  type StripeEventRef,
  type SyncOutcome,
} from '../subscriptions/sync.js';

/** Checks Stripe's signature over the exact bytes received; anything else is refused. */
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
  try {
    return ctx.stripe.client.webhooks.constructEvent(
      rawBody,
      signature,
      secret,
      WEBHOOK_TOLERANCE_SECONDS,
    );
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
      throw new AppError(
        'BAD_REQUEST',
        'The Stripe-Signature does not match this event, or it is older than 5 minutes',
      );
    }
    throw error;
  }
};

/** The subscription an event is about, if it is one billing acts on. */
const subscriptionOf = (event: Stripe.Event): string | undefined => {
  switch (event.type) {
    case 'checkout.session.completed':
      return event.data.object.mode === 'subscription'
        ? customerIdOf(event.data.object.subscription)
        : undefined;
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return event.data.object.id;
    case 'invoice.paid':
    case 'invoice.payment_failed':
      return invoiceSubscriptionId(event.data.object);
    default:
      return undefined;
  }
};

/** A completed checkout links the customer to its user (it names the user it was started for). */
const linkCheckout = async (ctx: Paying, event: Stripe.Event) => {
  if (event.type !== 'checkout.session.completed') return;
  const session = event.data.object;
  const customer = customerIdOf(session.customer);
  if (session.client_reference_id && customer) {
    await subscriptionsRepository.linkCustomer(ctx.knex, session.client_reference_id, customer);
  }
  await subscriptionsRepository.checkoutCompleted(ctx.knex, session.id, ctx.now());
};

/**
 * Takes one Stripe event: verifies it, and applies the state of the subscription it concerns
 * as Stripe has it now (read again, so events arriving late, twice or out of order converge on
 * the latest state), once per event id.
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

const apply = async (ctx: Paying, event: Stripe.Event): Promise<SyncOutcome | 'ignored'> => {
  const ref: StripeEventRef = { id: event.id, type: event.type };
  // A redelivery is answered without asking Stripe; a parallel one is caught by the transaction.
  if (await subscriptionsRepository.eventSeen(ctx.knex, event.id)) return 'duplicate';
  const subscriptionId = subscriptionOf(event);
  if (!subscriptionId) {
    const recorded = await ctx.unitOfWork((trx) =>
      subscriptionsRepository.markEvent(trx, ref.id, ref.type),
    );
    return recorded ? 'ignored' : 'duplicate';
  }
  await linkCheckout(ctx, event);
  const read = await callStripe(() => readSubscription(ctx, subscriptionId));
  return applySubscription(ctx, read, ref);
};
