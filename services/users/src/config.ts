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
  /** Feedback one signed-in user may send in an hour; 0 for no limit. */
  FEEDBACK_PER_USER_PER_HOUR: z.coerce.number().int().min(0).default(10),
  /** Feedback one client address (IPv6: one /56) may send in an hour, signed in or not; 0 for none. */
  FEEDBACK_PER_IP_PER_HOUR: z.coerce.number().int().min(0).default(20),
});

export interface UsersConfig extends ServiceSettings {
  freePlan: FreePlanLimits;
  fallbackEmailDomain: string;
  feedbackLimits: FeedbackLimits;
}

/** Feedback allowed per hour, counted in the database (0: no limit). */
export interface FeedbackLimits {
  perUserPerHour: number;
  perIpPerHour: number;
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
  feedbackLimits: {
    perUserPerHour: env.FEEDBACK_PER_USER_PER_HOUR,
    perIpPerHour: env.FEEDBACK_PER_IP_PER_HOUR,
  },
  ...shared,
});
