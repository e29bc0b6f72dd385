import * as z from 'zod';
import { created, ok, routesFor } from './contract.js';
import { BillingInterval, PaidPlanName, PlanName } from './plans.js';
import { Entitlements } from './users.js';

/**
 * A subscription's state: Stripe's (`trialing`, `active`, `past_due`, `canceled`, `unpaid`,
 * `incomplete`, `incomplete_expired`, `paused`), or `inactive` for a user who never subscribed.
 */
export const subscriptionStatuses = [
  'inactive',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'incomplete',
  'incomplete_expired',
  'paused',
] as const;
export const SubscriptionStatusName = z
  .enum(subscriptionStatuses)
  .meta({ id: 'SubscriptionStatusName' });
export type SubscriptionStatusName = z.infer<typeof SubscriptionStatusName>;

/** Spec section 3: planName, status, expiresAt, isActive, entitlements; and what a user must know. */
export const SubscriptionStatus = z
  .object({
    planName: PlanName,
    status: SubscriptionStatusName,
    expiresAt: z.iso.datetime().nullable().meta({
      description: 'When the paid period ends: the renewal date, or the end of a cancelled plan',
    }),
    isActive: z.boolean().meta({ description: 'True while a paid plan gives its entitlements' }),
    entitlements: Entitlements.nullable(),
    interval: BillingInterval.nullable(),
    cancelAtPeriodEnd: z.boolean().meta({
      description: 'Cancelled: the plan ends at expiresAt and is not renewed',
    }),
    trialEndsAt: z.iso.datetime().nullable(),
    paymentFailed: z
      .boolean()
      .meta({ description: 'The last invoice could not be paid; the card needs updating' }),
    paymentsEnabled: z.boolean().meta({ description: 'False when this server takes no payments' }),
  })
  .meta({ id: 'SubscriptionStatus' });
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

export const PlanPrice = z
  .object({
    interval: BillingInterval,
    /** In the currency's smallest unit (cents). */
    amount: z.number().int().nullable(),
    currency: z.string(),
    trialDays: z.number().int().nullable(),
  })
  .meta({ id: 'PlanPrice' });
export type PlanPrice = z.infer<typeof PlanPrice>;

export const Plan = z
  .object({
    name: PlanName,
    tier: z.enum(['free', 'premium']),
    entitlements: Entitlements,
    prices: z.array(PlanPrice),
  })
  .meta({ id: 'Plan' });
export type Plan = z.infer<typeof Plan>;

export const PlanList = z
  .object({
    plans: z.array(Plan),
    paymentsEnabled: z.boolean(),
    /** Stripe's publishable key; Stripe.js is loaded only when there is one. */
    publishableKey: z.string().nullable(),
  })
  .meta({ id: 'PlanList' });
export type PlanList = z.infer<typeof PlanList>;

export const CheckoutRequest = z
  .strictObject({
    plan: PaidPlanName,
    interval: BillingInterval.default('month'),
  })
  .meta({ id: 'CheckoutRequest' });
export type CheckoutRequest = z.input<typeof CheckoutRequest>;

export const CheckoutSession = z
  .object({
    sessionId: z.string(),
    url: z.url().meta({ description: "Stripe's hosted checkout page: send the browser there" }),
  })
  .meta({ id: 'CheckoutSession' });
export type CheckoutSession = z.infer<typeof CheckoutSession>;

export const PlanChange = z
  .strictObject({
    plan: PaidPlanName,
    interval: BillingInterval.default('month'),
  })
  .meta({ id: 'PlanChange' });
export type PlanChange = z.input<typeof PlanChange>;

export const PortalSession = z
  .object({ url: z.url().meta({ description: "Stripe's customer portal: card and invoices" }) })
  .meta({ id: 'PortalSession' });
export type PortalSession = z.infer<typeof PortalSession>;

