import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planEntitlements } from '@noted/api';
import type { Database } from '@noted/db';
import { quotaConsume, usageOf } from '../quota/usecases.js';
import { usersRepository } from './repository.js';
import { userBySub, userEnsure, type UsersContext } from './usecases.js';
import { openUsersForTest } from '../testing.js';

describe('users', () => {
  let db: Database;
  let ctx: UsersContext;

  beforeAll(async () => {
    ({ db, ctx } = await openUsersForTest('users'));
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('creates a user on first sight with the free plan, then finds the same one', async () => {
    const first = await userEnsure(ctx, {
      authId: 'sub-ada',
      email: 'ada@example.com',
      name: 'Ada',
    });
    expect(first.created).toBe(true);
    expect(first.user).toMatchObject({ auth_id: 'sub-ada', email: 'ada@example.com', name: 'Ada' });
    expect(first.user.entitlements).toEqual(
      planEntitlements({ notesPerMonth: 25, recordingTimeLimit: 60 }).free,
    );
    expect(first.user.entitlements).toMatchObject({ notes_per_month: 25, recordingTimeLimit: 60 });
    const second = await userEnsure(ctx, {
      authId: 'sub-ada',
      email: 'ada@example.com',
      name: 'Ada',
    });
    expect(second).toMatchObject({ created: false, user: { id: first.user.id } });
  });

  it('creates exactly one user when first requests race', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        userEnsure(ctx, { authId: 'sub-race', email: 'r@example.com', name: 'R' }),
      ),
    );
    expect(new Set(results.map((r) => r.user.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const rows = await db.knex('users').where({ auth_id: 'sub-race' });
    expect(rows).toHaveLength(1);
  });

  it('takes a changed email and name from the identity provider, and keeps them when absent', async () => {
    const { user: first } = await userEnsure(ctx, {
      authId: 'sub-grace',
      email: 'grace@example.com',
      name: 'Grace',
      issuedAt: 1_000,
    });
    expect(first.profile_issued_at).toEqual(new Date(1_000_000));
    const { user: changed, created } = await userEnsure(ctx, {
      authId: 'sub-grace',
      email: 'grace.hopper@example.com',
      name: 'Grace Hopper',
      issuedAt: 1_060,
    });
    expect(created).toBe(false);
    expect(changed).toMatchObject({
      id: first.id,
      email: 'grace.hopper@example.com',
      name: 'Grace Hopper',
      profile_issued_at: new Date(1_060_000),
    });
    expect(await userBySub(ctx, 'sub-grace')).toMatchObject({
      email: 'grace.hopper@example.com',
      name: 'Grace Hopper',
    });

    const { user: kept } = await userEnsure(ctx, {
      authId: 'sub-grace',
      email: ' ',
      name: '',
      issuedAt: 1_120,
    });
    expect(kept).toMatchObject({ email: 'grace.hopper@example.com', name: 'Grace Hopper' });
  });

  it('does not let a token issued before the stored profile, or without iat, change it back', async () => {
    const ensure = (name: string, issuedAt?: number) =>
      userEnsure(ctx, { authId: 'sub-mary', email: `${name}@example.com`, name, issuedAt });
    await ensure('somerville', 2_000);
    await ensure('fairfax', 2_100);

    for (const [name, issuedAt] of [
      ['somerville', 2_050],
      ['somerville', 2_100],
      ['somerville', undefined],
    ] as const) {
      const { user } = await ensure(name, issuedAt);
      expect(user).toMatchObject({ email: 'fairfax@example.com', name: 'fairfax' });
    }
    expect(await userBySub(ctx, 'sub-mary')).toMatchObject({ name: 'fairfax' });
  });

  it('takes the profile of tokens without iat while no dated token has given one', async () => {
    await userEnsure(ctx, { authId: 'sub-undated', email: 'a@example.com', name: 'A' });
    const { user } = await userEnsure(ctx, {
      authId: 'sub-undated',
      email: 'b@example.com',
      name: 'B',
    });
    expect(user).toMatchObject({ email: 'b@example.com', name: 'B', profile_issued_at: null });
  });

  it('gives a user without an email the fallback address', async () => {
    const { user } = await userEnsure(ctx, { authId: 'sub-no-mail', email: ' ', name: '' });
    expect(user.email).toBe('sub-no-mail@users.noted.invalid');
  });

  it('refuses an empty subject and answers NOT_FOUND for an unknown one', async () => {
    await expect(
      userEnsure(ctx, { authId: ' ', email: 'x@example.com', name: 'x' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(userBySub(ctx, 'nobody')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('follows the plan billing announces, never an older announcement', async () => {
    const { user } = await userEnsure(ctx, {
      authId: 'sub-plan',
      email: 'p@example.com',
      name: 'P',
    });
    const plans = planEntitlements({ notesPerMonth: 25, recordingTimeLimit: 60 });
    const apply = (plan: 'free' | 'standard' | 'premium', version: number) =>
      usersRepository.applyPlan(db.knex, user.id, {
        plan,
        entitlements: plans[plan],
        version: BigInt(version),
      });
    expect(await apply('premium', 2_000)).toBe(true);
    // standard (version 1,000) was announced before premium but arrives after it
    expect(await apply('standard', 1_000)).toBe(false);
    expect(await apply('premium', 2_000)).toBe(false);
    expect((await userBySub(ctx, 'sub-plan')).entitlements).toEqual(plans.premium);
    expect(await apply('free', 3_000)).toBe(true);
    const after = await userBySub(ctx, 'sub-plan');
    expect(after).toMatchObject({ plan: 'free', entitlements: plans.free });
  });

  it('reports the month used against the plan, and when it starts again', async () => {
    const { user } = await userEnsure(ctx, {
      authId: 'sub-use',
      email: 'u@example.com',
      name: 'U',
    });
    const now = new Date('2026-11-30T23:59:00Z');
    await quotaConsume(ctx, { userId: user.id, feature: 'notes_per_month', now });
    await quotaConsume(ctx, { userId: user.id, feature: 'notes_per_month', now });
    expect(await usageOf(ctx, user.id, now)).toEqual({
      period: '2026-11',
      resetsAt: '2026-12-01T00:00:00.000Z',
      notes: { used: 2, limit: 25 },
      recordingTimeLimit: 60,
    });
    const december = await usageOf(ctx, user.id, new Date('2026-12-01T00:00:00Z'));
    expect(december).toMatchObject({ period: '2026-12', notes: { used: 0, limit: 25 } });
  });
});
