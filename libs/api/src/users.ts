import * as z from 'zod';
import { accepted, ok, routesFor } from './contract.js';
import { requireOneOf } from './rules.js';

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

export const UserCheck = z
  .object({
    exists: z.boolean(),
    user: User.nullable(),
  })
  .meta({ id: 'UserCheck' });
export type UserCheck = z.infer<typeof UserCheck>;

/**
 * The spec's user creation: `authId` (or `sub`, as the subscription flow sends it) must be the
 * caller's own subject. Email and name are the token's; the ones sent are only a fallback.
 */
export const UserCreate = requireOneOf(
  z.object({
    authId: z.string().min(1).max(255).optional(),
    sub: z.string().min(1).max(255).optional(),
    email: z.string().max(320).optional(),
    name: z.string().max(500).optional(),
  }),
  { authId: 'present', sub: 'present' },
  'authId (or sub) is required',
  { id: 'UserCreate', description: 'authId or sub (or both): the caller’s own subject' },
);
export type UserCreate = z.input<typeof UserCreate>;

export const UsageCounter = z
  .object({
    used: z.number().int(),
    limit: z.number().int().meta({ description: '-1 is unlimited' }),
  })
  .meta({ id: 'UsageCounter' });

export const UserUsage = z
  .object({
    period: z.string().meta({ description: 'The month counted, YYYY-MM in UTC' }),
    resetsAt: z.iso.datetime().meta({ description: 'When the monthly counters start again' }),
    notes: UsageCounter,
    recordingTimeLimit: z.number().int().meta({ description: 'Seconds; -1 is unlimited' }),
  })
  .meta({ id: 'UserUsage' });
export type UserUsage = z.infer<typeof UserUsage>;

/** A guard against a stray request: the account's own email address, typed by its owner. */
export const UserDeleteRequest = z
  .object({
    confirm: z
      .string()
      .max(320)
      .meta({ description: "The account's email address (case and spaces around it ignored)" }),
  })
  .meta({ id: 'UserDeleteRequest' });
export type UserDeleteRequest = z.input<typeof UserDeleteRequest>;

export const UserDeletion = z
  .object({
    userId: z.uuid(),
    deletedAt: z.iso.datetime().meta({
      description: 'From now on every token of the account issued before this time is refused',
    }),
  })
  .meta({ id: 'UserDeletion' });
export type UserDeletion = z.infer<typeof UserDeletion>;

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
  userCheck: usersApi.get('/user/check', {
    summary:
      'Whether the signed-in user exists; the gateway creates them on their first request, so ' +
      'a signed-in caller always does',
    answer: ok(UserCheck, 'Whether the user exists, and the user'),
  }),
  userCreate: usersApi.post('/user/create', {
    summary: 'Creates the signed-in user, or answers the existing one (idempotent)',
    body: UserCreate,
    answer: ok(User, 'The user, as it is now'),
    errors: [[403, 'authId is not the caller']],
  }),
  userUsage: usersApi.get('/user/usage', {
    summary: "The signed-in user's use of their plan this month",
    answer: ok(UserUsage, 'Usage against the entitlements'),
  }),
  userDelete: usersApi.delete('/user', {
    summary:
      'Deletes the signed-in account: every service erases its data within moments, an active ' +
      'subscription is cancelled at once, and the development identity provider forgets the ' +
      'account; sign out next',
    body: UserDeleteRequest,
    answer: accepted(UserDeletion, 'The account is deleted; its data is being erased'),
    errors: [[422, 'confirm is not the account email (code CONFIRMATION_MISMATCH)']],
  }),
  userBySub: userBySub(
    '/user-by-sub/:sub',
    'The same as /user/findBySub/{sub}, at the path older clients use',
  ),
};
