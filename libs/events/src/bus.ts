/**
 * The event bus port. Delivery is at least once: a handler that returns acks the message,
 * one that throws gets it again later (after `retryDelayMs`, up to `maxDeliver` times). A
 * message published twice with the same id within the de-duplication window is stored once.
 * Subjects follow `noted.<service>.v1.<entity>.<verb>`; payloads are protobuf bytes.
 */
export interface BusMessage {
  /** The message id given at publish: the event id. */
  id: string;
  subject: string;
  data: Uint8Array;
  headers: Record<string, string>;
  /** 1 on the first delivery, 2 on the first redelivery, ... */
  deliveryCount: number;
}

export interface PublishOptions {
  /** Message id used for de-duplication (JetStream `Nats-Msg-Id`). */
  id: string;
  headers?: Record<string, string>;
}

export interface SubscribeOptions {
  /** Durable consumer name; consumers with the same name share the work (queue semantics). */
  durable: string;
  /** Subject filter, NATS wildcards allowed (`noted.notes.v1.note.*`, `noted.>`). */
  subject: string;
  handler: (message: BusMessage) => Promise<void>;
  /** How long before a failed message is delivered again. Default 1000 ms. */
  retryDelayMs?: number;
  /** Deliveries before a message is given up (and logged). Default 10. */
  maxDeliver?: number;
}

/**
 * A fan-out listener: every listener, in every process, gets each message published on a
 * matching subject from the moment it listens, at most once and in no durable way: nothing is
 * acknowledged, nothing redelivered, nothing kept while no one listens. For pushing what
 * happened to whoever is connected now (the realtime service), never for work that must be
 * done. A message published again with the same id may reach a listener twice: listeners
 * de-duplicate by `id` if they must.
 */
export interface ListenOptions {
  /** Subject filter, NATS wildcards allowed. */
  subject: string;
  /** Called for each message; what it throws is logged, never retried. */
  handler: (message: Omit<BusMessage, 'deliveryCount'>) => void;
}

export interface Subscription {
  /** Stops delivering; the durable consumer keeps its position for the next subscribe. */
  stop(): Promise<void>;
}

export interface EventBus {
  publish(subject: string, data: Uint8Array, options: PublishOptions): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  listen(options: ListenOptions): Promise<Subscription>;
  /** True while the bus can publish (drives readiness). */
  healthy(): boolean;
  close(): Promise<void>;
}
