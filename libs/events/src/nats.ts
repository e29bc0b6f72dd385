import { randomUUID } from 'node:crypto';
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  jetstream,
  jetstreamManager,
  type ConsumerConfig,
  type ConsumerMessages,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { connect, headers as natsHeaders, nanos, type MsgHdrs } from '@nats-io/transport-node';
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
import { assertFilterSubject, assertPublishSubject } from './subject.js';

export interface NatsBusOptions {
  /** `nats://host:port`, several separated by commas. */
  url: string;
  service: string;
  logger: Logger;
  /** JetStream stream holding the events. Default `NOTED`. */
  stream?: string;
  /** Subjects the stream stores. Default `['noted.>']`. */
  subjects?: string[];
  /** How long the server waits for an ack before redelivering. Default 30 s. */
  ackWaitMs?: number;
  /** Oldest message the stream keeps, even if a durable has not handled it. Default 7 days. */
  maxAgeMs?: number;
}

const msgIdHeader = 'Nats-Msg-Id';

const isApiError = (error: unknown, code: number): boolean =>
  error instanceof JetStreamApiError && error.code === code;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const toRecord = (headers: MsgHdrs | undefined): Record<string, string> => {
  const record: Record<string, string> = {};
  if (!headers) return record;
  for (const [key, values] of headers) {
    if (key.toLowerCase().startsWith('nats-')) continue;
    const value = values[values.length - 1];
    if (value !== undefined) record[key] = value;
  }
  return record;
};

/** The largest event Noted publishes, with room to spare: a note at its 1,000,000 characters. */
export const EVENT_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The event bus on NATS JetStream: one stream (file storage, interest retention, 2 minute
 * duplicate window), durable pull consumers with explicit ack, starting at new messages.
 */
