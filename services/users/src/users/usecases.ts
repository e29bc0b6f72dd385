import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import * as z from 'zod';
import { AppError, planEntitlements, type Entitlements, type FreePlanLimits } from '@noted/api';
import type { UnitOfWork } from '@noted/db';
import { deletionRepository } from '../deletion/repository.js';
import { usersRepository, type UserRow } from './repository.js';

export interface UsersContext {
  knex: Knex;
  /** Writes that record an event (the account's deletion). */
  unitOfWork: UnitOfWork;
  freePlan: FreePlanLimits;
  fallbackEmailDomain: string;
}

/** What a new user gets: the free plan's, until billing says otherwise. */
const freeEntitlements = (ctx: UsersContext): Entitlements => planEntitlements(ctx.freePlan).free;

interface TokenIdentity {
  authId: string;
  email: string;
  name: string;
  /** The token's iat in Unix seconds; 0 or absent when it has none. */
  issuedAt?: number;
}

/**
 * Whether a deleted account refuses a token of its subject: one issued before the deletion
 * (or without an issue time), or any while the account's data is still being erased. A token
 * issued after it (a new sign-in at a provider that kept the account) starts a new account.
 */
const refusedByTombstone = (
  tombstone: { user_id: string; deleted_at: Date },
  issuedAt: Date | undefined,
  existing: UserRow | undefined,
) =>
  existing?.id === tombstone.user_id ||
  !issuedAt ||
  issuedAt.getTime() <= tombstone.deleted_at.getTime();

const issuedAtOf = (identity: TokenIdentity) =>
  identity.issuedAt ? new Date(identity.issuedAt * 1000) : undefined;

/**
 * The identity provider owns a user's email and name: a changed one that the token carries
 * replaces the stored one, unless the token was issued before (or in the same second as) the
 * one that gave the stored profile; an absent one (no email scope, no name) keeps what is stored.
 */
const profileFollows = async (
  ctx: UsersContext,
  user: UserRow,
  identity: TokenIdentity,
): Promise<UserRow> => {
  const email = identity.email.trim() || user.email;
  const name = identity.name.trim() || user.name;
  if (email === user.email && name === user.name) return user;
  const updated = await usersRepository.updateProfile(
    ctx.knex,
    user.id,
    { email, name },
    issuedAtOf(identity),
  );
  return updated ?? (await usersRepository.findById(ctx.knex, user.id)) ?? user;
};

/**
 * Returns the user of this identity-provider subject, creating it on first sight and keeping
 * its email and name as the provider last gave them. Concurrent first requests race on the
 * unique auth_id: one inserts, the others read what it wrote.
 */
export const userEnsure = async (
  ctx: UsersContext,
  identity: TokenIdentity,
): Promise<{ user: UserRow; created: boolean }> => {
  const authId = identity.authId.trim();
  if (!authId) throw new AppError('VALIDATION_FAILED', 'auth_id is required');
  const existing = await usersRepository.findBySub(ctx.knex, authId);
  const tombstone = await deletionRepository.latestOf(ctx.knex, authId);
  if (tombstone && refusedByTombstone(tombstone, issuedAtOf(identity), existing)) {
    throw new AppError('ACCOUNT_DELETED', 'This account was deleted; sign in again');
  }
  if (existing) return { user: await profileFollows(ctx, existing, identity), created: false };
  const created = await usersRepository.insertIfAbsent(ctx.knex, {
    id: randomUUID(),
    auth_id: authId,
    email: identity.email.trim() || `${authId}@${ctx.fallbackEmailDomain}`,
    name: identity.name.trim(),
    entitlements: freeEntitlements(ctx),
    profile_issued_at: issuedAtOf(identity) ?? null,
  });
  if (created) return { user: created, created: true };
  const winner = await usersRepository.findBySub(ctx.knex, authId);
  if (!winner) throw new AppError('INTERNAL', 'The user could not be created');
  return { user: winner, created: false };
};

export const userBySub = async (ctx: UsersContext, authId: string): Promise<UserRow> => {
  const user = await usersRepository.findBySub(ctx.knex, authId);
  if (!user) throw new AppError('NOT_FOUND', 'There is no such user');
  return user;
};

export const userById = async (ctx: UsersContext, id: string): Promise<UserRow> => {
  const user = z.uuid().safeParse(id).success
    ? await usersRepository.findById(ctx.knex, id)
    : undefined;
  if (!user) throw new AppError('NOT_FOUND', 'There is no such user');
  return user;
};
