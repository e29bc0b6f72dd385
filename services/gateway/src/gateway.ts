import { Agent, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import cors from 'cors';
import type { Request, RequestHandler } from 'express';
import helmet from 'helmet';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { AppError, NOTES_TOTAL_HEADER, routes } from '@noted/api';
import { openApiDocument } from '@noted/api/openapi';
import {
  CLIENT_ADDRESS_HEADER,
  IDENTITY_HEADER,
  OPERATOR_ROLE,
  createHttpApp,
  extendContext,
  finishHttpApp,
  listen,
  identitySigner,
  type Logger,
  type RunningModule,
} from '@noted/kit';
import { authenticate, createTokenVerifier } from './auth/index.js';
import type { GatewayConfig } from './config.js';
import { RATE_LIMIT_HEADERS, rateLimits } from './rate-limit.js';
import { isOpenRoute, isOptionalSignInRoute, routingTable, signedInPrefixes } from './routing.js';
import { createUserResolver } from './users.js';
import { inlineScriptHashes, webRouter } from './web.js';

export interface RunningGateway extends RunningModule {
  url: string;
}

type ProxiedRequest = IncomingMessage & { id?: string; identityToken?: string };

/**
 * How long the gateway keeps an idle connection to a service: shorter than the services' own
 * SERVER_KEEP_ALIVE_MS, so the gateway never sends a request on a connection the service is
 * closing at that moment (which fails as ECONNRESET, a 502 for the user).
 */
export const UPSTREAM_IDLE_MS = 30_000;

/** Where browsers open the live connection (the realtime service's WebSocket). */
const LIVE_PATH = '/ws';

/**
 * The one public door: verifies Keycloak access tokens, resolves the user, and forwards each
 * public path prefix to the service that owns it with an identity the outside cannot forge.
 */
export const startGateway = async (
  config: GatewayConfig,
  deps: { logger: Logger; processReady?: () => boolean },
): Promise<RunningGateway> => {
  const logger = deps.logger.child({ module: 'gateway' });
  const verifier = createTokenVerifier({
    issuer: config.keycloak.issuer,
    jwksUrl: config.keycloak.jwksUrl,
    audience: config.keycloak.audience,
    clientIds: config.keycloak.acceptedClients,
    leewaySeconds: 60,
  });
  const users = createUserResolver({
    address: config.usersGrpcAddress,
    internalSecret: config.internalSecret,
  });

  let serving = false;
  const processReady = deps.processReady ?? (() => true);
  const app = createHttpApp({
    service: 'gateway',
    logger,
    ready: () => serving && processReady(),
    json: false,
  });

  // Only the gateway may speak for a user, or say where a request came from: whatever a client
  // sends in these headers is dropped.
  app.use((req, _res, next) => {
    delete req.headers[IDENTITY_HEADER];
    delete req.headers[CLIENT_ADDRESS_HEADER];
    next();
  });
  const limits = rateLimits(config.rateLimits);
  app.use(limits.perIp);

  // http-proxy opens a new connection per request (and asks for `connection: close`) unless
  // given an agent; reusing connections saves a connect and a close on both ends per request.
  // The agent closes an idle connection well before the service would (see UPSTREAM_IDLE_MS).
  const upstreamAgent = new Agent({
    keepAlive: true,
    scheduling: 'lifo',
    timeout: UPSTREAM_IDLE_MS,
  });
  const proxyTo = (target: string, pathFilter?: (path: string) => boolean) =>
    createProxyMiddleware<Request>({
      target,
      agent: upstreamAgent,
      ...(pathFilter ? { pathFilter } : {}),
      changeOrigin: false,
      xfwd: true,
      proxyTimeout: 600_000,
      on: {
        proxyReq: (proxyReq, req: Request & ProxiedRequest) => {
          if (req.id) proxyReq.setHeader('x-request-id', req.id);
          if (req.identityToken) proxyReq.setHeader(IDENTITY_HEADER, req.identityToken);
          // The address as this gateway's trust-proxy setting resolves it: services count a
          // caller's requests by it (feedback), so it must not be the client's own claim.
          if (req.ip) proxyReq.setHeader(CLIENT_ADDRESS_HEADER, req.ip);
        },
        proxyRes: (proxyRes, _req, res) => {
          // A service that cuts its answer off midway (an export that failed) cuts the client's
          // off too: http-proxy would leave it open, and the download would hang.
          proxyRes.once('close', () => {
            if (!proxyRes.complete) res.destroy();
          });
        },
        error: (error, req, res) => {
          logger.warn(
            { err: error, target, requestId: (req as ProxiedRequest).id },
            'upstream failed',
          );
          if ('writeHead' in res && !res.headersSent) {
            const body = new AppError(
              'UPSTREAM_UNAVAILABLE',
              'A Noted service is not answering',
            ).toBody();
            res.writeHead(502, { 'content-type': 'application/json' });
            res.end(JSON.stringify(body));
          }
        },
      },
    });

  if (config.keycloak.embedded) {
    app.use(proxyTo(config.upstreams.identity, (path) => path.startsWith('/realms/')));
  }

  const keycloakOrigin = new URL(config.keycloak.url).origin;
  // Stripe.js, when payments are configured: its script, its API calls and its frames.
  const stripe = config.stripeJs
    ? {
        script: ['https://js.stripe.com'],
        connect: ['https://api.stripe.com'],
        frame: ['https://js.stripe.com', 'https://hooks.stripe.com'],
      }
    : { script: [], connect: [], frame: [] };
  const https = config.publicUrl.startsWith('https:');
  const web = webRouter(config);
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          'script-src': [
            "'self'",
            ...new Set([
              ...inlineScriptHashes(web.indexHtml ?? ''),
              ...inlineScriptHashes(web.siteHtml ?? ''),
            ]),
            ...stripe.script,
          ],
          'connect-src': [
            "'self'",
            // The live connection: the same origin as ws(s), which older browsers do not take 'self' for.
            new URL(config.publicUrl.replace(/^http/, 'ws')).origin,
            keycloakOrigin,
            ...stripe.connect,
            ...(config.uploadOrigin ? [config.uploadOrigin] : []),
          ],
          'frame-src': ["'self'", keycloakOrigin, ...stripe.frame],
          'img-src': ["'self'", 'data:', 'blob:'],
          // Captured audio plays from a Blob: it is read with the bearer token, which <audio> cannot send.
          'media-src': ["'self'", 'blob:'],
          'form-action': ["'self'", keycloakOrigin],
          'upgrade-insecure-requests': https ? [] : null,
        },
      },
      strictTransportSecurity: https,
      crossOriginEmbedderPolicy: false,
    }),
  );

  app.use(
    signedInPrefixes,
    cors({
      origin: config.corsOrigins.length > 0 ? config.corsOrigins : false,
      allowedHeaders: ['authorization', 'content-type', 'x-request-id'],
      exposedHeaders: [
        'x-request-id',
        ...RATE_LIMIT_HEADERS,
        // A download's name, and the count an export of everything shows progress against.
        'content-disposition',
        NOTES_TOTAL_HEADER,
      ],
      maxAge: 600,
    }),
  );

  const document = openApiDocument(config.publicUrl);
  app.get('/api/openapi.json', (_req, res) => {
    res.json(document);
  });

  const limitBody: RequestHandler = (req, _res, next) => {
    const length = Number(req.headers['content-length'] ?? 0);
    // An import's file is streamed to disk by the export service, which holds its own limit.
    const limit =
      req.method === 'POST' && req.baseUrl + req.path === routes.importFile.path
        ? config.importBodyLimitBytes
        : config.bodyLimitBytes;
    if (length > limit) {
      next(new AppError('PAYLOAD_TOO_LARGE', `Requests are limited to ${limit} bytes`));
      return;
    }
    next();
  };
  const signIdentity = identitySigner(config.internalSecret);
  const resolveUser: RequestHandler = async (req, _res, next) => {
    try {
      if (!req.user) throw new AppError('UNAUTHENTICATED', 'Sign in first');
      const resolved = await users.resolve(req.user);
      extendContext({ userId: resolved.userId });
      // Roles come from this token, never from the cached user: a role taken away at the
      // identity provider is gone with the user's next token.
      const operator = req.user.roles?.includes(config.keycloak.adminRole) === true;
      const identity = operator ? { ...resolved, roles: [OPERATOR_ROLE] } : resolved;
      (req as ProxiedRequest).identityToken = await signIdentity(identity);
      next();
    } catch (error) {
      next(error);
    }
  };
  // Routes without an account under a signed-in prefix (Stripe's webhook, the plans) skip the
  // token; they keep the body limit. Routes served signed in or not skip it only when no
  // Authorization header is sent: one that is sent is checked, and a bad one answers 401.
  const signIn = [authenticate(verifier), limits.perUser, resolveUser];
  const unlessOpen =
    (handler: RequestHandler): RequestHandler =>
    (req, res, next) => {
      const path = req.baseUrl + req.path;
      const anonymous =
        isOpenRoute(req.method, path) ||
        (req.headers.authorization === undefined && isOptionalSignInRoute(req.method, path));
      if (anonymous) next();
      else handler(req, res, next);
    };
  app.use(signedInPrefixes, limitBody, ...signIn.map(unlessOpen));
  // Once an account is deleted its next request asks the users service again, which refuses it
  // (other gateway replicas ask again when their cached lookup ends, within a minute).
  app.delete(routes.userDelete.path, (req, res, next) => {
    res.on('finish', () => {
      if (res.statusCode === 202 && req.user) users.forget(req.user.sub);
    });
    next();
  });

  app.use(
    routingTable({
      notes: proxyTo(config.upstreams.notes),
      ai: proxyTo(config.upstreams.ai),
      users: proxyTo(config.upstreams.users),
      billing: proxyTo(config.upstreams.billing),
      realtime: proxyTo(config.upstreams.realtime),
      export: proxyTo(config.upstreams.export),
    }),
  );
  app.use(web.router);
  finishHttpApp(app, logger);

  const http = await listen(app, config.port, config.host);
  // The live connection: WebSocket upgrades of /ws go to the realtime service as they are (its
  // token is in the address; realtime checks it and the Origin before it accepts). Any other
  // upgrade is refused.
  const live = createProxyMiddleware({
    target: config.upstreams.realtime,
    ws: true,
    xfwd: true,
    changeOrigin: false,
    on: {
      error: (error, _req, socket) => {
        logger.warn({ err: error, target: config.upstreams.realtime }, 'live upstream failed');
        if ('destroy' in socket) socket.destroy();
      },
    },
  });
  // Upgraded sockets are not the HTTP server's to close: on stop they are ended here (the
  // browser connects again, to another replica), or the server would wait for them.
  const liveSockets = new Set<Socket>();
  http.server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== LIVE_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    delete req.headers[IDENTITY_HEADER];
    delete req.headers[CLIENT_ADDRESS_HEADER];
    liveSockets.add(socket);
    socket.once('close', () => liveSockets.delete(socket));
    live.upgrade(req, socket, head);
  });
  serving = true;
  logger.info({ url: config.publicUrl, keycloak: config.keycloak.issuer }, 'gateway listening');

  return {
    url: http.url,
    ready: () => serving,
    stop: async () => {
      serving = false;
      for (const socket of liveSockets) socket.destroy();
      await http.close();
      upstreamAgent.destroy();
      users.close();
    },
  };
};
