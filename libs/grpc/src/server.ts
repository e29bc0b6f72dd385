import { randomUUID } from 'node:crypto';
import {
  Server,
  ServerCredentials,
  status,
  type Metadata,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServerOptions,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
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
import { AppError } from '@noted/api';
import { grpcDuration, grpcRequests, runWithContext, startTimer, type Logger } from '@noted/kit';
import { statusName, toStatus } from './errors.js';
import { methodPath, toBuffer, unaryMethods } from './methods.js';
import type { CallContext, ServiceImpl } from './types.js';

export interface GrpcServerOptions {
  /** Metrics and log label, such as `notes`. */
  service: string;
  logger: Logger;
  /** Runs before every call except health checks; a throw answers UNAUTHENTICATED. */
  authenticate?: (metadata: Metadata, method: string) => Promise<void>;
  /** Defaults to plaintext; pass `ServerCredentials.createSsl(...)` for TLS. */
  credentials?: ServerCredentials;
  /** How long `stop()` lets calls in flight finish before cutting them. Default 10 s. */
  stopTimeoutMs?: number;
  /**
   * How long a client connection lives (grpc-js adds up to ±10 % jitter) before the server asks
   * the client to go (GOAWAY) and connect again: the client then resolves its target anew, so
   * pods started since (a scale-out) get their share of its calls. Calls in flight go on; new
   * ones go to the client's new connection. 0 keeps connections forever. Default 5 minutes.
   */
  maxConnectionAgeMs?: number;
  /** How long calls in flight on a connection past its age may still run. Default 30 s. */
  maxConnectionAgeGraceMs?: number;
  /** grpc-js channel options (message size limits, keepalive, ...); they win over the above. */
  serverOptions?: ServerOptions;
}

export const DEFAULT_MAX_CONNECTION_AGE_MS = 5 * 60_000;
/**
 * The largest message a server or client takes (grpc-js's default is 4 MiB): captured audio
 * and PDFs (at most 25 MB) cross between notes and ai in one message.
 */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
export const DEFAULT_MAX_CONNECTION_AGE_GRACE_MS = 30_000;

export interface GrpcServer {
  /** Registers a generated service; call before `listen`. */
  add<S extends DescService>(service: S, impl: ServiceImpl<S>): void;
  /** Binds `host:port` (port 0 picks a free one) and starts serving. */
  listen(address: string): Promise<{ port: number }>;
  /** Marks every service NOT_SERVING, lets calls in flight finish, then shuts down. */
  stop(): Promise<void>;
  /** Sets the health status of the server ("") and of every added service. */
  setServing(serving: boolean): void;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
const HEALTH_SERVICE = '';

type Handler = (request: Message, context: CallContext) => Promise<MessageInitShape<DescMessage>>;

export const createGrpcServer = (options: GrpcServerOptions): GrpcServer => {
  const maxAge = options.maxConnectionAgeMs ?? DEFAULT_MAX_CONNECTION_AGE_MS;
  const server = new Server({
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    ...(maxAge > 0
      ? {
          'grpc.max_connection_age_ms': maxAge,
          'grpc.max_connection_age_grace_ms':
            options.maxConnectionAgeGraceMs ?? DEFAULT_MAX_CONNECTION_AGE_GRACE_MS,
        }
      : {}),
    ...options.serverOptions,
  });
  const health = new HealthImplementation({ [HEALTH_SERVICE]: 'NOT_SERVING' });
  health.addToServer(server);
  const serviceNames: string[] = [];
  let serving = false;
  let listening = false;
  let stopping: Promise<void> | undefined;

  const setServing = (value: boolean) => {
    serving = value;
    for (const name of [HEALTH_SERVICE, ...serviceNames]) {
      health.setStatus(name, value ? 'SERVING' : 'NOT_SERVING');
    }
  };

  const authenticate = async (metadata: Metadata, method: string) => {
    if (!options.authenticate) return;
    try {
      await options.authenticate(metadata, method);
    } catch (error) {
      if (error instanceof AppError && error.code === 'UNAUTHENTICATED') throw error;
      if (!(error instanceof AppError)) {
        options.logger.error({ err: error, method }, 'grpc authenticate failed');
      }
      throw new AppError('UNAUTHENTICATED', 'This call is not authenticated');
    }
  };

  const unaryHandler =
    (method: DescMethod, handler: Handler) =>
    (call: ServerUnaryCall<Message, Message>, callback: sendUnaryData<Message>) => {
      const path = methodPath(method);
      const elapsed = startTimer();
      const given = call.metadata.get('x-request-id')[0];
      const requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      let controller: AbortController | undefined;
      let finished = false;
      // grpc-js reports every call as cancelled once its status is sent; only a call still
      // running is aborted (an abort builds a DOMException with a stack trace).
      call.on('cancelled', () => {
        if (!finished) (controller ??= new AbortController()).abort();
      });
      const deadline = call.getDeadline();
      const context: CallContext = {
        metadata: call.metadata,
        deadline:
          deadline instanceof Date
            ? deadline
            : Number.isFinite(deadline)
              ? new Date(deadline)
              : undefined,
        // Made when a handler first asks: most never do.
        get signal() {
          return (controller ??= new AbortController()).signal;
        },
        method: path,
      };

      const finish = (code: status) => {
        finished = true;
        const seconds = elapsed();
        const labels = {
          service: options.service,
          side: 'server',
          method: path,
          code: statusName(code),
        };
        grpcRequests.inc(labels);
        grpcDuration.observe(labels, seconds);
        options.logger.info(
          { method: path, code: labels.code, ms: Math.round(seconds * 1000) },
          'grpc request',
        );
      };

      void runWithContext({ requestId }, async () => {
        try {
          await authenticate(call.metadata, path);
          const init = await handler(call.request, context);
          const response = create(method.output, init);
          if (call.cancelled) return finish(status.CANCELLED);
          callback(null, response);
          finish(status.OK);
        } catch (error) {
          if (call.cancelled) return finish(status.CANCELLED);
          const { status: answer, internal } = toStatus(error);
          if (internal) options.logger.error({ err: error, method: path }, 'grpc handler failed');
          callback(answer);
          finish(answer.code ?? status.INTERNAL);
        }
      });
    };

  return {
    add(service, impl) {
      if (listening) throw new Error(`add ${service.typeName} before listen`);
      const definition: Record<string, ServiceDefinition[string]> = {};
      const handlers: UntypedServiceImplementation = {};
      const handlerOf = impl as Record<string, Handler>;
      for (const method of unaryMethods(service)) {
        const handler = handlerOf[method.localName];
        if (typeof handler !== 'function') {
          throw new Error(`${service.typeName}.${method.name} has no handler`);
        }
        definition[method.localName] = {
          path: methodPath(method),
          requestStream: false,
          responseStream: false,
          originalName: method.localName,
          requestSerialize: (message: Message) => toBuffer(toBinary(method.input, message)),
          requestDeserialize: (bytes: Buffer) => fromBinary(method.input, bytes),
          responseSerialize: (message: Message) => toBuffer(toBinary(method.output, message)),
          responseDeserialize: (bytes: Buffer) => fromBinary(method.output, bytes),
        };
        handlers[method.localName] = unaryHandler(method, handler);
      }
      server.addService(definition, handlers);
      serviceNames.push(service.typeName);
      health.setStatus(service.typeName, serving ? 'SERVING' : 'NOT_SERVING');
    },

    listen(address) {
      return new Promise((resolve, reject) => {
        server.bindAsync(
          address,
          options.credentials ?? ServerCredentials.createInsecure(),
          (error, port) => {
            if (error) return reject(error);
            listening = true;
            setServing(true);
            resolve({ port });
          },
        );
      });
    },

    stop() {
      stopping ??= new Promise<void>((resolve) => {
        setServing(false);
        const timer = setTimeout(() => {
          options.logger.warn(
            { service: options.service },
            'grpc calls still running, forcing shutdown',
          );
          server.forceShutdown();
          resolve();
        }, options.stopTimeoutMs ?? 10_000);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      return stopping;
    },

    setServing,
  };
};
