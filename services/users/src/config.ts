import * as z from 'zod';
import { freePlanEnvSchema, freePlanFrom, type FreePlanLimits } from '@noted/api';
import type { ServiceSettings } from '@noted/service';

export const usersConfigSchema = freePlanEnvSchema.extend({
  USERS_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(4101),
  USERS_GRPC_ADDR: z.string().default('127.0.0.1:5101'),
  USERS_DATABASE_URL: z.url().optional(),
  DATABASE_URL: z.url().optional(),
  /** Domain of the fallback address of a user whose token carries no email. */
  USERS_FALLBACK_EMAIL_DOMAIN: z.string().default('users.noted.invalid'),
});

export interface UsersConfig extends ServiceSettings {
  freePlan: FreePlanLimits;
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
  freePlan: freePlanFrom(env),
  fallbackEmailDomain: env.USERS_FALLBACK_EMAIL_DOMAIN,
  ...shared,
});
