import * as z from 'zod';
import type { ServiceSettings } from '@noted/service';
import type { S3StoreOptions } from '@noted/storage';
import { allowedAddressesSetting } from '@noted/kit';
import { DEFAULT_SANDBOX, type SandboxSettings } from '@noted/sandbox';

export const notesConfigSchema = z.object({
  NOTES_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(4102),
  NOTES_GRPC_ADDR: z.string().default('127.0.0.1:5102'),
  NOTES_DATABASE_URL: z.url().optional(),
  DATABASE_URL: z.url().optional(),
  /** The users service's gRPC address, where note quotas are consumed. */
  USERS_GRPC_ADDR: z.string().default('127.0.0.1:5101'),
  /** The public origin (the gateway's), for links to shared notes. */
  PUBLIC_URL: z.url().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** S3 / MinIO for note images; unset, they are files under the data dir. */
  S3_ENDPOINT: z.string().min(1).optional(),
  S3_ACCESS_KEY: z.string().optional(),
  S3_SECRET_KEY: z.string().optional(),
  S3_BUCKET: z.string().min(3).default('noted'),
  S3_REGION: z.string().optional(),
  /**
   * The S3 endpoint as browsers reach it: large uploads then go straight into the bucket
   * through signed addresses (the bucket must allow the app's origin by CORS). Unset, they
   * come through the gateway.
   */
  S3_PUBLIC_ENDPOINT: z.url().optional(),
  /** How often the review scheduler looks for notes that fell due. */
  NOTES_REVIEW_INTERVAL_SECONDS: z.coerce.number().positive().max(86_400).default(60),
  /**
   * How long after it was written a note first falls due for review: a day. The browser test
   * makes it seconds, to see the scheduler's announcement reach the page.
   */
  NOTES_REVIEW_FIRST_DUE_SECONDS: z.coerce.number().int().min(0).max(31_536_000).default(86_400),
  /**
   * Uploaded images decoded at once, each in a process of its own (up to 40 megapixels, about
   * 55 MB while it is decoded); the others wait their turn, a few at most, then are refused BUSY.
   */
  NOTES_IMAGE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /**
   * How long a unit of the note quota may stay charged without its note's `note.created`
   * settling it before the sweep asks whether the note exists (and gives the unit back if not).
   */
  NOTES_QUOTA_SWEEP_AFTER_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
  /** How often the sweep of note quota charges left pending runs. */
  NOTES_QUOTA_SWEEP_INTERVAL_SECONDS: z.coerce.number().positive().max(86_400).default(60),
  /** Private addresses a link or audio URL may name all the same (tests, local development). */
  CAPTURE_FETCH_ALLOW_ADDRESSES: allowedAddressesSetting,
});

export interface NotesConfig extends ServiceSettings {
  publicUrl: string;
  usersGrpcAddress: string;
  reviewIntervalMs: number;
  reviewFirstDueSeconds: number;
  imageConcurrency: number;
  /** The memory of each process decoding images. */
  sandbox: SandboxSettings;
  quotaSweepAfterSeconds: number;
  quotaSweepIntervalMs: number;
  /** Private addresses a capture's URL may name (CAPTURE_FETCH_ALLOW_ADDRESSES). */
  fetchAllowAddresses: string[];
  /** Where note images are kept when no S3 endpoint is set. */
  objectsRoot: string;
  s3?: S3StoreOptions;
}

const s3From = (env: z.infer<typeof notesConfigSchema>): S3StoreOptions | undefined => {
  if (!env.S3_ENDPOINT) return undefined;
  if (!env.S3_ACCESS_KEY || !env.S3_SECRET_KEY) {
    throw new Error('S3_ACCESS_KEY and S3_SECRET_KEY are required when S3_ENDPOINT is set');
  }
  return {
    endpoint: env.S3_ENDPOINT,
    accessKey: env.S3_ACCESS_KEY,
    secretKey: env.S3_SECRET_KEY,
    bucket: env.S3_BUCKET,
    ...(env.S3_REGION ? { region: env.S3_REGION } : {}),
    ...(env.S3_PUBLIC_ENDPOINT ? { publicEndpoint: env.S3_PUBLIC_ENDPOINT } : {}),
  };
};

export const notesConfigFrom = (
  env: z.infer<typeof notesConfigSchema>,
  shared: Pick<
    ServiceSettings,
    'host' | 'dataDir' | 'internalSecret' | 'pgliteSharedBuffersMb' | 'grpcServer'
  > & { sandbox?: SandboxSettings },
): NotesConfig => ({
  httpPort: env.NOTES_HTTP_PORT,
  grpcAddress: env.NOTES_GRPC_ADDR,
  databaseUrl: env.NOTES_DATABASE_URL ?? env.DATABASE_URL,
  usersGrpcAddress: env.USERS_GRPC_ADDR,
  reviewIntervalMs: env.NOTES_REVIEW_INTERVAL_SECONDS * 1000,
  reviewFirstDueSeconds: env.NOTES_REVIEW_FIRST_DUE_SECONDS,
  imageConcurrency: env.NOTES_IMAGE_CONCURRENCY,
  sandbox: shared.sandbox ?? DEFAULT_SANDBOX,
  quotaSweepAfterSeconds: env.NOTES_QUOTA_SWEEP_AFTER_SECONDS,
  quotaSweepIntervalMs: env.NOTES_QUOTA_SWEEP_INTERVAL_SECONDS * 1000,
  fetchAllowAddresses: env.CAPTURE_FETCH_ALLOW_ADDRESSES,
  publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
  objectsRoot: `${shared.dataDir}/notes/objects`,
  ...(env.S3_ENDPOINT ? { s3: s3From(env) } : {}),
  ...shared,
});
