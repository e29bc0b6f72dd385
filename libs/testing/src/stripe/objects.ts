import type Stripe from 'stripe';

/**
 * The objects the local Stripe server keeps, each the subset of the SDK's own type (API version
 * 2026-10-28.endive) that the billing flows use, so a renamed or retyped field fails to compile.
 * Decimal fields are strings on the wire (the SDK turns them into its Decimal class).
 */

export const API_VERSION = '2026-10-28.endive';

export interface List<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

export type StripePrice = Pick<
  Stripe.Price,
  | 'id'
  | 'object'
  | 'active'
  | 'billing_scheme'
  | 'created'
  | 'currency'
  | 'livemode'
  | 'lookup_key'
  | 'metadata'
  | 'nickname'
  | 'recurring'
  | 'type'
  | 'unit_amount'
> & { product: string; unit_amount_decimal: string };

export type StripeCustomer = Pick<
  Stripe.Customer,
  'id' | 'object' | 'created' | 'description' | 'email' | 'livemode' | 'metadata' | 'name'
>;

/** What Stripe answers for a deleted customer, on DELETE and on every GET after it. */
export type StripeDeletedCustomer = Pick<Stripe.DeletedCustomer, 'id' | 'object' | 'deleted'>;

export type StripeSubscriptionItem = Pick<
  Stripe.SubscriptionItem,
  | 'id'
  | 'object'
  | 'created'
  | 'current_period_end'
  | 'current_period_start'
  | 'metadata'
  | 'quantity'
  | 'subscription'
> & { price: StripePrice };

export type StripeSubscription = Pick<
  Stripe.Subscription,
  | 'id'
  | 'object'
  | 'billing_cycle_anchor'
  | 'cancel_at'
  | 'cancel_at_period_end'
  | 'canceled_at'
  | 'collection_method'
  | 'created'
  | 'currency'
  | 'ended_at'
  | 'livemode'
  | 'metadata'
  | 'start_date'
  | 'status'
  | 'trial_end'
  | 'trial_start'
> & { customer: string; latest_invoice: string | null; items: List<StripeSubscriptionItem> };

export type StripeInvoiceLine = Pick<
  Stripe.InvoiceLineItem,
  | 'id'
  | 'object'
  | 'amount'
  | 'currency'
  | 'description'
  | 'invoice'
  | 'livemode'
  | 'metadata'
  | 'parent'
  | 'period'
  | 'quantity'
  | 'subtotal'
> & {
  pricing: {
    type: 'price_details';
    price_details: { price: string; product: string };
    unit_amount_decimal: string;
  };
};

export type StripeInvoice = Pick<
  Stripe.Invoice,
  | 'id'
  | 'object'
  | 'amount_due'
  | 'amount_paid'
  | 'amount_remaining'
  | 'billing_reason'
  | 'created'
  | 'currency'
  | 'livemode'
  | 'parent'
  | 'period_end'
  | 'period_start'
  | 'status'
  | 'status_transitions'
  | 'subtotal'
  | 'total'
> & { customer: string; lines: List<StripeInvoiceLine> };

export type StripeCheckoutSession = Pick<
  Stripe.Checkout.Session,
  | 'id'
  | 'object'
  | 'amount_total'
  | 'cancel_url'
  | 'client_reference_id'
  | 'created'
  | 'currency'
  | 'customer_email'
  | 'expires_at'
  | 'livemode'
  | 'metadata'
  | 'mode'
  | 'payment_status'
  | 'status'
  | 'success_url'
  | 'url'
> & { customer: string | null; subscription: string | StripeSubscription | null };

export type StripePortalSession = Pick<
  Stripe.BillingPortal.Session,
  'id' | 'object' | 'created' | 'customer' | 'livemode' | 'return_url' | 'url'
>;

export type StripeEventType =
  | 'checkout.session.completed'
  | 'customer.deleted'
  | 'customer.subscription.created'
  | 'customer.subscription.updated'
  | 'customer.subscription.deleted'
  | 'invoice.paid'
  | 'invoice.payment_failed';

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  /** A snapshot of the object when the event happened; previous_attributes on updates only. */
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: StripeEventType;
}

/** A price the server offers, given when it starts. */
export interface StripeServerPrice {
  id: string;
  /** In the currency's smallest unit (cents). */
  unitAmount: number;
  currency?: string;
  interval: 'month' | 'year';
  /** The price's own trial (`recurring.trial_period_days`). */
  trialDays?: number;
}

export const priceObject = (price: StripeServerPrice, created: number): StripePrice => ({
  id: price.id,
  object: 'price',
  active: true,
  billing_scheme: 'per_unit',
  created,
  currency: price.currency ?? 'usd',
  livemode: false,
  lookup_key: null,
  metadata: {},
  nickname: null,
  product: `prod_${price.id.replace(/^price_/, '')}`,
  recurring: {
    interval: price.interval,
    interval_count: 1,
    meter: null,
    trial_period_days: price.trialDays ?? null,
    usage_type: 'licensed',
  },
  type: 'recurring',
  unit_amount: price.unitAmount,
  unit_amount_decimal: String(price.unitAmount),
});

/** One interval later on the calendar, as Stripe bills: Jan 31 + 1 month is Feb 28 (or 29). */
export const addInterval = (timestamp: number, interval: 'month' | 'year' | string): number => {
  const date = new Date(timestamp * 1000);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + (interval === 'year' ? 12 : 1));
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0));
  date.setUTCDate(Math.min(day, lastDay.getUTCDate()));
  return Math.floor(date.getTime() / 1000);
};

/** The top-level fields whose value changed, with their old value, as Stripe fills previous_attributes. */
export const previousAttributes = (
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, unknown> =>
  Object.fromEntries(
    Object.keys(before)
      .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
      .map((key) => [key, before[key]]),
  );
