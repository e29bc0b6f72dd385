import * as z from 'zod';

/**
 * What the development identity provider reads from the environment. The issuer, data
 * directory and web origins come from the `noted` program, which knows its public URL.
 */
export const identityConfigSchema = z.object({
  IDENTITY_PORT: z.coerce.number().int().min(0).max(65_535).default(4100),
  NOTED_DEV_PASSWORD: z.string().min(1).default('noted'),
  /** Failed sign-ins for one account within the window before it is locked to the window's end. */
  IDENTITY_SIGN_IN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  /** Failed sign-ins from one address (IPv6: one /56) within the window before it is locked. */
  IDENTITY_SIGN_IN_FAILURES_PER_IP: z.coerce.number().int().min(1).default(20),
  /** The window failed sign-ins are counted in, from the first one. */
  IDENTITY_SIGN_IN_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  /**
   * Accounts (emails, comma-separated) whose access tokens carry the operators' realm role
   * (KEYCLOAK_ADMIN_ROLE, `noted-admin`), as Keycloak's do for a user given that role.
   */
  IDENTITY_ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    ),
});

export type IdentityConfig = z.infer<typeof identityConfigSchema>;

/** The same schema under the name the module brief gave it. */
export const identityConfig = identityConfigSchema;
