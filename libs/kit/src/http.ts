import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import * as z from 'zod';
import { AppError, JSON_BODY_MAX_BYTES } from '@noted/api';
import { runWithContext, extendContext } from './context.js';
import type { Logger } from './logger.js';
import { httpDuration, httpRequests, registry, startTimer } from './metrics.js';
import { IDENTITY_HEADER, verifyIdentity, type Identity } from './identity.js';
import { refuseNulInAddress } from './nul.js';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    identity?: Identity;
    /** The body's bytes as received, on the app's `rawBodyPaths` only. */
    rawBody?: Buffer;
  }
}

export interface HttpAppOptions {
  service: string;
  logger: Logger;
  /** Aggregate readiness: /readyz answers 503 until this returns true. */
  ready: () => boolean | Promise<boolean>;
  /** Parse JSON bodies (off for a pure proxy such as the gateway). */
  json?: boolean;
  /**
   * Paths whose JSON body is also kept as the bytes received (`req.rawBody`), for a signature
   * over exactly those bytes (Stripe's webhooks).
   */
  rawBodyPaths?: readonly string[];
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * An express app with what every Noted HTTP server has: request ids, request logs and
 * metrics, /healthz and /readyz. Routes go between this and `finishHttpApp`. Metrics are not
 * served here (this may be the public door): `startMetricsServer` serves them on a port of
 * their own.
 */
export const createHttpApp = (options: HttpAppOptions): Express => {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');

  app.use((req, res, next) => {
    const given = req.header('x-request-id');
    req.id = given && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('x-request-id', req.id);
    const stop = startTimer();
    res.on('finish', () => {
      const route = routeLabel(req, res);
      const labels = {
        service: options.service,
        method: req.method,
        route,
        status: String(res.statusCode),
      };
      httpRequests.inc(labels);
      httpDuration.observe(labels, stop());
      if (route !== '/healthz' && route !== '/readyz') {
        options.logger.info(
          {
            requestId: req.id,
            userId: req.identity?.userId,
            method: req.method,
            route,
            status: res.statusCode,
            ms: Math.round(stop() * 1000),
          },
          'request',
        );
      }
    });
    runWithContext({ requestId: req.id }, next);
  });
  app.use(refuseNulInAddress);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const ready = await options.ready();
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'starting' });
  });
  if (options.json !== false) {
    const raw = new Set(options.rawBodyPaths ?? []);
    app.use(
      express.json({
        limit: JSON_BODY_MAX_BYTES,
        verify: (req, _res, body) => {
          const request = req as express.Request;
          if (raw.has(request.path)) request.rawBody = body;
        },
      }),
    );
  }
  return app;
};

/** The route label of a request no route of the app matched (404s, unknown paths). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Names the request's route for metrics and logs, from a bounded set whatever the client
 * sends: the matched route's template, a label a handler set in `res.locals.route` (the
 * gateway's proxies: `/api/*`), the mount prefix of a router, or `unmatched`. A path itself is
 * never a label: 1,000 random paths must not become 1,000 series.
 */
export const routeLabel = (req: express.Request, res: express.Response): string => {
  const set = (res.locals as { route?: unknown }).route;
  if (typeof set === 'string') return set;
  const route = req.route as { path?: unknown } | undefined;
  if (route?.path !== undefined) return `${req.baseUrl}${String(route.path)}`;
  return req.baseUrl || UNMATCHED_ROUTE;
};

/**
 * The process's metrics on a port of their own, for Prometheus (the chart's scrape config) and
 * never on a public listener: `GET /metrics`, nothing else. A port already taken is logged and
 * the process goes on without it (metrics are not worth refusing to serve notes for).
 */
export const startMetricsServer = async (
  port: number,
  host: string,
  logger: Logger,
): Promise<RunningServer | undefined> => {
  const app = express();
  app.disable('x-powered-by');
  app.get('/metrics', async (_req, res) => {
    res.setHeader('content-type', registry.contentType);
    res.send(await registry.metrics());
  });
  app.use((_req, res) => {
    res.status(404).json(new AppError('NOT_FOUND', 'Only /metrics is served here').toBody());
  });
  try {
    const server = await listen(app, port, host);
    logger.info({ url: `${server.url}/metrics` }, 'metrics listening');
    return server;
  } catch (error) {
    logger.error({ err: error, port }, 'metrics could not listen; going on without them');
    return undefined;
  }
};

