import { eventDuration, eventsTotal, startTimer, type Logger } from '@noted/kit';
import type { BusMessage, SubscribeOptions } from './bus.js';

export const defaultRetryDelayMs = 1000;
export const defaultMaxDeliver = 10;
export const defaultDedupWindowMs = 2 * 60_000;

export type Outcome = 'acked' | 'retry' | 'gave_up';

/**
 * Runs one delivery through a handler with the metrics and log lines both adapters share.
 * Never throws: the adapter acts on the outcome (ack, redeliver later, or drop).
 */
export const runHandler = async (
  context: { service: string; logger: Logger; durable: string },
  options: Pick<SubscribeOptions, 'handler'> & { maxDeliver: number },
  message: BusMessage,
): Promise<Outcome> => {
  const { service, logger, durable } = context;
  const labels = { service, subject: message.subject };
  const elapsed = startTimer();
  try {
    await options.handler(message);
    eventsTotal.inc({ ...labels, outcome: 'acked' });
    return 'acked';
  } catch (error) {
    eventsTotal.inc({ ...labels, outcome: 'failed' });
    const line = {
      durable,
      subject: message.subject,
      messageId: message.id,
      deliveryCount: message.deliveryCount,
      err: error,
    };
    if (message.deliveryCount >= options.maxDeliver) {
      eventsTotal.inc({ ...labels, outcome: 'gave_up' });
      logger.error(line, 'event handler failed on its last delivery; message given up');
      return 'gave_up';
    }
    logger.warn(line, 'event handler failed; message will be delivered again');
    return 'retry';
  } finally {
    eventDuration.observe(labels, elapsed());
  }
};
