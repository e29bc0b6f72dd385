import * as z from 'zod';
import {
  freePlanEnvSchema,
  freePlanFrom,
  type BillingInterval,
  type FreePlanLimits,
  type PaidPlanName,
} from '@noted/api';
import type { ServiceSettings } from '@noted/service';

const optionalText = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();

export const billingConfigSchema = freePlanEnvSchema.extend({
  BILLING_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(4104),
  BILLING_GRPC_ADDR: z.string().default('127.0.0.1:5104'),
  BILLING_DATABASE_URL: z.url().optional(),
  DATABASE_URL: z.url().optional(),
  /** Stripe's secret key (`sk_live_...`, `sk_test_...`). Unset: payments are disabled. */
  STRIPE_SECRET_KEY: optionalText,
  /** Stripe's publishable key (`pk_...`) for Stripe.js in the browser. */
  STRIPE_PUBLISHABLE_KEY: optionalText,
  /** The signing secret of the webhook endpoint (`whsec_...`) for POST /api/stripe/webhook. */
  STRIPE_WEBHOOK_SECRET: optionalText,
  /** The recurring prices of each plan (`price_...`), monthly and yearly; a missing one is not offered. */
  STRIPE_PRICE_STANDARD_MONTHLY: optionalText,
  STRIPE_PRICE_STANDARD_YEARLY: optionalText,
  STRIPE_PRICE_PREMIUM_MONTHLY: optionalText,
  STRIPE_PRICE_PREMIUM_YEARLY: optionalText,
  /** Another Stripe API address (a local test server); Stripe's own when unset. */
  STRIPE_API_URL: z.url().optional(),
});

export type BillingEnv = z.infer<typeof billingConfigSchema>;

export type PriceIds = Partial<Record<`${PaidPlanName}:${BillingInterval}`, string>>;

export interface StripeSettings {
  secretKey: string;
  publishableKey: string | undefined;
  webhookSecret: string | undefined;
  /** A local server speaking Stripe's wire format, in tests. */
  apiUrl: string | undefined;
  prices: PriceIds;
}

export interface BillingConfig extends ServiceSettings {
  /** Undefined: payments are disabled, everyone is on the free plan. */
  stripe: StripeSettings | undefined;
  /** Where the browser comes back to after Checkout and the portal (the gateway's public URL). */
  publicUrl: string;
  freePlan: FreePlanLimits;
}

export const billingConfigFrom = (
  env: BillingEnv,
  shared: Pick<
    ServiceSettings,
    'host' | 'dataDir' | 'internalSecret' | 'pgliteSharedBuffersMb' | 'grpcServer'
  > & { publicUrl: string },
): BillingConfig => ({
  httpPort: env.BILLING_HTTP_PORT,
  grpcAddress: env.BILLING_GRPC_ADDR,
  databaseUrl: env.BILLING_DATABASE_URL ?? env.DATABASE_URL,
  stripe: env.STRIPE_SECRET_KEY
    ? {
        secretKey: env.STRIPE_SECRET_KEY,
        publishableKey: env.STRIPE_PUBLISHABLE_KEY,
        webhookSecret: env.STRIPE_WEBHOOK_SECRET,
        apiUrl: env.STRIPE_API_URL,
        prices: Object.fromEntries(
          Object.entries({
            'standard:month': env.STRIPE_PRICE_STANDARD_MONTHLY,
            'standard:year': env.STRIPE_PRICE_STANDARD_YEARLY,
            'premium:month': env.STRIPE_PRICE_PREMIUM_MONTHLY,
            'premium:year': env.STRIPE_PRICE_PREMIUM_YEARLY,
          }).filter(([, id]) => id !== undefined),
        ),
      }
    : undefined,
  freePlan: freePlanFrom(env),
  ...shared,
});
