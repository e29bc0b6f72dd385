import { eventsTotal, type Logger } from '@noted/kit';
import type {
  BusMessage,
  EventBus,
  ListenOptions,
  PublishOptions,
  SubscribeOptions,
  Subscription,
} from './bus.js';
import {
  defaultDedupWindowMs,
  defaultMaxDeliver,
  defaultRetryDelayMs,
  runHandler,
} from './handle.js';
import { assertFilterSubject, assertPublishSubject, subjectMatches } from './subject.js';

export interface MemoryBusOptions {
  service: string;
  logger: Logger;
  /** How long a message id is remembered for de-duplication. Default 2 minutes. */
  dedupWindowMs?: number;
}

type Stored = Omit<BusMessage, 'deliveryCount'>;

interface Pending {
  message: Stored;
  deliveries: number;
  availableAt: number;
}

interface Worker {
  handler: SubscribeOptions['handler'];
  busy: boolean;
  stopped: boolean;
  current: Promise<void> | undefined;
}

interface Durable {
  name: string;
  filter: string;
  retryDelayMs: number;
  maxDeliver: number;
  queue: Pending[];
  workers: Worker[];
  next: number;
  timer: NodeJS.Timeout | undefined;
  timerAt: number;
}

/**
 * The in-process event bus: the same contract as JetStream for a single process. Durable
 * consumers keep their queue while no subscriber is attached; a durable created after a
 * message was published does not get it (JetStream's DeliverPolicy.New, which the NATS
 * adapter uses too). Each subscription handles one message at a time.
 */
