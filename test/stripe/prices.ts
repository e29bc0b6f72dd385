/** The local Stripe's prices and webhook secret, shared by `serve.ts` and the browser test. */
export const localStripe = {
  webhookSecret: 'whsec_local_noted',
  secretKey: 'sk_test_local_noted',
  publishableKey: 'pk_test_local_noted',
  /** Keyed by the setting that names each price. */
  prices: {
    STRIPE_PRICE_STANDARD_MONTHLY: {
      id: 'price_standard_monthly',
      unitAmount: 500,
      interval: 'month',
    },
    STRIPE_PRICE_STANDARD_YEARLY: {
      id: 'price_standard_yearly',
      unitAmount: 4800,
      interval: 'year',
    },
    STRIPE_PRICE_PREMIUM_MONTHLY: {
      id: 'price_premium_monthly',
      unitAmount: 1200,
      interval: 'month',
    },
    STRIPE_PRICE_PREMIUM_YEARLY: {
      id: 'price_premium_yearly',
      unitAmount: 11500,
      interval: 'year',
      trialDays: 14,
    },
  },
} as const;

/** The settings that point Noted at a local Stripe at `url`. */
export const localStripeSettings = (url: string): Record<string, string> => ({
  STRIPE_API_URL: url,
  STRIPE_SECRET_KEY: localStripe.secretKey,
  STRIPE_PUBLISHABLE_KEY: localStripe.publishableKey,
  STRIPE_WEBHOOK_SECRET: localStripe.webhookSecret,
  ...Object.fromEntries(
    Object.entries(localStripe.prices).map(([name, price]) => [name, price.id]),
  ),
});