export const CheckoutSessionParams = z.object({
  sessionId: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[A-Za-z0-9_]+$/, 'Not a checkout session id'),
});

export const WebhookReceipt = z
  .object({ received: z.literal(true), duplicate: z.boolean() })
  .meta({ id: 'WebhookReceipt' });

/** Stripe sends an event object; the handler reads the raw bytes it signed, not this. */
export const StripeEvent = z
  .looseObject({ id: z.string(), type: z.string(), object: z.literal('event') })
  .meta({ id: 'StripeEvent' });

const billingApi = routesFor('billing', 'billing');

/** The routes of plans and payments (Stripe). */
/** What every payment route answers on a server without Stripe: there is nothing to pay here. */
const paymentsDisabled = [
  404,
  'PAYMENTS_DISABLED: this server takes no payments (every account has every feature)',
] as const;

export const billingRoutes = {
  billingPlans: billingApi.get('/api/stripe/plans', {
    summary: 'The plans, their entitlements and prices, and whether this server takes payments',
    public: true,
    answer: ok(PlanList, 'The plans'),
  }),
  billingStatus: billingApi.get('/api/stripe/subscription-status', {
    summary:
      "The caller's plan: free and inactive until they subscribe; payments disabled answers free",
    answer: ok(SubscriptionStatus, 'The subscription status'),
  }),
  billingVerify: billingApi.get('/api/stripe/verify-subscription/:sessionId', {
    summary:
      'The return from Checkout: completes the session if its webhook has not arrived yet and ' +
      "answers the caller's status; only the caller's own session",
    params: CheckoutSessionParams,
    answer: ok(SubscriptionStatus, 'The subscription status after the checkout'),
    errors: [[404, 'Not a checkout session of the caller, or PAYMENTS_DISABLED'], 503],
  }),
  billingCheckout: billingApi.post('/api/stripe/checkout-sessions', {
    summary:
      'Starts Stripe Checkout for a paid plan; a subscriber changes plan with PUT ' +
      '/api/stripe/subscription instead',
    body: CheckoutRequest,
    answer: created(CheckoutSession, "The session and Stripe's page to send the browser to"),
    errors: [paymentsDisabled, [409, 'Already subscribed: change the plan instead']],
  }),
  billingChange: billingApi.put('/api/stripe/subscription', {
    summary:
      "Changes a subscriber's plan or interval (prorated by Stripe), and undoes a pending " +
      'cancellation',
    body: PlanChange,
    answer: ok(SubscriptionStatus, 'The subscription status after the change'),
    errors: [[404, 'No active subscription, or PAYMENTS_DISABLED']],
  }),
  billingCancel: billingApi.delete('/api/stripe/subscription', {
    summary:
      'Cancels the paid plan at the end of the period already paid for; only an active, ' +
      'non-free plan',
    answer: ok(SubscriptionStatus, 'The subscription status after the cancellation'),
    errors: [paymentsDisabled, [409, 'Nothing to cancel']],
  }),
  billingPortal: billingApi.post('/api/stripe/portal-sessions', {
    summary: "Opens Stripe's customer portal (card, invoices) for a customer",
    answer: created(PortalSession, "Stripe's page to send the browser to"),
    errors: [[404, 'Not a customer yet, or PAYMENTS_DISABLED']],
  }),
  billingWebhook: billingApi.post('/api/stripe/webhook', {
    summary:
      "Stripe's events, signed with the webhook secret (Stripe-Signature, 5 minutes tolerance); " +
      'each event applied once',
    public: true,
    signature: {
      scheme: 'stripeSignature',
      header: 'Stripe-Signature',
      description: "Stripe's signature of the body with the webhook secret (t=…,v1=…)",
    },
    body: StripeEvent,
    answer: ok(WebhookReceipt, 'The event was taken'),
    errors: [[400, 'Unsigned, badly signed or stale (code BAD_REQUEST)'], paymentsDisabled, 503],
  }),
};
