import { deleteInBatches, forgetOutboxOf, startUserErasure } from '@noted/db';
import type { EventBus } from '@noted/events';
import { userEvents } from '@noted/proto';
import type { BillingContext } from '../context.js';
import { subscriptionsRepository } from '../subscriptions/repository.js';

const ended = new Set(['canceled', 'incomplete_expired']);

/**
 * Erases what billing holds of a user: first every live Stripe subscription of their customer
 * is cancelled at once (not at the period's end), after the user's id leaves its metadata so
 * that the cancellation's webhook cannot place it on the user again; then the user's
 * subscription, checkout sessions and customer rows, and outbox rows naming them. Idempotent:
 * a subscription already cancelled is passed over.
 */
export const userErase = async (
  ctx: BillingContext,
  userId: string,
): Promise<Record<string, number>> => {
  const customerId =
    (await subscriptionsRepository.customerOfUser(ctx.knex, userId)) ??
    (await subscriptionsRepository.ofUser(ctx.knex, userId))?.stripe_customer_id;
  let cancelled = 0;
  if (customerId && ctx.stripe) {
    const { client } = ctx.stripe;
    for await (const subscription of client.subscriptions.list({
      customer: customerId,
      status: 'all',
      limit: 100,
    })) {
      if (ended.has(subscription.status)) continue;
      await client.subscriptions.update(subscription.id, { metadata: { userId: '' } });
      await client.subscriptions.cancel(subscription.id);
      cancelled += 1;
    }
  } else if (customerId) {
    ctx.logger.warn(
      { userId },
      'a deleted user has a Stripe customer but payments are off: cancel it in Stripe',
    );
  }
  const where = { user_id: userId };
  const subscriptions = await deleteInBatches(ctx.knex, 'subscriptions', where);
  const checkouts = await deleteInBatches(ctx.knex, 'checkout_sessions', where);
  const customers = await deleteInBatches(ctx.knex, 'customers', where);
  const outbox = await forgetOutboxOf(ctx.knex, userId);
  return { cancelled, subscriptions, checkouts, customers, outbox };
};

/** `billing-user-deleted`. */
export const startUserDeletion = (ctx: BillingContext, bus: EventBus) =>
  startUserErasure({
    service: 'billing',
    bus,
    logger: ctx.logger,
    event: userEvents.deleted,
    erase: ({ userId }) => userErase(ctx, userId),
  });
