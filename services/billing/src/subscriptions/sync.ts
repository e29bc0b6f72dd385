import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type Stripe from 'stripe';
import * as z from 'zod';
import { enqueueEvent, outboxEvent, type EventTransaction } from '@noted/db';
import { billingEvents, entitlementsToMessage } from '@noted/proto';
import { paying, type BillingContext } from '../context.js';
import { subscriptionChanges } from '../metrics.js';
import { callStripeIfFound, customerIdOf, fromUnix, subscriptionItem } from '../stripe.js';
import { subscriptionsRepository, type SubscriptionRow } from './repository.js';
import { isActiveStatus, presentStatus, statusName } from './status.js';

/**
 * What a sync did: applied a newer state, found it older than the stored one, could not place it
 * (no user or plan of ours), found that Stripe has no such object (`unknown_object`), or would
 * have linked a user or customer already linked to another, or stored a subscription for a
 * second user (`conflict`). A duplicate writes nothing, the last three nothing but the event's id.
 */
export type SyncOutcome =
  'applied' | 'unchanged' | 'stale' | 'duplicate' | 'not_ours' | 'unknown_object' | 'conflict';

export interface StripeEventRef {
  id: string;
  type: string;
}

/** A subscription as Stripe answered it, and when we asked (before the call). */
export interface SubscriptionRead {
  subscription: Stripe.Subscription;
  readAt: Date;
}

/**
 * Reads a subscription from Stripe now: its current state, whatever order events came in.
 * Undefined when Stripe has no such subscription; Stripe unreachable throws UNAVAILABLE.
 */
export const readSubscription = async (
  ctx: BillingContext,
  subscriptionId: string,
): Promise<SubscriptionRead | undefined> => {
  const { stripe } = paying(ctx);
  const readAt = ctx.now();
  const subscription = await callStripeIfFound(() =>
    stripe.client.subscriptions.retrieve(subscriptionId),
  );
  return subscription && { subscription, readAt };
};

/** A user id as billing stores it (a uuid): anything else in Stripe's fields names no user. */
const asUserId = (value: string | null | undefined) =>
  value && z.uuid().safeParse(value).success ? value : undefined;

const userOf = async (ctx: BillingContext, subscription: Stripe.Subscription) => {
  const customerId = customerIdOf(subscription.customer);
  const linked = customerId
    ? await subscriptionsRepository.userOfCustomer(ctx.knex, customerId)
    : undefined;
  return linked ?? asUserId(subscription.metadata?.userId);
};

const rowOf = (
  ctx: BillingContext,
  userId: string,
  { subscription, readAt }: SubscriptionRead,
): Omit<SubscriptionRow, 'updated_at'> | undefined => {
  const item = subscriptionItem(subscription);
  const placed = ctx.plans.planOfPrice(item.price.id);
  if (!placed) return undefined;
  return {
    user_id: userId,
    stripe_subscription_id: subscription.id,
    stripe_customer_id: customerIdOf(subscription.customer) ?? '',
    plan: placed.plan,
    interval: placed.interval,
    price_id: item.price.id,
    status: statusName(subscription.status),
    current_period_end: fromUnix(item.current_period_end),
    cancel_at_period_end: subscription.cancel_at_period_end || subscription.cancel_at !== null,
    trial_end: fromUnix(subscription.trial_end),
    synced_at: readAt,
  };
};

/** The fields a user sees; a change in any of them is announced. */
const visible = (ctx: BillingContext, row: Omit<SubscriptionRow, 'updated_at'> | undefined) =>
  JSON.stringify(presentStatus(row as SubscriptionRow | undefined, ctx.plans, true));

/**
 * Whether `next` may replace the stored subscription: never an older read; and a subscription
 * that has ended never replaces another, live one (an old plan's late `deleted` event after the
 * user subscribed again).
 */
const replaces = (
  stored: SubscriptionRow | undefined,
  next: Omit<SubscriptionRow, 'updated_at'>,
) => {
  if (!stored) return true;
  if (stored.synced_at.getTime() >= next.synced_at.getTime()) return false;
  if (stored.stripe_subscription_id === next.stripe_subscription_id) return true;
  return isActiveStatus(next.status) || !isActiveStatus(stored.status);
};

const announce = async (
  trx: EventTransaction,
  ctx: BillingContext,
  row: Omit<SubscriptionRow, 'updated_at'>,
) => {
  const status = presentStatus(row as SubscriptionRow, ctx.plans, true);
  subscriptionChanges.inc({ plan: status.planName, status: status.status });
  await enqueueEvent(
    trx,
    outboxEvent(billingEvents.subscriptionChanged, (eventId) => ({
      eventId,
      occurredAt: timestampFromDate(ctx.now()),
      version: BigInt(row.synced_at.getTime()),
      subscription: {
        userId: row.user_id,
        plan: status.planName,
        status: status.status,
        isActive: status.isActive,
        cancelAtPeriodEnd: status.cancelAtPeriodEnd,
        entitlements: entitlementsToMessage(status.entitlements ?? {}),
        ...(row.current_period_end ? { expiresAt: timestampFromDate(row.current_period_end) } : {}),
      },
    })),
  );
};

