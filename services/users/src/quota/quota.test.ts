import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { create, toBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@noted/db';
import { createMemoryBus } from '@noted/events';
import { createLogger } from '@noted/kit';
import { noteEvents, notesV1 } from '@noted/proto';
import { usersMigrations } from '../migrations.js';
import { startNoteQuotaSettlement } from './settlement.js';
import {
  quotaConsume,
  quotaPending,
  quotaRelease,
  quotaReservationsPrune,
  quotaSettle,
  usageOf,
} from './usecases.js';

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

  describe('charged for a note', () => {
    const notes = 'notes_per_month';
    const charge = (userId: string, refs: string[], now?: Date) =>
      quotaConsume(ctx, { userId, feature: notes, refs, ...(now ? { now } : {}) });
    const stateOf = async (userId: string, ref: string) =>
      (await db.knex('quota_reservations').where({ user_id: userId, ref }).first())?.state;

    it('charges a note id once, however often and however concurrently it is asked for', async () => {
      const userId = await userWith({ notes_per_month: 5 });
      const noteId = randomUUID();
      expect(await charge(userId, [noteId])).toMatchObject({ used: 1, charged: 1, limit: 5 });
      expect(await charge(userId, [noteId])).toMatchObject({ used: 1, charged: 0, limit: 5 });
      const again = randomUUID();
      const together = await Promise.all(Array.from({ length: 10 }, () => charge(userId, [again])));
      expect(together.map((r) => r.charged).sort()).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
      // A batch charges only the ids it has not paid for.
      expect(await charge(userId, [noteId, again, randomUUID()])).toMatchObject({
        used: 3,
        charged: 1,
      });
      expect(Number(await usedOf(userId))).toBe(3);
      expect((await usageOf(ctx, userId)).notes).toEqual({ used: 3, limit: 5 });
    });

    it('takes all of a batch or none of it, and keeps nothing of a refused one', async () => {
      const userId = await userWith({ notes_per_month: 2 });
      const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
      await charge(userId, [a]);
      await expect(charge(userId, [b, c])).rejects.toMatchObject(notesLeftNotEnough);
      expect(await stateOf(userId, b)).toBeUndefined();
      expect(await charge(userId, [b])).toMatchObject({ used: 2, charged: 1 });
      await expect(charge(userId, [c])).rejects.toMatchObject(notesLeftNotEnough);
      await expect(charge(randomUUID(), [c])).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('gives back a pending charge in the month it was taken, once, and never a settled one', async () => {
      const userId = await userWith({ notes_per_month: 1 });
      const [pending, settled] = [randomUUID(), randomUUID()];
      const january = new Date('2027-01-31T23:59:59Z');
      const february = new Date('2027-02-01T00:00:01Z');
      expect(await charge(userId, [pending], january)).toMatchObject({ period: '2027-01' });
      expect(await charge(userId, [settled], february)).toMatchObject({ period: '2027-02' });
      await quotaSettle(ctx, { userId, feature: notes, refs: [settled] });

      // Released in February, the unit goes back to January, where it was taken.
      expect(await quotaRelease(ctx, { userId, feature: notes, refs: [pending, settled] })).toEqual(
        { used: 0, released: 1 },
      );
      expect(await quotaRelease(ctx, { userId, feature: notes, refs: [pending] })).toMatchObject({
        released: 0,
      });
      const counters = await db
        .knex('usage_counters')
        .where({ user_id: userId })
        .orderBy('period')
        .select('period', 'used');
      expect(counters).toEqual([
        { period: '2027-01', used: 0 },
        { period: '2027-02', used: 1 },
      ]);
      // Asked for again (the create was tried again), a released note id is charged again.
      expect(await charge(userId, [pending], january)).toMatchObject({ used: 1, charged: 1 });
    });

    it('refunds a settled charge when asked (a capture that failed), and charges it again on retry', async () => {
      const userId = await userWith({ notes_per_month: 1 });
      const failed = randomUUID();
      await charge(userId, [failed]);
      await quotaSettle(ctx, { userId, feature: notes, refs: [failed] });
      expect(await quotaRelease(ctx, { userId, feature: notes, refs: [failed] })).toMatchObject({
        released: 0,
      });
      const refund = { userId, feature: notes, refs: [failed], refund: true };
      expect(await quotaRelease(ctx, refund)).toEqual({ used: 0, released: 1 });
      expect(await quotaRelease(ctx, refund)).toEqual({ used: 0, released: 0 });
      expect(await stateOf(userId, failed)).toBe('released');
      // The month's one note is free again, and the retry takes it.
      expect(await charge(userId, [failed])).toMatchObject({ used: 1, charged: 1 });
      expect(await stateOf(userId, failed)).toBe('pending');
    });

    it('charges again, in its month and past the limit, a note whose unit was given back but that was made after all', async () => {
      const userId = await userWith({ notes_per_month: 1 });
      const late = randomUUID();
      await charge(userId, [late], new Date('2027-03-31T23:59:00Z'));
      await quotaRelease(ctx, { userId, feature: notes, refs: [late] });
      await charge(userId, [randomUUID()], new Date('2027-03-31T23:59:30Z'));
      expect(await quotaSettle(ctx, { userId, feature: notes, refs: [late] })).toEqual({
        settled: 1,
        recharged: 1,
      });
      expect(await quotaSettle(ctx, { userId, feature: notes, refs: [late] })).toEqual({
        settled: 0,
        recharged: 0,
      });
      expect(
        await db.knex('usage_counters').where({ user_id: userId, period: '2027-03' }).first('used'),
      ).toEqual({ used: 2 });
      expect(await stateOf(userId, late)).toBe('settled');
    });

    it('lists the charges pending longer than asked, oldest first, and forgets finished ones after a week', async () => {
      const userId = await userWith({ notes_per_month: 10 });
      const [old, recent, settled] = [randomUUID(), randomUUID(), randomUUID()];
      await charge(userId, [old, recent, settled]);
      await quotaSettle(ctx, { userId, feature: notes, refs: [settled] });
      await db
        .knex('quota_reservations')
        .where({ ref: old })
        .update({ reserved_at: new Date(Date.now() - 3600_000) });
      const pending = await quotaPending(ctx, {
        feature: notes,
        olderThanSeconds: 600,
        limit: 1000,
      });
      expect(pending.filter((row) => row.user_id === userId).map((row) => row.ref)).toEqual([old]);

      await quotaReservationsPrune(ctx, new Date(Date.now() + 8 * 86_400_000));
      expect(await stateOf(userId, settled)).toBeUndefined();
      expect(await stateOf(userId, old)).toBe('pending');
    });

    it('settles a note from its note.created event (and note.deleted), and an event delivered twice charges once', async () => {
      const bus = createMemoryBus({ service: 'users', logger: createLogger({ level: 'silent' }) });
      const settlement = startNoteQuotaSettlement({
        bus,
        knex: db.knex,
        logger: createLogger({ level: 'silent' }),
      });
      try {
        const userId = await userWith({ notes_per_month: 1 });
        const [made, givenBack] = [randomUUID(), randomUUID()];
        await charge(userId, [made]);
        const created = (noteId: string) =>
          toBinary(
            notesV1.NoteCreatedSchema,
            create(notesV1.NoteCreatedSchema, {
              eventId: randomUUID(),
              note: { id: noteId, userId, title: 'Field notes' },
            }),
          );
        const publish = (noteId: string, data = created(noteId)) =>
          bus.publish(noteEvents.created.subject, data, { id: randomUUID() });
        // The same event twice (a relay that published again after the duplicate window).
        const event = created(made);
        await publish(made, event);
        await publish(made, event);
        // A note whose unit the sweep gave back, delivered twice as well.
        await db
          .knex('users')
          .where({ id: userId })
          .update({
            entitlements: JSON.stringify({ notes_per_month: 2 }),
          });
        await charge(userId, [givenBack]);
        await quotaRelease(ctx, { userId, feature: notes, refs: [givenBack] });
        const late = created(givenBack);
        await publish(givenBack, late);
        await publish(givenBack, late);
        for (let waited = 0; waited < 5000; waited += 20) {
          if (
            (await stateOf(userId, givenBack)) === 'settled' &&
            (await stateOf(userId, made)) === 'settled'
          ) {
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await stateOf(userId, made)).toBe('settled');
        expect(await stateOf(userId, givenBack)).toBe('settled');
        expect(Number(await usedOf(userId))).toBe(2);

        // Deleted (twice over), a note's charge stays and is forgotten: made again with the same
        // id, it is a new note, charged.
        await db
          .knex('users')
          .where({ id: userId })
          .update({
            entitlements: JSON.stringify({ notes_per_month: 3 }),
          });
        const deleted = toBinary(
          notesV1.NoteDeletedSchema,
          create(notesV1.NoteDeletedSchema, { eventId: randomUUID(), noteId: made, userId }),
        );
        for (let n = 0; n < 2; n += 1) {
          await bus.publish(noteEvents.deleted.subject, deleted, { id: randomUUID() });
        }
        for (let waited = 0; (await stateOf(userId, made)) && waited < 5000; waited += 20) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await stateOf(userId, made)).toBeUndefined();
        expect(Number(await usedOf(userId))).toBe(2);
        expect(await charge(userId, [made])).toMatchObject({ used: 3, charged: 1 });
      } finally {
        await settlement.stop();
        await bus.close();
      }
    });
  });
});
