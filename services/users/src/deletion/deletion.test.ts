import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@noted/api';
import type { Database } from '@noted/db';
import { userEvents } from '@noted/proto';
import { quotaConsume } from '../quota/usecases.js';
import { userEnsure, type UsersContext } from '../users/usecases.js';
import { tombstonesPrune, userDelete, userErase } from './usecases.js';
import { openUsersForTest } from '../testing.js';

const codeOf = async (work: Promise<unknown>) => {
  try {
    await work;
    return undefined;
  } catch (error) {
    return error instanceof AppError ? error.code : String(error);
  }
};

describe('deleting an account (users)', () => {
  let db: Database;
  let ctx: UsersContext;
  const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

  beforeAll(async () => {
    ({ db, ctx } = await openUsersForTest('deletion'));
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('refuses another email than the account’s, and writes nothing', async () => {
    const { user } = await userEnsure(ctx, { authId: 'sub-x', email: 'x@example.com', name: 'X' });
    expect(await codeOf(userDelete(ctx, user.id, 'y@example.com'))).toBe('CONFIRMATION_MISMATCH');
    expect(await db.knex('deleted_users').where({ user_id: user.id })).toEqual([]);
    expect(await db.knex('outbox').where({ subject: userEvents.deleted.subject })).toEqual([]);
  });

  it('tombstones the account, announces user.deleted, refuses its tokens, then erases it', async () => {
    const issuedAt = seconds(new Date()) - 10;
    const identity = { authId: 'sub-ada', email: 'Ada@example.com', name: 'Ada', issuedAt };
    const { user } = await userEnsure(ctx, identity);
    const other = (await userEnsure(ctx, { authId: 'sub-bo', email: 'bo@example.com', name: 'B' }))
      .user;
    await quotaConsume(ctx, { userId: user.id, feature: 'notes_per_month', amount: 2 });
    await quotaConsume(ctx, { userId: other.id, feature: 'notes_per_month', amount: 1 });

    const deletion = await userDelete(ctx, user.id, '  ada@EXAMPLE.com ');
    expect(deletion.userId).toBe(user.id);
    const [event] = await db.knex('outbox').where({ subject: userEvents.deleted.subject });
    expect(userEvents.deleted.decode(event.payload as Buffer)).toMatchObject({
      userId: user.id,
      authId: 'sub-ada',
    });
    expect(event.headers).toEqual({ 'noted-user-id': user.id });
    // Deleting twice announces nothing more.
    expect(await codeOf(userDelete(ctx, user.id, 'ada@example.com'))).toBe('ACCOUNT_DELETED');

    // The token in hand, and even a new one while the data is being erased, are refused.
    expect(await codeOf(userEnsure(ctx, identity))).toBe('ACCOUNT_DELETED');
    expect(await codeOf(userEnsure(ctx, { ...identity, issuedAt: 0 }))).toBe('ACCOUNT_DELETED');
    const later = seconds(new Date(deletion.deletedAt)) + 5;
    expect(await codeOf(userEnsure(ctx, { ...identity, issuedAt: later }))).toBe('ACCOUNT_DELETED');

    expect(await userErase(ctx, user.id)).toMatchObject({ usage: 1, users: 1 });
    // A second delivery finds nothing and succeeds.
    expect(await userErase(ctx, user.id)).toEqual({ usage: 0, feedback: 0, users: 0, outbox: 0 });
    expect(await db.knex('users').where({ id: user.id })).toEqual([]);
    expect(await db.knex('usage_counters').where({ user_id: user.id })).toEqual([]);
    // The announcement itself goes out; nothing else names the user.
    expect(await db.knex('outbox').whereRaw('headers::text like ?', [`%${user.id}%`])).toHaveLength(
      1,
    );
    expect(await db.knex('usage_counters').where({ user_id: other.id })).toHaveLength(1);

    // The old token is still refused; a sign-in after the deletion starts a new account.
    expect(await codeOf(userEnsure(ctx, identity))).toBe('ACCOUNT_DELETED');
    const fresh = await userEnsure(ctx, { ...identity, issuedAt: later });
    expect(fresh.created).toBe(true);
    expect(fresh.user.id).not.toBe(user.id);
  });

  it('prunes tombstones once no token of the account can be valid', async () => {
    const { user } = await userEnsure(ctx, { authId: 'sub-old', email: 'o@example.com', name: '' });
    await userDelete(ctx, user.id, 'o@example.com');
    expect(await tombstonesPrune(ctx)).toBe(0);
    expect(await tombstonesPrune(ctx, new Date(Date.now() + 8 * 24 * 3600_000))).toBeGreaterThan(0);
    expect(await db.knex('deleted_users').where({ user_id: user.id })).toEqual([]);
  });
});
