import {
  Client,
  Metadata,
  credentials as channelCredentials,
  status,
  type ChannelCredentials,
  type ChannelOptions,
  type ServiceError,
} from '@grpc/grpc-js';
import {
  create,
  fromBinary,
  toBinary,
  type DescMessage,
  type DescMethod,
  type DescService,
  type Message,
  type MessageInitShape,
} from '@bufbuild/protobuf';
import { currentContext, grpcDuration, grpcRequests, startTimer } from '@noted/kit';
import { fromServiceError, statusName } from './errors.js';
import { methodPath, toBuffer, unaryMethods } from './methods.js';
import { MAX_MESSAGE_BYTES } from './server.js';
import type { CallOptions, ServiceClient } from './types.js';

export interface GrpcClientOptions {
  /** Metrics label of the calling service, such as `gateway`. */
  service: string;
  /** Deadline of every call unless the call sets its own. Default 5000 ms. */
  deadlineMs?: number;
  /** Metadata added to every call, asked for per call (for short-lived signed identities). */
  metadata?: () => Promise<Record<string, string>> | Record<string, string>;
  /** Defaults to plaintext; pass `credentials.createSsl(...)` from @grpc/grpc-js for TLS. */
  credentials?: ChannelCredentials;
  /**
   * grpc-js channel options (keepalive, message size limits, ...); each overrides the same key
   * of `DEFAULT_CHANNEL_OPTIONS`.
   */
  channelOptions?: ChannelOptions;
}

export const DEFAULT_DEADLINE_MS = 5_000;

/**
 * Every client spreads its calls over all the addresses its target resolves to (round_robin,
 * one connection to each) instead of pinning one (grpc-js's default, pick_first). Give it a
 * name that resolves to every server, such as a Kubernetes headless Service
 * (`dns:///noted-users-grpc.noted.svc.cluster.local:5101`); a ClusterIP Service name resolves
 * to one address and so still pins one pod per connection.
 *
 * grpc-js resolves the name again when a connection drops (servers close theirs after
 * `maxConnectionAgeMs`, see server.ts), at most once per `dns_min_time_between_resolutions_ms`:
 * that is when pods added since are found and pods gone are forgotten. The service config
 * comes from here only: no TXT lookup of `grpc_config` alongside each resolution.
 *
 * A connection refused is tried again after 250 ms, doubling up to 2 s (grpc-js's defaults are
 * 1 s up to 120 s). Calls fail fast while no connection is up, so a server that started a few
 * seconds after its caller, or came back after a restart, would otherwise go unused for up to
 * two minutes: the next attempt is all a caller waits for.
 */
export const DEFAULT_CHANNEL_OPTIONS: ChannelOptions = {
  'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
  'grpc.service_config_disable_resolution': 1,
  'grpc.dns_min_time_between_resolutions_ms': 5_000,
  'grpc.initial_reconnect_backoff_ms': 250,
  'grpc.max_reconnect_backoff_ms': 2_000,
  'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
};

type Outcome =
  { error: ServiceError; response?: undefined } | { error?: undefined; response: Message };

/**
 * A typed client for a generated service: `client.getNote({ userId, noteId })` resolves with
 * the response message or rejects with an `AppError` (code from the server, or TIMEOUT,
 * UNAVAILABLE, ... from the transport).
 */
export const createGrpcClient = <S extends DescService>(
  service: S,
  address: string,
  options: GrpcClientOptions,
): ServiceClient<S> => {
  const client = new Client(address, options.credentials ?? channelCredentials.createInsecure(), {
    ...DEFAULT_CHANNEL_OPTIONS,
    ...options.channelOptions,
  });

  const send = (
    method: DescMethod,
    request: Message,
    metadata: Metadata,
    deadline: Date,
    signal: AbortSignal | undefined,
  ) =>
    new Promise<Outcome>((resolve) => {
      const onAbort = () => call.cancel();
      const call = client.makeUnaryRequest(
        methodPath(method),
        (message: Message) => toBuffer(toBinary(method.input, message)),
        (bytes: Buffer) => fromBinary(method.output, bytes),
        request,
        metadata,
        { deadline },
        (error, response) => {
          signal?.removeEventListener('abort', onAbort);
          if (error) resolve({ error });
          else if (response) resolve({ response });
          else resolve({ error: Object.assign(new Error('empty response'), missingResponse) });
        },
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    });

  const invoke = async (
    method: DescMethod,
    init: MessageInitShape<DescMessage>,
    callOptions: CallOptions = {},
  ): Promise<Message> => {
    const { signal } = callOptions;
    signal?.throwIfAborted();
    const path = methodPath(method);
    const metadata = new Metadata();
    const { requestId } = currentContext();
    if (requestId) metadata.set('x-request-id', requestId);
    const extra = { ...(await options.metadata?.()), ...callOptions.metadata };
    for (const [key, value] of Object.entries(extra)) metadata.set(key, value);
    const deadlineMs = callOptions.deadlineMs ?? options.deadlineMs ?? DEFAULT_DEADLINE_MS;

    const elapsed = startTimer();
    const outcome = await send(
      method,
      create(method.input, init),
      metadata,
      new Date(Date.now() + deadlineMs),
      signal,
    );
    const labels = {
      service: options.service,
      side: 'client',
      method: path,
      code: statusName(outcome.error ? outcome.error.code : status.OK),
    };
    grpcRequests.inc(labels);
    grpcDuration.observe(labels, elapsed());

    if (!outcome.error) return outcome.response;
    if (signal?.aborted) throw signal.reason;
    throw fromServiceError(outcome.error, path);
  };

  const methods: Record<string, unknown> = { close: () => client.close() };
  for (const method of unaryMethods(service)) {
    if (method.localName === 'close') {
      throw new Error(`${service.typeName}.${method.name} clashes with the client's close()`);
    }
    methods[method.localName] = (init: MessageInitShape<DescMessage>, callOptions?: CallOptions) =>
      invoke(method, init, callOptions);
  }
  return methods as ServiceClient<S>;
};

const missingResponse = {
  code: status.INTERNAL,
  details: 'The server answered without a message',
  metadata: new Metadata(),
};
