import {
  AppError,
  type BillingInterval,
  type CheckoutSession,
  type PaidPlanName,
  type PlanList,
  type PortalSession,
  type SubscriptionStatus,
} from '@noted/api';
import type { Identity } from '@noted/kit';
import { paying, type BillingContext, type PayingContext as Paying } from '../context.js';
import { checkouts } from '../metrics.js';
import { callStripe, customerIdOf, subscriptionItem } from '../stripe.js';
import { subscriptionsRepository } from './repository.js';
import { isActiveStatus, presentStatus } from './status.js';
import { applySubscription, readSubscription } from './sync.js';

const priceIdOf = (ctx: BillingContext, plan: PaidPlanName, interval: BillingInterval) => {
  const id = ctx.plans.priceId(plan, interval);
  if (!id) {
    throw new AppError(
      'VALIDATION_FAILED',
      `The ${plan} plan is not offered ${interval === 'month' ? 'monthly' : 'yearly'} here`,
    );
  }
  return id;
};

export const billingStatusOf = async (
  ctx: BillingContext,
  userId: string,
): Promise<SubscriptionStatus> =>
  presentStatus(
    await subscriptionsRepository.ofUser(ctx.knex, userId),
    ctx.plans,
    ctx.stripe !== undefined,
  );

export const billingPlans = async (ctx: BillingContext): Promise<PlanList> => ({
  plans: await ctx.plans.list(),
  paymentsEnabled: ctx.stripe !== undefined,
  publishableKey: ctx.stripe?.settings.publishableKey ?? null,
});

/** The user's Stripe customer, made at their first checkout (one per user, whatever the race). */
const customerOf = async (ctx: Paying, identity: Identity): Promise<string> => {
  const known = await subscriptionsRepository.customerOfUser(ctx.knex, identity.userId);
  if (known) return known;
  const customer = await callStripe(() =>
    ctx.stripe.client.customers.create(
      {
        email: identity.email,
        ...(identity.name ? { name: identity.name } : {}),
        metadata: { userId: identity.userId },
      },
      { idempotencyKey: `noted-customer-${identity.userId}` },
    ),
  );
  return subscriptionsRepository.linkCustomer(ctx.knex, identity.userId, customer.id);
};

/** Starts Stripe Checkout for a paid plan; a user with a live plan changes it instead. */
export const checkoutStart = async (
  context: BillingContext,
  identity: Identity,
  input: { plan: PaidPlanName; interval: BillingInterval },
): Promise<CheckoutSession> => {
  const ctx = paying(context);
  const price = priceIdOf(ctx, input.plan, input.interval);
  const current = await subscriptionsRepository.ofUser(ctx.knex, identity.userId);
  if (current && isActiveStatus(current.status)) {
    throw new AppError('CONFLICT', 'You already have a plan: change it instead of buying another');
  }
  const customer = await customerOf(ctx, identity);
  const trialDays = await ctx.plans.trialDays(price);
  const session = await callStripe(() =>
    ctx.stripe.client.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: identity.userId,
      line_items: [{ price, quantity: 1 }],
      success_url: `${ctx.publicUrl}/subscription/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${ctx.publicUrl}/subscription/cancel`,
      metadata: { userId: identity.userId, plan: input.plan, interval: input.interval },
      subscription_data: {
        metadata: { userId: identity.userId, plan: input.plan },
        ...(trialDays ? { trial_period_days: trialDays } : {}),
      },
    }),
  );
  if (!session.url) throw new AppError('INTERNAL', 'Stripe gave no checkout page');
  await subscriptionsRepository.recordCheckout(ctx.knex, {
    id: session.id,
    user_id: identity.userId,
    plan: input.plan,
    interval: input.interval,
  });
  checkouts.inc({ plan: input.plan, interval: input.interval });
  return { sessionId: session.id, url: session.url };
};

/**
 * The return from Checkout. Stripe's webhook may not have arrived yet, so the session is read
 * and its subscription applied here too (whichever comes second changes nothing).
 */
export const checkoutVerify = async (
  context: BillingContext,
  userId: string,
  sessionId: string,
): Promise<SubscriptionStatus> => {
  const ctx = paying(context);
  const started = await subscriptionsRepository.checkoutOfUser(ctx.knex, sessionId, userId);
  if (!started) throw new AppError('NOT_FOUND', 'There is no such checkout session of yours');
  if (!started.completed_at) {
    const session = await callStripe(() => ctx.stripe.client.checkout.sessions.retrieve(sessionId));
    const subscriptionId = customerIdOf(session.subscription);
    if (session.status === 'complete' && subscriptionId) {
      const customer = customerIdOf(session.customer);
      if (customer) await subscriptionsRepository.linkCustomer(ctx.knex, userId, customer);
      await applySubscription(ctx, await callStripe(() => readSubscription(ctx, subscriptionId)));
      await subscriptionsRepository.checkoutCompleted(ctx.knex, sessionId, ctx.now());
    }
  }
  return billingStatusOf(ctx, userId);
};

const liveSubscription = async (ctx: Paying, userId: string) => {
  const current = await subscriptionsRepository.ofUser(ctx.knex, userId);
  if (!current || !isActiveStatus(current.status)) return undefined;
  return current;
};

/** Changes a subscriber's plan or interval (Stripe prorates), and undoes a pending cancellation. */
export const subscriptionChange = async (
  context: BillingContext,
  userId: string,
  input: { plan: PaidPlanName; interval: BillingInterval },
): Promise<SubscriptionStatus> => {
  const ctx = paying(context);
  const price = priceIdOf(ctx, input.plan, input.interval);
  const current = await liveSubscription(ctx, userId);
  if (!current) throw new AppError('NOT_FOUND', 'You have no plan to change: choose one first');
  const readAt = ctx.now();
  const subscription = await callStripe(async () => {
    const existing = await ctx.stripe.client.subscriptions.retrieve(current.stripe_subscription_id);
    const item = subscriptionItem(existing);
    return ctx.stripe.client.subscriptions.update(existing.id, {
      items: [{ id: item.id, price }],
      proration_behavior: 'create_prorations',
      cancel_at_period_end: false,
      metadata: { userId, plan: input.plan },
    });
  });
  await applySubscription(ctx, { subscription, readAt });
  return billingStatusOf(ctx, userId);
};

/** Spec section 4: only an active, non-free plan can be cancelled; it ends with its period. */
export const subscriptionCancel = async (
  context: BillingContext,
  userId: string,
): Promise<SubscriptionStatus> => {
  const ctx = paying(context);
  const current = await liveSubscription(ctx, userId);
  if (!current || current.plan === 'free') {
    throw new AppError('CONFLICT', 'Only an active paid plan can be cancelled');
  }
  const readAt = ctx.now();
  const subscription = await callStripe(() =>
    ctx.stripe.client.subscriptions.update(current.stripe_subscription_id, {
      cancel_at_period_end: true,
    }),
  );
  await applySubscription(ctx, { subscription, readAt });
  return billingStatusOf(ctx, userId);
};

/** Stripe's customer portal: card, invoices, cancellation; back to the app's plan settings. */
export const portalOpen = async (
  context: BillingContext,
  userId: string,
): Promise<PortalSession> => {
  const ctx = paying(context);
  const customer = await subscriptionsRepository.customerOfUser(ctx.knex, userId);
  if (!customer) throw new AppError('NOT_FOUND', 'You have not paid for a plan yet');
  const session = await callStripe(() =>
    ctx.stripe.client.billingPortal.sessions.create({
      customer,
      return_url: `${ctx.publicUrl}/?settings=plan`,
    }),
  );
  return { url: session.url };
};