/** Refuses requests that do not carry an identity signed by the gateway. */
export const requireIdentity =
  (secret: string): RequestHandler =>
  async (req, _res, next) => {
    const header = req.header(IDENTITY_HEADER);
    if (!header) {
      next(new AppError('UNAUTHENTICATED', 'This service only accepts requests from the gateway'));
      return;
    }
    try {
      req.identity = await verifyIdentity(secret, header);
      extendContext({ userId: req.identity.userId });
      next();
    } catch (error) {
      next(error);
    }
  };

/**
 * For routes served signed in or not: a request with an identity must carry a valid one (a bad
 * one is refused, never taken as anonymous); a request without one goes on anonymously.
 */
export const optionalIdentity = (secret: string): RequestHandler => {
  const required = requireIdentity(secret);
  return (req, res, next) => {
    if (req.header(IDENTITY_HEADER) === undefined) next();
    else required(req, res, next);
  };
};

/** The gateway-signed identity of a request behind `requireIdentity`. */
export const identityOf = (req: express.Request): Identity => {
  if (!req.identity) throw new AppError('UNAUTHENTICATED', 'Sign in first');
  return req.identity;
};

/** The id of the signed-in user of a request behind `requireIdentity`. */
export const userIdOf = (req: express.Request): string => identityOf(req).userId;

/** Adds the 404 and error handlers; every error leaves as `{ error: { code, message } }`. */
export const finishHttpApp = (app: Express, logger: Logger): Express => {
  app.use((req, _res, next) => {
    next(new AppError('NOT_FOUND', `No route for ${req.method} ${req.path}`));
  });
  const onError: ErrorRequestHandler = (error, req, res, _next) => {
    const appError = toAppError(error);
    if (appError.status >= 500) {
      logger.error({ err: error, requestId: req.id }, 'request failed');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    const retryAfter = (appError.details as { retryAfterSeconds?: unknown } | undefined)
      ?.retryAfterSeconds;
    if (typeof retryAfter === 'number') res.setHeader('retry-after', String(retryAfter));
    res.status(appError.status).json(appError.toBody());
  };
  app.use(onError);
  return app;
};

export const toAppError = (error: unknown): AppError => {
  if (error instanceof AppError) return error;
  if (error instanceof z.ZodError) {
    const issue = error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    return new AppError(
      'VALIDATION_FAILED',
      `${where}${issue?.message ?? 'invalid input'}`,
      error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  }
  const status = (error as { status?: number; type?: string }).status;
  const type = (error as { type?: string }).type;
  if (type === 'entity.too.large') {
    return new AppError(
      'PAYLOAD_TOO_LARGE',
      `A JSON body is limited to ${JSON_BODY_MAX_BYTES} bytes; every text within its documented length fits`,
    );
  }
  if (type === 'entity.parse.failed')
    return new AppError('BAD_REQUEST', 'The body is not valid JSON');
  if (status && status >= 400 && status < 500) {
    return new AppError('BAD_REQUEST', (error as Error).message || 'Bad request');
  }
  return new AppError('INTERNAL', 'Something went wrong on our side');
};

export interface RunningServer {
  server: Server;
  port: number;
  url: string;
  close: () => Promise<void>;
}

/**
 * How long a server keeps an idle keep-alive connection. A client that reuses a connection the
 * server is closing at that moment gets ECONNRESET, so every client in front of a Noted server
 * (the gateway's proxy, an ingress, a load balancer) must drop idle connections sooner: the
 * gateway's agent after UPSTREAM_IDLE_MS, common load balancers after 60 s.
 */
export const SERVER_KEEP_ALIVE_MS = 65_000;

/** Listens, and closes gracefully: stops accepting, lets requests in flight finish. */
export const listen = (app: Express, port: number, host = '0.0.0.0'): Promise<RunningServer> =>
  new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.keepAliveTimeout = SERVER_KEEP_ALIVE_MS;
    // Above keepAliveTimeout, or Node may end a connection on which the next request has begun.
    server.headersTimeout = SERVER_KEEP_ALIVE_MS + 1_000;
    server.once('error', reject);
    server.once('listening', () => {
      const address = server.address() as AddressInfo;
      const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
      resolve({
        server,
        port: address.port,
        url: `http://${shown}:${address.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
            setTimeout(() => server.closeAllConnections(), 10_000).unref();
          }),
      });
    });
  });
