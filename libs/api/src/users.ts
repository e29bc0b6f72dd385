import * as z from 'zod';

/** Entitlements map a feature name to `true` or a numeric limit; -1 or missing is unlimited. */
export const Entitlements = z
  .record(z.string(), z.union([z.boolean(), z.number()]))
  .meta({ id: 'Entitlements' });
export type Entitlements = z.infer<typeof Entitlements>;

export const User = z
  .object({
    userId: z.uuid(),
    authId: z.string().meta({ description: "The identity provider's subject (token `sub`)" }),
    email: z.string(),
    name: z.string(),
    entitlements: Entitlements,
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof User>;
