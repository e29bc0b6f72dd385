import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError, type LiveMessage } from '@noted/api';
import type { EventBus } from '@noted/events';
import { createGrpcServer } from '@noted/grpc';
import {
  CALLER_METADATA,
  createHttpApp,
  finishHttpApp,
  listen,
  requireIdentity,
  serveRoutes,
  toAppError,
  verifyCaller,
  type Logger,
  type RunningModule,
} from '@noted/kit';
import { WebSocketServer, type WebSocket } from 'ws';
import type { RealtimeConfig } from './config.js';
import { createHub } from './hub.js';
import { drops, type DropReason } from './metrics.js';
import { startPush } from './push.js';
import { createLiveTokens, type LiveTokens } from './tokens.js';

export interface RunningRealtime extends RunningModule {
  httpUrl: string;
  grpcAddress: string;
}

/** The path of the live connection, behind the gateway and here alike. */
const LIVE_PATH = '/ws';
/** Clients send nothing the server reads; a frame larger than this closes the socket. */
const MAX_CLIENT_FRAME_BYTES = 4 * 1024;

/**
 * The realtime service's routes as its contracts declare them: the token, and `/ws` itself for
 * a request that is not an upgrade (426).
 */
export const realtimeRouter = (tokens: LiveTokens) =>
  serveRoutes('realtime', {
    liveToken: ({ req, res }) => {
      const { token, expiresAt } = tokens.issue(req.identity?.userId);
      res.setHeader('cache-control', 'no-store');
      return {
        token,
        expiresAt: expiresAt.toISOString(),
        url: `${LIVE_PATH}?token=${encodeURIComponent(token)}`,
      };
    },
    liveConnect: () => {
      throw new AppError('UPGRADE_REQUIRED', 'Connect with a WebSocket upgrade');
    },
  });

/** Answers an upgrade request that is refused, before any WebSocket exists, and closes it. */
const refuseUpgrade = (socket: Duplex, error: AppError) => {
  const body = JSON.stringify(error.toBody());
  const reason = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' }[error.status];
  socket.end(
    `HTTP/1.1 ${error.status} ${reason ?? 'Service Unavailable'}\r\n` +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
};

/**
 * The realtime service: the live connection of spec section 7. `POST /ws/token` gives a signed-in
 * user a short-lived token; `/ws?token=…` upgrades to a WebSocket that gets `connection` and
 * `welcome`, then `noteReview`, `noteUpdated` and `noteDeleted` as the events happen, on every
 * replica (each listens to every event and serves the users connected to it). Owns no data.
 */
export const startRealtime = async (
  config: RealtimeConfig,
  deps: { bus: EventBus; logger: Logger; processReady?: () => boolean },
): Promise<RunningRealtime> => {
  const logger = deps.logger.child({ module: 'realtime' });
  const tokens = createLiveTokens({ secret: config.internalSecret, ttlMs: config.tokenTtlMs });
  const hub = createHub({
    maxConnections: config.maxConnections,
    maxPerUser: config.maxPerUser,
    maxBufferedBytes: config.maxBufferedBytes,
    // A live token's life, and the minute another gateway replica may still know the user.
    deletedAccountMs: config.tokenTtlMs + 120_000,
    logger,
  });
  let serving = false;
  const ready = () => serving && deps.bus.healthy();
  const processReady = deps.processReady ?? ready;

  const app = createHttpApp({
    service: 'realtime',
    logger,
    ready: () => ready() && processReady(),
  });
  app.use(`${LIVE_PATH}/token`, requireIdentity(config.internalSecret));
  app.use(realtimeRouter(tokens));
  finishHttpApp(app, logger);

  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_CLIENT_FRAME_BYTES,
    perMessageDeflate: false,
  });

  const refuse = (socket: Duplex, reason: DropReason, error: AppError) => {
    drops.inc({ reason });
    refuseUpgrade(socket, error);
  };

  /** Checks the upgrade request; the user it is for, or undefined when it was refused. */
  const admit = (req: IncomingMessage, socket: Duplex): string | undefined => {
    const url = new URL(req.url ?? '/', 'http://realtime');
    if (url.pathname !== LIVE_PATH) {
      refuseUpgrade(socket, new AppError('NOT_FOUND', `No live connection at ${url.pathname}`));
      return undefined;
    }
    // Browsers always send Origin on a WebSocket; a page of another site must not connect
    // (the token is the permission, but a page should not be able to use a leaked one).
    const origin = req.headers.origin;
    if (origin !== undefined && !config.allowedOrigins.includes(origin)) {
      refuse(socket, 'origin', new AppError('FORBIDDEN', `Origin ${origin} may not connect`));
      return undefined;
    }
    let userId: string;
    try {
      userId = tokens.verify(url.searchParams.get('token') ?? undefined);
    } catch (error) {
      refuse(socket, 'token', toAppError(error));
      return undefined;
    }
    const admission = hub.admits(userId);
    if (admission === 'account_deleted') {
      refuse(socket, admission, new AppError('ACCOUNT_DELETED', 'This account was deleted'));
      return undefined;
    }
    if (admission !== 'ok') {
      refuse(
        socket,
        admission,
        new AppError(
          'UNAVAILABLE',
          admission === 'user_limit'
            ? 'Too many live connections for this user'
            : 'This server holds all the live connections it can; try again',
        ),
      );
      return undefined;
    }
    return userId;
  };

  const connected = (userId: string, socket: WebSocket) => {
    hub.add(userId, socket);
    const hello: LiveMessage[] = [
      { type: 'connection', status: 'success' },
      { type: 'welcome', message: 'Connected to Noted', serverTime: new Date().toISOString() },
    ];
    for (const message of hello) socket.send(JSON.stringify(message));
    socket.on('error', (error) => logger.debug({ err: error, userId }, 'live socket error'));
  };

  const grpc = createGrpcServer({
    service: 'realtime',
    logger,
    ...config.grpcServer,
    authenticate: async (metadata) => {
      await verifyCaller(config.internalSecret, metadata.get(CALLER_METADATA)[0]?.toString());
    },
  });
  let push: Awaited<ReturnType<typeof startPush>> | undefined;
  let grpcListening: { port: number };
  let http: Awaited<ReturnType<typeof listen>>;
  try {
    grpcListening = await grpc.listen(config.grpcAddress);
    push = await startPush({ bus: deps.bus, hub, logger });
    http = await listen(app, config.httpPort, config.host);
  } catch (error) {
    // What started is stopped: a port taken must not leave a listener or a subscription behind.
    await push?.stop();
    await grpc.stop();
    throw error;
  }
  http.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const userId = admit(req, socket);
    if (userId === undefined) return;
    sockets.handleUpgrade(req, socket, head, (ws) => connected(userId, ws));
  });
  const heartbeat = setInterval(() => hub.heartbeat(), config.pingMs);
  heartbeat.unref();
  serving = true;
  const grpcAddress = `${config.grpcAddress.replace(/:\d+$/, '')}:${grpcListening.port}`;
  logger.info({ http: http.url, grpc: grpcAddress }, 'realtime service listening');

  return {
    httpUrl: http.url,
    grpcAddress,
    ready,
    stop: async () => {
      serving = false;
      clearInterval(heartbeat);
      await push?.stop();
      hub.closeAll();
      sockets.close();
      await http.close();
      await grpc.stop();
    },
  };
};