export const createMemoryBus = (options: MemoryBusOptions): EventBus => {
  const { service } = options;
  const logger = options.logger.child({ component: 'event-bus', adapter: 'memory' });
  const dedupWindowMs = options.dedupWindowMs ?? defaultDedupWindowMs;
  const durables = new Map<string, Durable>();
  const listeners = new Set<ListenOptions>();
  // Insertion order is expiry order, so expired ids are always at the front.
  const seen = new Map<string, number>();
  let closed = false;

  const forgetExpired = (now: number) => {
    for (const [id, expiresAt] of seen) {
      if (expiresAt > now) break;
      seen.delete(id);
    }
  };

  const schedule = (durable: Durable) => {
    setImmediate(() => dispatch(durable));
  };

  const wakeAt = (durable: Durable, at: number) => {
    if (durable.timer && durable.timerAt <= at) return;
    if (durable.timer) clearTimeout(durable.timer);
    durable.timerAt = at;
    durable.timer = setTimeout(
      () => {
        durable.timer = undefined;
        dispatch(durable);
      },
      Math.max(0, at - Date.now()),
    );
  };

  const deliver = (durable: Durable, worker: Worker, pending: Pending) => {
    worker.busy = true;
    pending.deliveries += 1;
    const message: BusMessage = {
      ...pending.message,
      headers: { ...pending.message.headers },
      deliveryCount: pending.deliveries,
    };
    worker.current = runHandler(
      { service, logger, durable: durable.name },
      { handler: worker.handler, maxDeliver: durable.maxDeliver },
      message,
    ).then((outcome) => {
      if (outcome === 'retry' && !closed) {
        pending.availableAt = Date.now() + durable.retryDelayMs;
        durable.queue.push(pending);
        wakeAt(durable, pending.availableAt);
      }
      worker.busy = false;
      worker.current = undefined;
      if (!closed) schedule(durable);
    });
  };

  const dispatch = (durable: Durable) => {
    if (closed) return;
    const now = Date.now();
    let earliestWaiting = Infinity;
    for (let n = 0; n < durable.workers.length; n++) {
      const index = (durable.next + n) % durable.workers.length;
      const worker = durable.workers[index];
      if (!worker || worker.busy || worker.stopped) continue;
      const position = durable.queue.findIndex((pending) => pending.availableAt <= now);
      if (position < 0) break;
      const [pending] = durable.queue.splice(position, 1);
      if (!pending) break;
      durable.next = index + 1;
      deliver(durable, worker, pending);
    }
    for (const pending of durable.queue)
      earliestWaiting = Math.min(earliestWaiting, pending.availableAt);
    if (earliestWaiting > now && earliestWaiting !== Infinity) wakeAt(durable, earliestWaiting);
  };

  return {
    async publish(
      subject: string,
      data: Uint8Array,
      publishOptions: PublishOptions,
    ): Promise<void> {
      if (closed) throw new Error('event bus is closed');
      assertPublishSubject(subject);
      const { id } = publishOptions;
      const now = Date.now();
      forgetExpired(now);
      if (seen.has(id)) {
        eventsTotal.inc({ service, subject, outcome: 'duplicate' });
        logger.debug({ subject, messageId: id }, 'duplicate event id; not stored again');
        return;
      }
      seen.set(id, now + dedupWindowMs);
      const message: Stored = {
        id,
        subject,
        data: Uint8Array.from(data),
        headers: { ...publishOptions.headers },
      };
      for (const durable of durables.values()) {
        if (!subjectMatches(durable.filter, subject)) continue;
        durable.queue.push({ message, deliveries: 0, availableAt: now });
        schedule(durable);
      }
      for (const listener of listeners) {
        if (!subjectMatches(listener.subject, subject)) continue;
        // As a NATS core subscription gets it: later, on its own, never holding up publish.
        setImmediate(() => {
          if (closed || !listeners.has(listener)) return;
          try {
            listener.handler({ ...message, headers: { ...message.headers } });
          } catch (error) {
            logger.error({ err: error, subject }, 'event listener failed');
          }
        });
      }
      eventsTotal.inc({ service, subject, outcome: 'published' });
    },

    async subscribe(subscribeOptions: SubscribeOptions): Promise<Subscription> {
      if (closed) throw new Error('event bus is closed');
      assertFilterSubject(subscribeOptions.subject);
      let durable = durables.get(subscribeOptions.durable);
      if (!durable) {
        durable = {
          name: subscribeOptions.durable,
          filter: subscribeOptions.subject,
          retryDelayMs: defaultRetryDelayMs,
          maxDeliver: defaultMaxDeliver,
          queue: [],
          workers: [],
          next: 0,
          timer: undefined,
          timerAt: Infinity,
        };
        durables.set(durable.name, durable);
      }
      durable.filter = subscribeOptions.subject;
      durable.retryDelayMs = subscribeOptions.retryDelayMs ?? defaultRetryDelayMs;
      durable.maxDeliver = subscribeOptions.maxDeliver ?? defaultMaxDeliver;
      const worker: Worker = {
        handler: subscribeOptions.handler,
        busy: false,
        stopped: false,
        current: undefined,
      };
      durable.workers.push(worker);
      schedule(durable);
      logger.debug({ durable: durable.name, subject: durable.filter }, 'subscribed');
      const owner = durable;
      return {
        async stop() {
          worker.stopped = true;
          owner.workers = owner.workers.filter((other) => other !== worker);
          await worker.current;
        },
      };
    },

    async listen(listenOptions: ListenOptions): Promise<Subscription> {
      if (closed) throw new Error('event bus is closed');
      assertFilterSubject(listenOptions.subject);
      const listener = { ...listenOptions };
      listeners.add(listener);
      return {
        async stop() {
          listeners.delete(listener);
        },
      };
    },

    healthy: () => !closed,

    async close(): Promise<void> {
      if (closed) return;
      const running: Promise<void>[] = [];
      for (const durable of durables.values()) {
        if (durable.timer) clearTimeout(durable.timer);
        for (const worker of durable.workers) {
          worker.stopped = true;
          if (worker.current) running.push(worker.current);
        }
        durable.workers = [];
      }
      listeners.clear();
      closed = true;
      await Promise.all(running);
    },
  };
};