/**
 * Records an event that changes nothing (`outcome`), so that its redeliveries are duplicates;
 * without an event there is nothing to record.
 */
export const settleEvent = async <T extends string>(
  ctx: BillingContext,
  event: StripeEventRef | undefined,
  outcome: T,
): Promise<T | 'duplicate'> => {
  if (!event) return outcome;
  const recorded = await ctx.unitOfWork((trx) =>
    subscriptionsRepository.markEvent(trx, event.id, event.type),
  );
  return recorded ? outcome : 'duplicate';
};

/** A completed Checkout, verified with Stripe: its session, the user it names, the customer paying. */
export interface CheckoutLink {
  sessionId: string;
  userId: string;
  customerId: string;
}

/**
 * Applies a subscription read from Stripe to its user, in one transaction with the record of the
 * event that caused it (if any): the event is applied once, a read older than the stored one
 * changes nothing, and a change the user can see writes `subscription.changed` to the outbox.
 * With a checkout, its user is the one the subscription is applied to and is linked to the
 * customer in the same transaction; a link in the way (the user or the customer linked to
 * another) writes nothing but the event (`conflict`).
 */
export const applySubscription = async (
  ctx: BillingContext,
  read: SubscriptionRead,
  event?: StripeEventRef,
  checkout?: CheckoutLink,
): Promise<SyncOutcome> => {
  const userId = checkout?.userId ?? (await userOf(ctx, read.subscription));
  const next = userId ? rowOf(ctx, userId, read) : undefined;
  if (!userId || !next) {
    ctx.logger.warn(
      { subscription: read.subscription.id, user: userId ?? null },
      'a Stripe subscription of no known user or plan was left alone',
    );
    return settleEvent(ctx, event, 'not_ours');
  }
  const conflict = (details: object) => {
    ctx.logger.warn(
      { subscription: read.subscription.id, user: userId, ...details },
      'a Stripe subscription was left alone: its user or customer is linked to another',
    );
    return 'conflict' as const;
  };
  return ctx.unitOfWork(async (trx) => {
    if (event && !(await subscriptionsRepository.markEvent(trx, event.id, event.type))) {
      return 'duplicate';
    }
    const stored = await subscriptionsRepository.lockOfUser(trx, userId);
    const holder = await subscriptionsRepository.holderOfSubscription(
      trx,
      next.stripe_subscription_id,
    );
    if (holder !== undefined && holder !== userId) return conflict({ storedFor: holder });
    if (checkout) {
      const link = await subscriptionsRepository.linkCustomer(trx, userId, checkout.customerId);
      if (!link.linked) return conflict({ customer: checkout.customerId, links: link.clash });
      await subscriptionsRepository.checkoutCompleted(trx, checkout.sessionId, ctx.now());
    }
    if (!replaces(stored, next)) return 'stale';
    await subscriptionsRepository.save(trx, next);
    if (visible(ctx, stored) === visible(ctx, next)) return 'unchanged';
    await announce(trx, ctx, next);
    return 'applied';
  });
};

/** Logs that Stripe has none of the objects `named` (ids, by kind): nothing is applied. */
export const unknownObject = (ctx: BillingContext, named: Record<string, string>) => {
  ctx.logger.warn(named, 'Stripe has no such object: nothing was applied');
  return 'unknown_object' as const;
};

/**
 * Applies a completed Checkout session as Stripe has it now (the event's copy is not trusted):
 * the session, its subscription and its customer are read first, and only when Stripe has all
 * three is anything written, the user's link to the customer in the transaction that applies
 * the subscription. A session of another mode, or not complete, is `ignored`.
 */
export const checkoutApply = async (
  ctx: BillingContext,
  sessionId: string,
  event?: StripeEventRef,
): Promise<SyncOutcome | 'ignored'> => {
  const { stripe } = paying(ctx);
  const session = await callStripeIfFound(() =>
    stripe.client.checkout.sessions.retrieve(sessionId),
  );
  if (!session) return settleEvent(ctx, event, unknownObject(ctx, { checkoutSession: sessionId }));
  const subscriptionId = customerIdOf(session.subscription);
  if (session.mode !== 'subscription' || session.status !== 'complete' || !subscriptionId) {
    return settleEvent(ctx, event, 'ignored');
  }
  const read = await readSubscription(ctx, subscriptionId);
  if (!read) {
    return settleEvent(
      ctx,
      event,
      unknownObject(ctx, { checkoutSession: sessionId, subscription: subscriptionId }),
    );
  }
  const userId = asUserId(session.client_reference_id);
  const customerId = customerIdOf(read.subscription.customer);
  if (!userId || !customerId || customerId !== customerIdOf(session.customer)) {
    ctx.logger.warn(
      { checkoutSession: sessionId, subscription: subscriptionId },
      'a Stripe checkout of no user of ours was left alone',
    );
    return settleEvent(ctx, event, 'not_ours');
  }
  const customer = await callStripeIfFound(() => stripe.client.customers.retrieve(customerId));
  if (!customer || customer.deleted) {
    return settleEvent(
      ctx,
      event,
      unknownObject(ctx, { checkoutSession: sessionId, customer: customerId }),
    );
  }
  return applySubscription(ctx, read, event, { sessionId, userId, customerId });
};
