/**
 * A local Stripe for the browser test and for trying payments without a Stripe account: the
 * stateful server of `@noted/testing` (Stripe's wire format, its hosted checkout and portal as
 * small pages, signed webhooks) with one monthly and one yearly price per paid plan. Prints the
 * settings that point Noted at it, then runs until stopped.
 *
 *   node --conditions=@noted/source --import tsx test/stripe/serve.ts \
 *     --port=12200 --webhook-url=http://localhost:8080/api/stripe/webhook
 */
import { parseArgs } from 'node:util';
import { startStripeServer } from '@noted/testing';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'webhook-url': { type: 'string' },
    'webhook-secret': { type: 'string', default: 'whsec_local_noted' },
  },
});

const prices = {
  STRIPE_PRICE_STANDARD_MONTHLY: {
    id: 'price_standard_monthly',
    unitAmount: 500,
    interval: 'month',
  },
  STRIPE_PRICE_STANDARD_YEARLY: { id: 'price_standard_yearly', unitAmount: 4800, interval: 'year' },
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
} as const;

const stripe = await startStripeServer({
  port: Number(values.port),
  prices: Object.values(prices),
  webhookSecret: values['webhook-secret'],
  ...(values['webhook-url'] ? { webhookUrl: values['webhook-url'] } : {}),
});

const settings = {
  STRIPE_API_URL: stripe.url,
  STRIPE_SECRET_KEY: 'sk_test_local_noted',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_local_noted',
  STRIPE_WEBHOOK_SECRET: values['webhook-secret'],
  ...Object.fromEntries(Object.entries(prices).map(([name, price]) => [name, price.id])),
};
for (const [name, value] of Object.entries(settings)) console.log(`export ${name}=${value}`);

const stop = () => {
  void stripe.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
