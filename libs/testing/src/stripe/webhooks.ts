import { createHmac } from 'node:crypto';
import type { StripeEvent } from './objects.js';

/** A signed webhook that was queued instead of sent (`webhooks: 'hold'`). */
export interface HeldWebhook {
  event: StripeEvent;
  /** The exact body Stripe would POST. */
  payload: string;
  /** The `Stripe-Signature` header value for that body. */
  header: string;
}

/** What happened to one event sent to `webhookUrl` (`webhooks: 'deliver'`). */
export interface WebhookDelivery {
  eventId: string;
  type: string;
  /** One entry per try: the status answered, or null and the error when nothing answered. */
  attempts: { status: number | null; error?: string }[];
  delivered: boolean;
}

/** Stripe's scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.payload" keyed with the secret>`. */
export const signatureHeader = (payload: string, secret: string, timestamp: number): string =>
  `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex')}`;

/**
 * Signing uses the wall clock, never the server's test clock: receivers check the timestamp
 * against their own clock (the SDK allows 300 s), and Stripe's test clocks sign with real time too.
 */
export const wallClock = () => Math.floor(Date.now() / 1000);

export interface OutboxOptions {
  mode: 'deliver' | 'hold';
  url: string | undefined;
  secret: string;
  retries: number;
  retryDelayMs: number;
}

export const createOutbox = (options: OutboxOptions) => {
  const held: HeldWebhook[] = [];
  const deliveries: WebhookDelivery[] = [];
  let queue: Promise<void> = Promise.resolve();
  const sign = (payload: string, timestamp = wallClock()) =>
    signatureHeader(payload, options.secret, timestamp);

  const post = async (payload: string, header: string): Promise<number> => {
    if (!options.url) throw new Error('The Stripe server has no webhookUrl to deliver to');
    const response = await fetch(options.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        'stripe-signature': header,
      },
      body: payload,
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    return response.status;
  };

  const deliver = async (event: StripeEvent, payload: string) => {
    const record: WebhookDelivery = {
      eventId: event.id,
      type: event.type,
      attempts: [],
      delivered: false,
    };
    deliveries.push(record);
    for (let attempt = 0; attempt <= options.retries && !record.delivered; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, options.retryDelayMs));
      try {
        const status = await post(payload, sign(payload));
        record.attempts.push({ status });
        record.delivered = status >= 200 && status < 300;
      } catch (error) {
        record.attempts.push({
          status: null,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  };

  return {
    sign,
    post,
    deliveries,
    /** Holds the event, or sends it after every earlier one (each send awaited, in order). */
    push(event: StripeEvent) {
      // Pretty-printed, as Stripe sends it: receivers must verify the exact bytes.
      const payload = JSON.stringify(event, null, 2);
      if (options.mode === 'hold') held.push({ event, payload, header: sign(payload) });
      else queue = queue.then(() => deliver(event, payload));
    },
    takeHeld: () => held.splice(0),
    idle: () => queue,
  };
};
