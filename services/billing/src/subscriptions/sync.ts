import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type Stripe from 'stripe';
import { enqueueEvent, outboxEvent, type EventTransaction } from '@noted/db';
import { billingEvents, entitlementsToMessage } from '@noted/proto';
import { paying, type BillingContext } from '../context.js';
import { subscriptionChanges } from '../metrics.js';
import { customerIdOf, fromUnix, subscriptionItem } from '../stripe.js';
import { subscriptionsRepository, type SubscriptionRow } from './repository.js';
import { isActiveStatus, presentStatus, statusName } from './status.js';

/** What a sync did: applied a newer state, found it older than the stored one, or could not place it. */
export type SyncOutcome = 'applied' | 'unchanged' | 'stale' | 'not_ours' | 'duplicate';

export interface StripeEventRef {
  id: string;
  type: string;
}

/** A subscription as Stripe answered it, and when we asked (before the call). */
export interface SubscriptionRead {
  subscription: Stripe.Subscription;
  readAt: Date;
}

/** Reads a subscription from Stripe now: its current state, whatever order events came in. */
export const readSubscription = async (
  ctx: BillingContext,
  subscriptionId: string,
): Promise<SubscriptionRead> => {
  const { stripe } = paying(ctx);
  const readAt = ctx.now();
  const subscription = await stripe.client.subscriptions.retrieve(subscriptionId);
  return { subscription, readAt };
};

const userOf = async (ctx: BillingContext, subscription: Stripe.Subscription) => {
  const customerId = customerIdOf(subscription.customer);
  const linked = customerId
    ? await subscriptionsRepository.userOfCustomer(ctx.knex, customerId)
    : undefined;
  return linked ?? subscription.metadata?.userId;
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
 * Applies a subscription read from Stripe to its user, in one transaction with the record of the
 * event that caused it (if any): the event is applied once, a read older than the stored one
 * changes nothing, and a change the user can see writes `subscription.changed` to the outbox.
 */
export const applySubscription = async (
  ctx: BillingContext,
  read: SubscriptionRead,
  event?: StripeEventRef,
): Promise<SyncOutcome> => {
  const userId = await userOf(ctx, read.subscription);
  const next = userId ? rowOf(ctx, userId, read) : undefined;
  if (!userId || !next) {
    ctx.logger.warn(
      { subscription: read.subscription.id, user: userId ?? null },
      'a Stripe subscription of no known user or plan was left alone',
    );
    if (event) {
      const recorded = await ctx.unitOfWork((trx) =>
        subscriptionsRepository.markEvent(trx, event.id, event.type),
      );
      if (!recorded) return 'duplicate';
    }
    return 'not_ours';
  }
  return ctx.unitOfWork(async (trx) => {
    if (event && !(await subscriptionsRepository.markEvent(trx, event.id, event.type))) {
      return 'duplicate';
    }
    const stored = await subscriptionsRepository.lockOfUser(trx, userId);
    if (!replaces(stored, next)) return 'stale';
    await subscriptionsRepository.save(trx, next);
    if (visible(ctx, stored) === visible(ctx, next)) return 'unchanged';
    await announce(trx, ctx, next);
    return 'applied';
  });
};
