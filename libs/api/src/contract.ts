import type * as z from 'zod';

/**
 * One route of the public API, declared once: method, path, who serves it, what it takes and
 * what it answers. The services' routers validate at the edge from it, the OpenAPI document is
 * a fold over all of them, the client calls them, and the gateway routes by them.
 */
export interface Contract {
  method: HttpMethod;
  /** Express style: `/api/notes/:id`; the document shows `/api/notes/{id}`. */
  path: string;
  service: ServiceName;
  summary: string;
  tag: string;
  /** Served without an account (a shared note); everything else needs a token. */
  public?: boolean;
  /**
   * `optional`: served signed in or not. A token, when sent, is verified as on any route (a bad
   * one answers 401) and the user goes with the request; without one it goes on anonymously.
   */
  auth?: 'optional';
  /**
   * A public route whose caller proves who it is by a signature in a header instead of a token
   * (Stripe's webhook): documented as an API-key security scheme; a missing or bad signature is
   * the route's own documented refusal (400 for Stripe, as its libraries answer).
   */
  signature?: { scheme: string; header: string; description: string };
  params?: z.ZodType;
  query?: z.ZodType;
  /** A JSON body. */
  body?: z.ZodType;
  /** A multipart body, read by the handler as it streams in (files). */
  form?: z.ZodType;
  answer: Answer;
  /** Error statuses beyond the ones every route may answer (see `commonErrors`). */
  errors?: readonly ErrorAnswer[];
}

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';
export type ServiceName = 'notes' | 'ai' | 'users' | 'billing' | 'realtime' | 'export';

/** An error status a route may answer, alone or with what it means on that route. */
export type ErrorAnswer = number | readonly [number, string];

export type Answer =
  | { kind: 'json'; status: 200 | 201 | 202; description: string; schema: z.ZodType }
  | { kind: 'empty'; status: 204; description: string }
  | { kind: 'events'; status: 200; description: string; schema: z.ZodType }
  | {
      kind: 'file';
      status: 200;
      description: string;
      mediaTypes: readonly string[];
      /** Response headers worth documenting (`Content-Disposition`, a count for progress). */
      headers?: z.ZodObject;
    }
  /** A WebSocket: the handler takes the upgrade; `schema` is one message the server sends. */
  | { kind: 'upgrade'; status: 101; description: string; schema: z.ZodType };

/** What a route declares besides where it is; its group gives the service and the tag. */
type Declared = Omit<Contract, 'method' | 'path' | 'service' | 'tag'> & { tag?: string };

/**
 * Declares the routes of one service under one tag, keeping each contract's literal types
 * (method, path, schemas) for the router and the client: `notesApi.get('/api/notes', {...})`.
 */
export const routesFor = <const S extends ServiceName>(service: S, tag: string) => {
  const at =
    <const M extends HttpMethod>(method: M) =>
    <const P extends string, const D extends Declared>(path: P, declared: D) => ({
      tag,
      ...declared,
      service,
      method,
      path,
    });
  return { get: at('get'), post: at('post'), put: at('put'), delete: at('delete') };
};

export const ok = <S extends z.ZodType>(schema: S, description: string) =>
  ({ kind: 'json', status: 200, description, schema }) as const;
export const created = <S extends z.ZodType>(schema: S, description: string) =>
  ({ kind: 'json', status: 201, description, schema }) as const;
/** Work started and still under way when the answer leaves (a sync, a run). */
export const accepted = <S extends z.ZodType>(schema: S, description: string) =>
  ({ kind: 'json', status: 202, description, schema }) as const;
export const noContent = (description: string) =>
  ({ kind: 'empty', status: 204, description }) as const;
/** Server-sent events, each `data` one `schema` as JSON. */
export const events = <S extends z.ZodType>(schema: S, description: string) =>
  ({ kind: 'events', status: 200, description, schema }) as const;
export const upgrade = <S extends z.ZodType>(schema: S, description: string) =>
  ({ kind: 'upgrade', status: 101, description, schema }) as const;
/** A file, of one media type or of one of several (chosen by the query). */
export const file = (
  mediaType: string | readonly string[],
  description: string,
  headers?: z.ZodObject,
) =>
  ({
    kind: 'file',
    status: 200,
    description,
    mediaTypes: typeof mediaType === 'string' ? [mediaType] : mediaType,
    ...(headers ? { headers } : {}),
  }) as const;

/**
 * What every route may answer, so none is left out of a route's list: bad input (400, a NUL
 * included), no token (401, unless public), too many requests (429, the gateway's limits), and
 * for a route with a body, too large (413) or of a type it does not take (415).
 */
export const commonErrors = (route: Contract): number[] => [
  400,
  ...(route.public ? [] : [401]),
  ...(route.body || route.form ? [413, 415] : []),
  429,
];

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A route's input after validation, as its handler receives it. */
export interface Input<C extends Contract> {
  params: Output<C['params']>;
  query: Output<C['query']>;
  body: Output<C['body']>;
}

/** What a route answers on the wire: the JSON of its schema, or nothing for the rest. */
export type AnswerOf<C extends Contract> = C['answer'] extends {
  kind: 'json';
  schema: infer S extends z.ZodType;
}
  ? z.output<S>
  : void;

/** `/api/notes/:id` → `/api/notes/{id}`. */
export const documentedPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** `/api/notes/:id` with `{ id }` → `/api/notes/3f…`, each value encoded. */
export const fillPath = (path: string, params: Record<string, unknown> = {}) =>
  path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name])));

/**
 * Orders paths as a router must try them: at the first place two differ in kind, a fixed
 * segment before a parameter, so `/api/notes/graph` is not taken by `/api/notes/:id`.
 */
export const bySpecificity = (a: string, b: string) => {
  const kinds = (path: string) =>
    path
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '1' : '0'))
      .join('');
  const [left, right] = [kinds(a), kinds(b)];
  if (left !== right) return left < right ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
};

/** A schema's value after validation: what a use-case is given. */
export type Parsed<S extends z.ZodType> = z.output<S>;
