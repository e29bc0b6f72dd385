import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { DEFAULT_PGLITE_SHARED_BUFFERS_MB } from '@noted/db';
import { parseConfig } from '@noted/kit';
import { aiConfigSchema } from '@noted/ai';
import { billingConfigSchema } from '@noted/billing';
import { exportConfigSchema } from '@noted/export';
import { gatewayConfigSchema } from '@noted/gateway';
import { identityConfigSchema } from '@noted/identity';
import { notesConfigSchema } from '@noted/notes';
import { realtimeConfigSchema } from '@noted/realtime';
import { usersConfigSchema } from '@noted/users';

const programConfigSchema = z.object({
  /** Where the embedded defaults keep their data (PGlite, objects, keys). */
  NOTED_DATA_DIR: z.string().min(1).default('./.noted'),
  /** Signs identities from the gateway to services; generated into the data dir if unset. */
  NOTED_INTERNAL_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** NATS JetStream; the in-process bus when unset (one process only). */
  NATS_URL: z
    .string()
    .regex(/^(nats|tls):\/\//, 'must be a nats:// URL')
    .optional(),
  /** Address internal servers bind to; loopback when everything runs in one process. */
  NOTED_BIND_HOST: z.string().optional(),
  /**
   * Postgres's shared_buffers for each embedded (PGlite) database, in MB. Each database's
   * WebAssembly heap holds them from its start.
   */
  NOTED_PGLITE_SHARED_BUFFERS_MB: z.coerce
    .number()
    .int()
    .min(1)
    .max(1024)
    .default(DEFAULT_PGLITE_SHARED_BUFFERS_MB),
  /**
   * The resident memory of each process that works on untrusted input (reading imports, PDFs,
   * uploaded images, web pages; rendering exports): one that passes it is killed and its task
   * fails alone. OCR takes AI_OCR_MEMORY_MB.
   */
  NOTED_SANDBOX_MEMORY_MB: z.coerce.number().int().min(128).max(16_384).default(320),
  /**
   * How long a client's connection to this process's gRPC servers lasts before the server asks
   * the client to connect again, which makes it look the service's name up anew: pods added
   * since get their share of its calls. 0 keeps connections open.
   */
  NOTED_GRPC_MAX_CONNECTION_AGE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  /** How long calls in flight on a connection past its age may still run. */
  NOTED_GRPC_MAX_CONNECTION_AGE_GRACE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3_600)
    .default(30),
  /** Built frontends; the repository's own by default. */
  NOTED_WEB_ROOT: z.string().optional(),
  /**
   * The port of this process's Prometheus metrics (`GET /metrics`), apart from every public
   * listener; 0 picks a free one.
   */
  NOTED_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export const programConfigSchemaAll = programConfigSchema
  .extend(gatewayConfigSchema.shape)
  .extend(identityConfigSchema.shape)
  .extend(usersConfigSchema.shape)
  .extend(notesConfigSchema.shape)
  .extend(aiConfigSchema.shape)
  .extend(billingConfigSchema.shape)
  .extend(realtimeConfigSchema.shape)
  .extend(exportConfigSchema.shape);

export type ProgramEnv = z.infer<typeof programConfigSchemaAll>;

/** Internal listeners that pick a free loopback port when everything runs in one process. */
const internalListeners = {
  IDENTITY_PORT: '0',
  USERS_HTTP_PORT: '0',
  USERS_GRPC_ADDR: '127.0.0.1:0',
  NOTES_HTTP_PORT: '0',
  NOTES_GRPC_ADDR: '127.0.0.1:0',
  AI_HTTP_PORT: '0',
  AI_GRPC_ADDR: '127.0.0.1:0',
  BILLING_HTTP_PORT: '0',
  BILLING_GRPC_ADDR: '127.0.0.1:0',
  REALTIME_HTTP_PORT: '0',
  REALTIME_GRPC_ADDR: '127.0.0.1:0',
  EXPORT_HTTP_PORT: '0',
  EXPORT_GRPC_ADDR: '127.0.0.1:0',
};

/**
 * Parses the environment. In one process (`--target=all`) internal listeners default to free
 * loopback ports, so only the gateway's PORT is fixed; set a variable to pin one.
 */
export const loadProgramEnv = (
  env: Record<string, string | undefined>,
  options: { oneProcess: boolean },
): ProgramEnv =>
  parseConfig(programConfigSchemaAll, options.oneProcess ? { ...internalListeners, ...env } : env);

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export const webRootOf = (env: ProgramEnv) => {
  const root = env.NOTED_WEB_ROOT ?? path.join(repoRoot, 'frontends');
  return {
    shell: path.join(root, 'shell', 'dist'),
    notes: path.join(root, 'notes', 'dist'),
    billing: path.join(root, 'billing', 'dist'),
    marketing: path.join(root, 'marketing', 'dist'),
  };
};

/** The internal secret: configured, or made once and kept in the data dir (mode 0600). */
export const internalSecretOf = (env: ProgramEnv, dataDir: string): string => {
  if (env.NOTED_INTERNAL_SECRET) return env.NOTED_INTERNAL_SECRET;
  const file = path.join(dataDir, 'internal-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return readFileSync(file, 'utf8').trim();
  }
};
