import { Router, type Request, type RequestHandler, type Response } from 'express';
import {
  AppError,
  bySpecificity,
  routesOf,
  type AnswerOf,
  type Contract,
  type Input,
  type RoutesOf,
  type ServiceName,
} from '@noted/api';
import { userIdOf } from './http.js';
import { assertNoNul } from './nul.js';

/** What a handler is given: its route's input, validated, and the caller. */
export interface HandlerInput<C extends Contract> extends Input<C> {
  /** The signed-in user (reading it on a public route throws UNAUTHENTICATED). */
  readonly userId: string;
  req: Request;
  res: Response;
}

/**
 * Serves one route. A JSON answer is returned and sent with the route's status; an empty one
 * is sent as 204; an event stream or a file is written to `res` by the handler itself.
 */
export type Handler<C extends Contract> = (
  input: HandlerInput<C>,
) => Promise<AnswerOf<C>> | AnswerOf<C>;

export type Handlers<R extends Record<string, Contract>> = { [K in keyof R]: Handler<R[K]> };

const isMultipart = (req: Request) => req.is('multipart/form-data') !== false;
const hasBody = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * Reads a request as its contract says, before the handler runs: path parameters, query and a
 * JSON body through their schemas (a failure answers 400 VALIDATION_FAILED naming the field); a
 * body of another type than the route takes answers 415; a multipart body is left to the
 * handler, which reads it as it streams.
 */
const inputOf = <C extends Contract>(route: C, req: Request): Input<C> => {
  const multipart = route.form !== undefined && isMultipart(req);
  if (route.body && !multipart && hasBody(req) && !req.is('json')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json');
  }
  if (route.form && !route.body && !multipart) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as multipart/form-data');
  }
  const body: unknown = route.body && !multipart ? route.body.parse(req.body) : undefined;
  assertNoNul(body);
  return {
    params: route.params?.parse(req.params),
    query: route.query?.parse(req.query),
    body,
  } as Input<C>;
};

const serve =
  <C extends Contract>(route: C, handler: Handler<C>): RequestHandler =>
  async (req, res) => {
    const input = inputOf(route, req);
    const answer = await handler({
      ...input,
      get userId() {
        return userIdOf(req);
      },
      req,
      res,
    });
    if (res.headersSent || res.writableEnded) return;
    if (route.answer.kind === 'json') res.status(route.answer.status).json(answer);
    else if (route.answer.kind === 'empty') res.status(204).end();
  };

/**
 * Answers a method a path does not have: 405 with `Allow` listing the ones it has, and an
 * OPTIONS request with just that list.
 */
export const methodNotAllowed =
  (methods: readonly string[]): RequestHandler =>
  (req, res, next) => {
    const allow = [...new Set(methods.flatMap((m) => (m === 'get' ? ['GET', 'HEAD'] : [m])))]
      .map((m) => m.toUpperCase())
      .join(', ');
    res.setHeader('allow', allow);
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    next(new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed here; use ${allow}`));
  };

/**
 * Paths of the given routes in the order a router must try them, each with its routes: a fixed
 * segment before a parameter at the same place.
 */
export const pathsOf = <R extends Contract>(routes: readonly R[]): [string, R[]][] => {
  const byPath = new Map<string, R[]>();
  for (const route of routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
  return [...byPath.entries()].sort(([a], [b]) => bySpecificity(a, b));
};

/**
 * The router of one service: every route its contracts give it, each with its handler, in the
 * order that keeps fixed paths before parameters; every other method on those paths answers
 * 405. A route without a handler, or a handler without a route, fails at start.
 */
export const serveRoutes = <S extends ServiceName>(
  service: S,
  handlers: Handlers<RoutesOf<S>>,
): Router => {
  const contracts = routesOf(service) as Record<string, Contract>;
  const given = handlers as Record<string, Handler<Contract> | undefined>;
  const missing = Object.keys(contracts).filter((id) => !given[id]);
  const extra = Object.keys(given).filter((id) => !contracts[id]);
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(
      `The ${service} routes and handlers differ: no handler for [${missing.join(', ')}], ` +
        `no route for [${extra.join(', ')}]`,
    );
  }
  const router = Router();
  const entries = Object.entries(contracts).map(([id, route]) => ({ ...route, id }));
  for (const [path, routes] of pathsOf(entries)) {
    for (const route of routes) {
      router[route.method](path, serve(route, given[route.id] as Handler<Contract>));
    }
    router.all(path, methodNotAllowed(routes.map((route) => route.method)));
  }
  return router;
};
