import type { routes } from '@noted/api';
import { identityOf, type Handlers } from '@noted/kit';
import type { BillingContext } from '../context.js';
import { webhookReceive } from '../webhooks/usecases.js';
import {
  billingPlans,
  billingStatusOf,
  checkoutStart,
  checkoutVerify,
  portalOpen,
  subscriptionCancel,
  subscriptionChange,
} from './usecases.js';

type BillingRoutes = Pick<
  typeof routes,
  | 'billingPlans'
  | 'billingStatus'
  | 'billingVerify'
  | 'billingCheckout'
  | 'billingChange'
  | 'billingCancel'
  | 'billingPortal'
  | 'billingWebhook'
>;

export const billingHandlers = (ctx: BillingContext): Handlers<BillingRoutes> => ({
  billingPlans: () => billingPlans(ctx),
  billingStatus: ({ userId }) => billingStatusOf(ctx, userId),
  billingVerify: ({ userId, params }) => checkoutVerify(ctx, userId, params.sessionId),
  billingCheckout: ({ req, body }) => checkoutStart(ctx, identityOf(req), body),
  billingChange: ({ userId, body }) => subscriptionChange(ctx, userId, body),
  billingCancel: ({ userId }) => subscriptionCancel(ctx, userId),
  billingPortal: ({ userId }) => portalOpen(ctx, userId),
  billingWebhook: ({ req }) => webhookReceive(ctx, req.rawBody, req.header('stripe-signature')),
});