export const createNatsBus = async (options: NatsBusOptions): Promise<EventBus> => {
  const { service } = options;
  const streamName = options.stream ?? 'NOTED';
  const subjects = options.subjects ?? ['noted.>'];
  const ackWaitMs = options.ackWaitMs ?? 30_000;
  const maxAgeMs = options.maxAgeMs ?? 7 * 24 * 3600_000;
  const logger = options.logger.child({
    component: 'event-bus',
    adapter: 'nats',
    stream: streamName,
  });

  const nc = await connect({
    servers: options.url.split(',').map((server) => server.trim()),
    name: service,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1000,
  });
  // A note event carries the note: up to 1,000,000 characters, ~3 MB of UTF-8. A server that
  // takes less would refuse such an event, and the outbox relay would retry it forever.
  const maxPayload = nc.info?.max_payload ?? 0;
  if (maxPayload < EVENT_MAX_BYTES) {
    logger.error(
      { maxPayload, needed: EVENT_MAX_BYTES },
      `NATS takes messages of at most ${maxPayload} bytes; Noted's events need ${EVENT_MAX_BYTES}: set max_payload: 8MB in the NATS server's configuration`,
    );
  }
  let connected = true;
  let closing = false;
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') {
        connected = false;
        logger.warn({ server: status.server }, 'disconnected from NATS');
      } else if (status.type === 'reconnect') {
        connected = true;
        logger.info({ server: status.server }, 'reconnected to NATS');
      }
    }
  })();

  const js = jetstream(nc);
  let jsm: JetStreamManager;

  const ensureStream = async () => {
    try {
      const info = await jsm.streams.info(streamName);
      const missing = subjects.filter((subject) => !info.config.subjects.includes(subject));
      if (missing.length > 0 || info.config.duplicate_window !== nanos(defaultDedupWindowMs)) {
        await jsm.streams.update(streamName, {
          ...info.config,
          subjects: [...info.config.subjects, ...missing],
          duplicate_window: nanos(defaultDedupWindowMs),
        });
      }
    } catch (error) {
      if (!isApiError(error, JetStreamApiCodes.StreamNotFound)) throw error;
      await jsm.streams.add({
        name: streamName,
        subjects,
        storage: StorageType.File,
        retention: RetentionPolicy.Interest,
        duplicate_window: nanos(defaultDedupWindowMs),
        max_age: nanos(maxAgeMs),
      });
      logger.info({ subjects }, 'created stream');
    }
  };

  const ensureConsumer = async (config: Partial<ConsumerConfig> & { durable_name: string }) => {
    try {
      const info = await jsm.consumers.info(streamName, config.durable_name);
      const current = info.config;
      if (
        current.filter_subject !== config.filter_subject ||
        current.ack_wait !== config.ack_wait ||
        current.max_deliver !== config.max_deliver
      ) {
        await jsm.consumers.update(streamName, config.durable_name, {
          filter_subject: config.filter_subject,
          ack_wait: config.ack_wait,
          max_deliver: config.max_deliver,
        });
      }
    } catch (error) {
      if (!isApiError(error, JetStreamApiCodes.ConsumerNotFound)) throw error;
      await jsm.consumers.add(streamName, config);
    }
  };

  try {
    jsm = await jetstreamManager(nc);
    await ensureStream();
  } catch (error) {
    await nc.close();
    throw error;
  }

  const workers = new Set<{ stop(): Promise<void> }>();

  const subscribe = async (subscribeOptions: SubscribeOptions): Promise<Subscription> => {
    assertFilterSubject(subscribeOptions.subject);
    const durable = subscribeOptions.durable;
    const retryDelayMs = subscribeOptions.retryDelayMs ?? defaultRetryDelayMs;
    const maxDeliver = subscribeOptions.maxDeliver ?? defaultMaxDeliver;
    const config = {
      durable_name: durable,
      filter_subject: subscribeOptions.subject,
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(ackWaitMs),
      max_deliver: maxDeliver,
      deliver_policy: DeliverPolicy.New,
    };
    await ensureConsumer(config);

    let stopped = false;
    let messages: ConsumerMessages | undefined;

    const handle = async (msg: JsMsg) => {
      if (stopped) {
        msg.nak();
        return;
      }
      const message: BusMessage = {
        id: msg.headers?.get(msgIdHeader) || `${streamName}:${msg.seq}`,
        subject: msg.subject,
        data: msg.data,
        headers: toRecord(msg.headers),
        deliveryCount: msg.info.deliveryCount,
      };
      // A slow handler keeps its message: tell the server we are still working on it.
      const keepAlive = setInterval(() => msg.working(), Math.max(1000, ackWaitMs / 2));
      try {
        const outcome = await runHandler(
          { service, logger, durable },
          { handler: subscribeOptions.handler, maxDeliver },
          message,
        );
        if (outcome === 'acked') msg.ack();
        else if (outcome === 'retry') msg.nak(retryDelayMs);
        else msg.term();
      } finally {
        clearInterval(keepAlive);
      }
    };

    const loop = async () => {
      let backoffMs = 250;
      let interrupted = false;
      while (!stopped) {
        try {
          if (interrupted) {
            await ensureStream();
            await ensureConsumer(config);
          }
          const consumer = await js.consumers.get(streamName, durable);
          messages = await consumer.consume({ max_messages: 32 });
          const current = messages;
          if (stopped) {
            await current.close();
            break;
          }
          void (async () => {
            for await (const note of current.status()) {
              if (
                note.type === 'consumer_deleted' ||
                note.type === 'consumer_not_found' ||
                note.type === 'stream_not_found'
              ) {
                logger.warn({ durable, notification: note.type }, 'consumer lost; recreating it');
                await current.close();
              }
            }
          })().catch(() => undefined);
          for await (const msg of current) {
            await handle(msg);
            backoffMs = 250;
          }
          if (stopped) break;
          interrupted = true;
        } catch (error) {
          if (stopped) break;
          interrupted = true;
          logger.warn({ durable, err: error }, 'consumer interrupted; retrying');
          await sleep(backoffMs);
          backoffMs = Math.min(backoffMs * 2, 10_000);
        }
      }
    };

    const done = loop();
    const worker = {
      async stop() {
        if (stopped) return done;
        stopped = true;
        await messages?.close();
        await done;
        workers.delete(worker);
      },
    };
    workers.add(worker);
    logger.debug({ durable, subject: subscribeOptions.subject }, 'subscribed');
    return worker;
  };

  return {
    async publish(
      subject: string,
      data: Uint8Array,
      publishOptions: PublishOptions,
    ): Promise<void> {
      assertPublishSubject(subject);
      const headers = natsHeaders();
      for (const [key, value] of Object.entries(publishOptions.headers ?? {}))
        headers.set(key, value);
      const ack = await js.publish(subject, data, { msgID: publishOptions.id, headers });
      eventsTotal.inc({ service, subject, outcome: ack.duplicate ? 'duplicate' : 'published' });
      if (ack.duplicate) {
        logger.debug(
          { subject, messageId: publishOptions.id },
          'duplicate event id; not stored again',
        );
      }
    },

    subscribe,

    // A core NATS subscription: JetStream's publishes are NATS messages on their subject, so
    // every subscriber gets them as they are published, without a consumer on the stream (none
    // to clean up when a replica goes away, nothing kept for it).
    async listen(listenOptions: ListenOptions): Promise<Subscription> {
      assertFilterSubject(listenOptions.subject);
      const subscription = nc.subscribe(listenOptions.subject, {
        callback: (error, msg) => {
          if (error) {
            logger.warn({ err: error, subject: listenOptions.subject }, 'listener failed');
            return;
          }
          try {
            listenOptions.handler({
              // Every Noted event has its id; anything else is a message of its own.
              id: msg.headers?.get(msgIdHeader) || randomUUID(),
              subject: msg.subject,
              data: msg.data,
              headers: toRecord(msg.headers),
            });
          } catch (handlerError) {
            logger.error({ err: handlerError, subject: msg.subject }, 'event listener failed');
          }
        },
      });
      return {
        async stop() {
          subscription.unsubscribe();
        },
      };
    },

    healthy: () => connected && !closing && !nc.isClosed(),

    async close(): Promise<void> {
      if (closing) return;
      closing = true;
      await Promise.all([...workers].map((worker) => worker.stop()));
      // Draining needs the server; while disconnected it would wait for a reconnect.
      let timer: NodeJS.Timeout | undefined;
      const drained = await Promise.race([
        nc.drain().then(
          () => true,
          () => false,
        ),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), 5000);
        }),
      ]);
      clearTimeout(timer);
      if (!drained && !nc.isClosed()) await nc.close();
    },
  };
};
