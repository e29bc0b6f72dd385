import * as z from 'zod';

export const realtimeConfigSchema = z.object({
  REALTIME_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(4105),
  REALTIME_GRPC_ADDR: z.string().default('127.0.0.1:5105'),
  /** Live connections one replica holds; past it, a new one is refused (503) for another replica. */
  REALTIME_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(20_000),
  /** Live connections of one user on one replica (tabs, devices). */
  REALTIME_MAX_CONNECTIONS_PER_USER: z.coerce.number().int().min(1).default(16),
  /** How long a live-connection token may be used to connect. */
  REALTIME_TOKEN_TTL_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  /** Every socket is pinged this often; one that did not answer the last ping is closed. */
  REALTIME_PING_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  /** A socket with more unsent data than this is closed (a client that does not read). */
  REALTIME_MAX_BUFFERED_KB: z.coerce.number().int().min(16).default(1024),
});

export type RealtimeEnv = z.infer<typeof realtimeConfigSchema>;

export interface RealtimeConfig {
  httpPort: number;
  grpcAddress: string;
  host: string;
  internalSecret: string;
  /** Browsers may connect from these origins only (the public URL's, and CORS_ORIGINS). */
  allowedOrigins: string[];
  maxConnections: number;
  maxPerUser: number;
  tokenTtlMs: number;
  pingMs: number;
  maxBufferedBytes: number;
  grpcServer?: { maxConnectionAgeMs: number; maxConnectionAgeGraceMs: number };
}

export const realtimeConfigFrom = (
  env: RealtimeEnv,
  shared: Pick<RealtimeConfig, 'host' | 'internalSecret' | 'grpcServer'> & {
    publicUrl: string;
    corsOrigins?: string[];
  },
): RealtimeConfig => ({
  httpPort: env.REALTIME_HTTP_PORT,
  grpcAddress: env.REALTIME_GRPC_ADDR,
  host: shared.host,
  internalSecret: shared.internalSecret,
  ...(shared.grpcServer ? { grpcServer: shared.grpcServer } : {}),
  allowedOrigins: [...new Set([new URL(shared.publicUrl).origin, ...(shared.corsOrigins ?? [])])],
  maxConnections: env.REALTIME_MAX_CONNECTIONS,
  maxPerUser: env.REALTIME_MAX_CONNECTIONS_PER_USER,
  tokenTtlMs: env.REALTIME_TOKEN_TTL_SECONDS * 1000,
  pingMs: env.REALTIME_PING_SECONDS * 1000,
  maxBufferedBytes: env.REALTIME_MAX_BUFFERED_KB * 1024,
});
