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
import { localStripe, localStripeSettings } from './prices.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'webhook-url': { type: 'string' },
  },
});

const stripe = await startStripeServer({
  port: Number(values.port),
  prices: Object.values(localStripe.prices),
  webhookSecret: localStripe.webhookSecret,
  ...(values['webhook-url'] ? { webhookUrl: values['webhook-url'] } : {}),
});

for (const [name, value] of Object.entries(localStripeSettings(stripe.url))) {
  console.log(`export ${name}=${value}`);
}

const stop = () => {
  void stripe.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
