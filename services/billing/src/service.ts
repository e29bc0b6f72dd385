import { routes } from '@noted/api';
import { serveRoutes } from '@noted/kit';
import { billingV1 } from '@noted/proto';
import { grpcBinding, startService, type ServiceDeps, type ServiceParts } from '@noted/service';
import type { BillingConfig } from './config.js';
import type { BillingContext } from './context.js';
import { startUserDeletion } from './deletion/erase.js';
import { billingMigrations } from './migrations.js';
import { createPlanCatalogue } from './plans.js';
import { createStripeClient } from './stripe.js';
import { billingGrpc } from './subscriptions/grpc.js';
import { billingHandlers } from './subscriptions/routes.js';

/** Every public route of the billing service, as its contracts in `@noted/api` declare them. */
export const billingRouter = (ctx: BillingContext) => serveRoutes('billing', billingHandlers(ctx));

/** The context of the billing use cases; `stripe` replaces the configured client (tests). */
export const billingContext = (
  config: BillingConfig,
  parts: Pick<ServiceParts, 'db' | 'unitOfWork' | 'logger'>,
): BillingContext => {
  const client = config.stripe ? createStripeClient(config.stripe) : undefined;
  return {
    knex: parts.db.knex,
    unitOfWork: parts.unitOfWork,
    logger: parts.logger,
    plans: createPlanCatalogue({
      free: config.freePlan,
      prices: config.stripe?.prices ?? {},
      stripe: client,
      logger: parts.logger,
    }),
    stripe: config.stripe && client ? { client, settings: config.stripe } : undefined,
    publicUrl: config.publicUrl,
    now: () => new Date(),
  };
};

/**
 * The billing service: plans, Stripe Checkout, the customer portal and Stripe's webhooks under
 * `/api/stripe`, BillingService over gRPC, and `subscription.changed` for every plan change.
 */
export const startBilling = (config: BillingConfig, deps: ServiceDeps) => {
  let context: BillingContext | undefined;
  const contextOf = (parts: ServiceParts) => (context ??= billingContext(config, parts));
  if (!config.stripe) {
    deps.logger.info(
      'payments are disabled: STRIPE_SECRET_KEY is unset, everyone is on the free plan',
    );
  }
  return startService(
    {
      name: 'billing',
      migrations: billingMigrations,
      identityPaths: ['/api/stripe'],
      openPaths: [routes.billingPlans.path, routes.billingWebhook.path],
      rawBodyPaths: [routes.billingWebhook.path],
      routes: (parts) => billingRouter(contextOf(parts)),
      grpc: (parts) => grpcBinding(billingV1.BillingService, billingGrpc(contextOf(parts))),
      workers: (parts) => [startUserDeletion(contextOf(parts), parts.bus)],
    },
    config,
    deps,
  );
};
