import type { Logger } from '@noted/kit';
import type { EventBus, SubscribeOptions } from './bus.js';

/**
 * Gathers the items handed in during one turn of the event loop and runs them together (one
 * statement, one provider call); every caller learns that run's outcome, so a failure
 * redelivers them all.
 */
export const gatherPerTurn = <T>(run: (items: T[]) => Promise<unknown>) => {
  let batch: { items: T[]; done: Promise<void> } | undefined;
  return (item: T): Promise<void> => {
    if (!batch) {
      const items: T[] = [];
      const done = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        batch = undefined;
        await run(items);
      });
      batch = { items, done };
    }
    batch.items.push(item);
    return batch.done;
  };
};

/**
 * Subscribes `workers` times to one durable consumer. The bus hands each subscription one
 * event at a time, so this is how many events a replica handles at once (and holds in memory).
 */
export const subscribeWorkers = (
  bus: EventBus,
  options: SubscribeOptions & { workers: number; logger: Logger; name: string },
) => {
  const { workers, logger, name, ...subscribe } = options;
  const subscriptions = Array.from({ length: workers }, () => bus.subscribe(subscribe));
  Promise.all(subscriptions).catch((error: unknown) => {
    logger.error({ err: error, durable: subscribe.durable }, `${name} could not subscribe`);
  });
  return {
    stop: async () => {
      const started = await Promise.allSettled(subscriptions);
      await Promise.all(
        started.map((result) => (result.status === 'fulfilled' ? result.value.stop() : undefined)),
      );
    },
  };
};
