import * as z from 'zod';
import { freePlanEnvSchema, freePlanFrom, type FreePlanLimits } from '@noted/api';
import type { ServiceSettings } from '@noted/service';
import type { IdentityAccountsConfig } from './deletion/identity-accounts.js';

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
  /**
   * Keycloak, as the gateway is told (unset: the development provider). A deleted account's
   * Keycloak user is deleted through its admin REST API.
   */
  KEYCLOAK_URL: z.url().optional(),
  KEYCLOAK_REALM: z.string().min(1).default('noted'),
  /** Where this service reaches Keycloak, when not at KEYCLOAK_URL (inside a cluster). */
  KEYCLOAK_ADMIN_URL: z.url().optional(),
  /** The service-account client with realm-management's manage-users role. */
  KEYCLOAK_ADMIN_CLIENT_ID: z.string().min(1).default('noted-users'),
  /** Its secret; unset: deleted accounts stay in Keycloak (a warning at start says so). */
  KEYCLOAK_ADMIN_CLIENT_SECRET: z.string().min(1).optional(),
  /** The development identity provider, where it runs when not in this process. */
  IDENTITY_URL: z.url().default('http://127.0.0.1:4100'),
});

export interface UsersConfig extends ServiceSettings {
  freePlan: FreePlanLimits;
  fallbackEmailDomain: string;
  feedbackLimits: FeedbackLimits;
  /** Where a deleted account's identity account is deleted. */
  identityAccounts: IdentityAccountsConfig;
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
  identityAccounts: env.KEYCLOAK_URL
    ? {
        provider: 'keycloak',
        url: env.KEYCLOAK_ADMIN_URL ?? env.KEYCLOAK_URL,
        realm: env.KEYCLOAK_REALM,
        clientId: env.KEYCLOAK_ADMIN_CLIENT_ID,
        clientSecret: env.KEYCLOAK_ADMIN_CLIENT_SECRET,
      }
    : { provider: 'development', url: env.IDENTITY_URL, realm: env.KEYCLOAK_REALM },
  ...shared,
});
