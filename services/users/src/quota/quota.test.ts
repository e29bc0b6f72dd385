import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@noted/db';
import { createLogger } from '@noted/kit';
import { usersMigrations } from '../migrations.js';
import { quotaConsume, quotaRelease } from './usecases.js';

const notesLeftNotEnough = {
  code: 'NOTES_LEFT_NOT_ENOUGH',
  message: 'Notes left not enough this month',
};

describe('quota', () => {
  let db: Database;
  let ctx: { knex: Database['knex'] };

  /** A user with these entitlements (`null` stores a JSON null: no entitlements at all). */
  const userWith = async (entitlements: Record<string, number | boolean> | null) => {
    const id = randomUUID();
    await db.knex('users').insert({
      id,
      auth_id: `sub-${id}`,
      email: `${id}@example.com`,
      entitlements: JSON.stringify(entitlements),
    });
    return id;
  };

  const usedOf = async (userId: string, feature = 'notes_per_month') =>
    (await db.knex('usage_counters').where({ user_id: userId, feature }).sum('used as used'))[0]
      ?.used;

  beforeAll(async () => {
    db = await openDatabase({
      dataDir: mkdtempSync(path.join(tmpdir(), 'noted-quota-')),
      schema: 'users',
      migrations: usersMigrations,
      logger: createLogger({ level: 'silent' }),
    });
    await db.migrate();
    ctx = { knex: db.knex };
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('takes up to the limit, then refuses with NOTES_LEFT_NOT_ENOUGH and takes nothing', async () => {
    const userId = await userWith({ notes_per_month: 3, recordingTimeLimit: 60 });
    for (const used of [1, 2, 3]) {
      expect(await quotaConsume(ctx, { userId, feature: 'notes_per_month' })).toMatchObject({
        used,
        limit: 3,
      });
    }
    await expect(quotaConsume(ctx, { userId, feature: 'notes_per_month' })).rejects.toMatchObject(
      notesLeftNotEnough,
    );
    expect(Number(await usedOf(userId))).toBe(3);
  });

  it('takes an amount only when all of it fits', async () => {
    const userId = await userWith({ notes_per_month: 5 });
    await quotaConsume(ctx, { userId, feature: 'notes_per_month', amount: 4 });
    await expect(
      quotaConsume(ctx, { userId, feature: 'notes_per_month', amount: 2 }),
    ).rejects.toMatchObject(notesLeftNotEnough);
    expect(await quotaConsume(ctx, { userId, feature: 'notes_per_month' })).toMatchObject({
      used: 5,
    });
  });

  it('treats -1 and a missing entitlement as unlimited', async () => {
    const unlimited = await userWith({ notes_per_month: -1 });
    const withoutIt = await userWith({ recordingTimeLimit: 60 });
    for (const userId of [unlimited, withoutIt]) {
      for (let i = 0; i < 5; i++) await quotaConsume(ctx, { userId, feature: 'notes_per_month' });
      expect(
        await quotaConsume(ctx, { userId, feature: 'notes_per_month', amount: 1000 }),
      ).toMatchObject({ used: 1005, limit: -1 });
    }
  });

  it('refuses a user with no entitlements at all, a limit of 0 and a disabled feature', async () => {
    for (const entitlements of [null, { notes_per_month: 0 }, { notes_per_month: false }]) {
      const userId = await userWith(entitlements);
      await expect(quotaConsume(ctx, { userId, feature: 'notes_per_month' })).rejects.toMatchObject(
        notesLeftNotEnough,
      );
    }
  });

  it('names other features in a FORBIDDEN error', async () => {
    const userId = await userWith({ notes_per_month: 3, ai_summaries: 1 });
    await quotaConsume(ctx, { userId, feature: 'ai_summaries' });
    await expect(quotaConsume(ctx, { userId, feature: 'ai_summaries' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'Your plan does not allow more of ai_summaries this period',
    });
    expect(await quotaConsume(ctx, { userId, feature: 'notes_per_month' })).toMatchObject({
      used: 1,
    });
  });

  it('answers NOT_FOUND for an unknown user and VALIDATION_FAILED for a malformed request', async () => {
    await expect(
      quotaConsume(ctx, { userId: randomUUID(), feature: 'notes_per_month' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const userId = await userWith({ notes_per_month: 3 });
    for (const input of [
      { userId: 'not-a-uuid', feature: 'notes_per_month' },
      { userId, feature: '' },
      { userId, feature: 'notes_per_month', amount: 0 },
    ]) {
      await expect(quotaConsume(ctx, input)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });

  it('starts every month (UTC) at 0', async () => {
    const userId = await userWith({ notes_per_month: 1 });
    const endOfJanuary = new Date('2027-01-31T23:59:59.999Z');
    const startOfFebruary = new Date('2027-02-01T00:00:00.000Z');
    expect(
      await quotaConsume(ctx, { userId, feature: 'notes_per_month', now: endOfJanuary }),
    ).toMatchObject({ used: 1, period: '2027-01' });
    await expect(
      quotaConsume(ctx, { userId, feature: 'notes_per_month', now: endOfJanuary }),
    ).rejects.toMatchObject(notesLeftNotEnough);
    expect(
      await quotaConsume(ctx, { userId, feature: 'notes_per_month', now: startOfFebruary }),
    ).toMatchObject({ used: 1, period: '2027-02' });
  });

  it('gives back what was taken, in the period it was taken, never below 0', async () => {
    const userId = await userWith({ notes_per_month: 1 });
    const january = new Date('2027-01-31T23:59:59Z');
    const { period } = await quotaConsume(ctx, {
      userId,
      feature: 'notes_per_month',
      now: january,
    });
    await quotaConsume(ctx, {
      userId,
      feature: 'notes_per_month',
      now: new Date('2027-02-01T00:00:01Z'),
    });
    expect(await quotaRelease(ctx, { userId, feature: 'notes_per_month', period })).toEqual({
      used: 0,
    });
    expect(await quotaRelease(ctx, { userId, feature: 'notes_per_month', period })).toEqual({
      used: 0,
    });
    expect(
      await quotaConsume(ctx, { userId, feature: 'notes_per_month', now: january }),
    ).toMatchObject({ used: 1 });
    expect(Number(await usedOf(userId))).toBe(2);
  });

  it('lets exactly one of 50 concurrent requests take the last unit', async () => {
    const userId = await userWith({ notes_per_month: 5 });
    await quotaConsume(ctx, { userId, feature: 'notes_per_month', amount: 4 });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => quotaConsume(ctx, { userId, feature: 'notes_per_month' })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused).toHaveLength(49);
    for (const r of refused) expect(r.reason).toMatchObject(notesLeftNotEnough);
    expect(Number(await usedOf(userId))).toBe(5);
  });
});
