import * as z from 'zod';
import { ok, routesFor } from './contract.js';

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

export const UserSubParams = z.object({ sub: z.string().min(1).max(255) });

const usersApi = routesFor('users', 'users');

const userBySub = (path: string, summary: string) =>
  usersApi.get(path, {
    summary,
    params: UserSubParams,
    answer: ok(User, 'The user'),
    errors: [404],
  });

/** The routes of users: the signed-in user's own record, nobody else's. */
export const userRoutes = {
  userMe: usersApi.get('/user', {
    summary: 'The signed-in user, created on the first authenticated request',
    answer: ok(User, 'The user'),
  }),
  userFindBySub: userBySub(
    '/user/findBySub/:sub',
    'The signed-in user, by their identity-provider subject',
  ),
  userBySub: userBySub(
    '/user-by-sub/:sub',
    'The same as /user/findBySub/{sub}, at the path older clients use',
  ),
};
