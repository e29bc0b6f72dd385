import { Counter } from 'prom-client';
import { registry } from '@noted/kit';

/** The Stripe event types billing acts on; every other type is counted as `other`. */
export const handledEventTypes = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
] as const;

export const webhookEvents = new Counter({
  name: 'noted_billing_webhook_events_total',
  help:
    'Stripe webhook deliveries, by event type (the handled ones, else other) and outcome ' +
    '(applied, unchanged, stale, duplicate, ignored, not_ours, unknown_object, conflict, ' +
    'refused, failed)',
  labelNames: ['type', 'outcome'] as const,
  registers: [registry],
});

export const eventTypeLabel = (type: string) =>
  (handledEventTypes as readonly string[]).includes(type) ? type : 'other';

export const subscriptionChanges = new Counter({
  name: 'noted_billing_subscription_changes_total',
  help: 'Changes of a user plan announced to the other services, by the plan and status after it',
  labelNames: ['plan', 'status'] as const,
  registers: [registry],
});

export const checkouts = new Counter({
  name: 'noted_billing_checkouts_total',
  help: 'Stripe Checkout sessions started, by plan and interval',
  labelNames: ['plan', 'interval'] as const,
  registers: [registry],
});
