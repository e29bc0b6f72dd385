import type { Knex } from 'knex';
import { AppError } from '@noted/api';
import type Stripe from 'stripe';
import type { UnitOfWork } from '@noted/db';
import type { Logger } from '@noted/kit';
import type { StripeSettings } from './config.js';
import type { PlanCatalogue } from './plans.js';

/** What every billing use case works with. */
export interface BillingContext {
  knex: Knex;
  unitOfWork: UnitOfWork;
  logger: Logger;
  plans: PlanCatalogue;
  /** Undefined when payments are disabled (no STRIPE_SECRET_KEY). */
  stripe: { client: Stripe; settings: StripeSettings } | undefined;
  /** Where Checkout and the portal send the browser back to. */
  publicUrl: string;
  now: () => Date;
}

/** A context whose payments are on. */
export type PayingContext = BillingContext & { stripe: NonNullable<BillingContext['stripe']> };

/** The context, when this server takes payments; PAYMENTS_DISABLED otherwise. */
export const paying = (ctx: BillingContext): PayingContext => {
  if (!ctx.stripe) {
    throw new AppError(
      'PAYMENTS_DISABLED',
      'This server takes no payments: Stripe is not configured',
    );
  }
  return ctx as PayingContext;
};
