import * as z from 'zod';
import type { ServiceSettings } from '@noted/service';

export const usersConfigSchema = z.object({
  USERS_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(4101),
  USERS_GRPC_ADDR: z.string().default('127.0.0.1:5101'),
  USERS_DATABASE_URL: z.url().optional(),
  DATABASE_URL: z.url().optional(),
  /** Monthly note creation limit of the free plan; -1 is unlimited. */
  FREE_NOTES_PER_MONTH: z.coerce.number().int().min(-1).default(100),
  /** Recording time limit of the free plan, in seconds (the spec's default 60). */
  FREE_RECORDING_TIME_LIMIT: z.coerce.number().int().min(-1).default(60),
  /** Domain of the fallback address of a user whose token carries no email. */
  USERS_FALLBACK_EMAIL_DOMAIN: z.string().default('users.noted.invalid'),
});

export interface UsersConfig extends ServiceSettings {
  freePlan: { notesPerMonth: number; recordingTimeLimit: number };
  fallbackEmailDomain: string;
}

export const usersConfigFrom = (
  env: z.infer<typeof usersConfigSchema>,
  shared: Pick<
    ServiceSettings,
    'host' | 'dataDir' | 'internalSecret' | 'pgliteSharedBuffersMb' | 'grpcServer'
  >,
): UsersConfig => ({
  httpPort: env.USERS_HTTP_PORT,
  grpcAddress: env.USERS_GRPC_ADDR,
  databaseUrl: env.USERS_DATABASE_URL ?? env.DATABASE_URL,
  freePlan: {
    notesPerMonth: env.FREE_NOTES_PER_MONTH,
    recordingTimeLimit: env.FREE_RECORDING_TIME_LIMIT,
  },
  fallbackEmailDomain: env.USERS_FALLBACK_EMAIL_DOMAIN,
  ...shared,
});
