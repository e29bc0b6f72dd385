import * as z from 'zod';

/**
 * What the development identity provider reads from the environment. The issuer, data
 * directory and web origins come from the `noted` program, which knows its public URL.
 */
export const identityConfigSchema = z.object({
  IDENTITY_PORT: z.coerce.number().int().min(0).max(65_535).default(4100),
  NOTED_DEV_PASSWORD: z.string().min(1).default('noted'),
});

export type IdentityConfig = z.infer<typeof identityConfigSchema>;

/** The same schema under the name the module brief gave it. */
export const identityConfig = identityConfigSchema;
