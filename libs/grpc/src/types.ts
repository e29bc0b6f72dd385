import type { Metadata } from '@grpc/grpc-js';
import type { DescMessage, DescService, MessageInitShape, MessageShape } from '@bufbuild/protobuf';

/** What a handler knows about the call besides its request. */
export interface CallContext {
  /** Request metadata (headers) as the caller sent them. */
  metadata: Metadata;
  /** When the caller stops waiting; pass what is left to downstream calls. */
  deadline: Date | undefined;
  /** Aborts when the caller cancels or the deadline passes. */
  signal: AbortSignal;
  /** Full method path, `/noted.notes.v1.NotesService/GetNote`. */
  method: string;
}

type UnaryMethod<I extends DescMessage, O extends DescMessage> = {
  methodKind: 'unary';
  input: I;
  output: O;
};

/** A method the adapter cannot serve (streaming) has no valid implementation. */
export type MethodImpl<M> =
  M extends UnaryMethod<infer I, infer O>
    ? (request: MessageShape<I>, context: CallContext) => Promise<MessageInitShape<O>>
    : never;

/** The handlers for a generated service: one async function per RPC, keyed by local name. */
export type ServiceImpl<S extends DescService> = {
  [K in keyof S['method']]: MethodImpl<S['method'][K]>;
};

export interface CallOptions {
  /** Overrides the client's default deadline for this call. */
  deadlineMs?: number;
  /** Cancels the call; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Extra request metadata for this call only. */
  metadata?: Record<string, string>;
}

export type ClientMethod<M> =
  M extends UnaryMethod<infer I, infer O>
    ? (request: MessageInitShape<I>, options?: CallOptions) => Promise<MessageShape<O>>
    : never;

/** A typed client: one async method per RPC, keyed by local name (`ensureUser`), and `close`. */
export type ServiceClient<S extends DescService> = {
  [K in keyof S['method']]: ClientMethod<S['method'][K]>;
} & { close(): void };
