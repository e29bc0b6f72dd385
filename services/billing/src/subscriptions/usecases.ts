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
import { callStripe, callStripeIfFound, subscriptionItem } from '../stripe.js';
import { subscriptionsRepository, type SubscriptionRow } from './repository.js';
import { isActiveStatus, presentStatus, statusName } from './status.js';
import { applySubscription, checkoutApply, readSubscription } from './sync.js';

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

/** Makes a Stripe customer for the user and links it; the first link stays, and is answered. */
const customerMade = async (ctx: Paying, identity: Identity, idempotencyKey?: string) => {
  const customer = await callStripe(() =>
    ctx.stripe.client.customers.create(
      {
        email: identity.email,
        ...(identity.name ? { name: identity.name } : {}),
        metadata: { userId: identity.userId },
      },
      idempotencyKey ? { idempotencyKey } : {},
    ),
  );
  const link = await subscriptionsRepository.linkCustomer(ctx.knex, identity.userId, customer.id);
  const linked = await subscriptionsRepository.customerOfUser(ctx.knex, identity.userId);
  if (!linked) {
    ctx.logger.error(
      { customer: customer.id, links: link.linked ? [] : link.clash },
      "a new Stripe customer is another user's",
    );
    throw new AppError('INTERNAL', 'The payment provider gave a customer that is not yours');
  }
  return linked;
};

/**
 * The user's Stripe customer, made at their first checkout: the idempotency key makes two
 * clicks one customer (and the first link stays whatever the race).
 */
const customerOf = async (ctx: Paying, identity: Identity): Promise<string> =>
  (await subscriptionsRepository.customerOfUser(ctx.knex, identity.userId)) ??
  customerMade(ctx, identity, `noted-customer-${identity.userId}`);

/**
 * A new customer for a user whose customer Stripe no longer has (deleted in its Dashboard).
 * Not under the first key, which Stripe would answer with the deleted customer for 24 hours;
 * two racing replacements may leave an unused customer in Stripe, never two links.
 */
const customerReplaced = async (ctx: Paying, identity: Identity, gone: string) => {
  ctx.logger.warn(
    { customer: gone },
    'the Stripe customer of a user is gone from Stripe: a new one is made',
  );
  await subscriptionsRepository.unlinkCustomer(ctx.knex, identity.userId, gone);
  return customerMade(ctx, identity);
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
  const trialDays = await ctx.plans.trialDays(price);
  const sessionFor = (customer: string) =>
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
    });
  const customer = await customerOf(ctx, identity);
  let session = await callStripeIfFound(() => sessionFor(customer), 'customer');
  if (!session) {
    const replaced = await customerReplaced(ctx, identity, customer);
    session = await callStripe(() => sessionFor(replaced));
  }
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
  if (!started.completed_at) await checkoutApply(ctx, sessionId);
  return billingStatusOf(ctx, userId);
};

const liveSubscription = async (ctx: Paying, userId: string) => {
  const current = await subscriptionsRepository.ofUser(ctx.knex, userId);
  if (!current || !isActiveStatus(current.status)) return undefined;
  return current;
};

/**
 * The stored live subscription as Stripe has it, if it is live there too. One that ended there
 * before its webhook came (its customer deleted) is applied now; one Stripe lacks is left.
 */
const liveInStripe = async (ctx: Paying, current: SubscriptionRow) => {
  const read = await readSubscription(ctx, current.stripe_subscription_id);
  if (!read) {
    ctx.logger.warn(
      { subscription: current.stripe_subscription_id },
      'a stored subscription is gone from Stripe',
    );
    return undefined;
  }
  if (isActiveStatus(statusName(read.subscription.status))) return read.subscription;
  await applySubscription(ctx, read);
  return undefined;
};

/** Changes a subscriber's plan or interval (Stripe prorates), and undoes a pending cancellation. */
export const subscriptionChange = async (
  context: BillingContext,
  userId: string,
  input: { plan: PaidPlanName; interval: BillingInterval },
): Promise<SubscriptionStatus> => {
  const ctx = paying(context);
  const price = priceIdOf(ctx, input.plan, input.interval);
  const noPlan = new AppError('NOT_FOUND', 'You have no plan to change: choose one first');
  const current = await liveSubscription(ctx, userId);
  if (!current) throw noPlan;
  const existing = await liveInStripe(ctx, current);
  if (!existing) throw noPlan;
  const readAt = ctx.now();
  const subscription = await callStripe(() =>
    ctx.stripe.client.subscriptions.update(existing.id, {
      items: [{ id: subscriptionItem(existing).id, price }],
      proration_behavior: 'create_prorations',
      cancel_at_period_end: false,
      metadata: { userId, plan: input.plan },
    }),
  );
  await applySubscription(ctx, { subscription, readAt });
  return billingStatusOf(ctx, userId);
};

/** Spec section 4: only an active, non-free plan can be cancelled; it ends with its period. */
export const subscriptionCancel = async (
  context: BillingContext,
  userId: string,
): Promise<SubscriptionStatus> => {
  const ctx = paying(context);
  const nothing = new AppError('CONFLICT', 'Only an active paid plan can be cancelled');
  const current = await liveSubscription(ctx, userId);
  if (!current || current.plan === 'free') throw nothing;
  if (!(await liveInStripe(ctx, current))) throw nothing;
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
  const session = await callStripeIfFound(
    () =>
      ctx.stripe.client.billingPortal.sessions.create({
        customer,
        return_url: `${ctx.publicUrl}/?settings=plan`,
      }),
    'customer',
  );
  if (!session) {
    // Deleted in Stripe's Dashboard, and with it its cards and invoices: the user has none to
    // manage, as before their first plan, and their next checkout makes a new customer.
    ctx.logger.warn({ customer }, 'the Stripe customer of a user is gone from Stripe');
    await subscriptionsRepository.unlinkCustomer(ctx.knex, userId, customer);
    throw new AppError(
      'NOT_FOUND',
      'Your billing account is gone from the payment provider: a new one comes with your next paid plan',
    );
  }
  return { url: session.url };
};
