import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUnitOfWork, openDatabase, type Database } from '@noted/db';
import { createLogger } from '@noted/kit';
import { reviewEvents } from '@noted/proto';
import { notesMigrations } from '../migrations.js';
import type { ReviewContext } from '../context.js';
import { reviewDue, reviewDueOf, reviewMark } from '../test/validated.js';

const logger = createLogger({ level: 'silent' });
const DAY = 86_400_000;
const now = new Date(Date.UTC(2027, 0, 10, 12));

describe('review use-cases', () => {
  let db: Database;
  let ctx: ReviewContext;
  let kicks = 0;

  /** Notes written straight to the table, created the given number of days before now. */
  const seed = async (userId: string, ages: number[]) => {
    const ids: string[] = [];
    for (const [i, age] of ages.entries()) {
      const id = randomUUID();
      const at = new Date(now.getTime() - age * DAY);
      await db
        .knex('notes')
        .insert({ id, user_id: userId, title: `n${i}`, body: '', created_at: at, updated_at: at });
      ids.push(id);
    }
    return ids;
  };
  const scheduleOf = (noteId: string) =>
    db.knex('note_reviews').where({ note_id: noteId }).first<Record<string, unknown>>();

  beforeAll(async () => {
    db = await openDatabase({
      dataDir: mkdtempSync(path.join(tmpdir(), 'noted-notes-review-')),
      schema: 'notes',
      migrations: notesMigrations,
      logger,
    });
    await db.migrate();
    ctx = {
      knex: db.knex,
      unitOfWork: createUnitOfWork(db.knex, () => {
        kicks += 1;
      }),
      quota: {
        consume: () => Promise.reject(new Error('review never creates notes')),
        refund: async () => {},
        recordingLimit: async () => 60,
        close: () => {},
      },
      reviewFirstDueSeconds: DAY / 1000,
    };
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('lists notes due a day after creation, most overdue first, up to the limit', async () => {
    const userId = randomUUID();
    const [threeDays, fresh, tenDays, twoDays] = (await seed(userId, [3, 0.5, 10, 2])) as [
      string,
      string,
      string,
      string,
    ];
    await seed(randomUUID(), [5]);
    const { items } = await reviewDue(ctx, userId, {}, now);
    expect(items.map((n) => n.id)).toEqual([tenDays, threeDays, twoDays]);
    expect(items[0]).toMatchObject({ title: 'n2', note: '', isPinned: false });
    expect(await scheduleOf(fresh)).toMatchObject({ user_id: userId, repetitions: 0 });
    const limited = await reviewDue(ctx, userId, { limit: '2' }, now);
    expect(limited.items.map((n) => n.id)).toEqual([tenDays, threeDays]);
    await expect(reviewDue(ctx, userId, { limit: '0' }, now)).rejects.toMatchObject({
      name: 'ZodError',
    });
  });

  it('first lists a note as long after its creation as the service is set to', async () => {
    const userId = randomUUID();
    const [hourOld] = (await seed(userId, [1 / 24])) as [string];
    const soon = { ...ctx, reviewFirstDueSeconds: 60 };
    expect((await reviewDue(soon, userId, {}, now)).items.map((n) => n.id)).toEqual([hourOld]);
    expect(await scheduleOf(hourOld)).toMatchObject({
      due_at: new Date(now.getTime() - DAY / 24 + 60_000),
    });
  });

  it('answers notes-review/{userId} only for the caller', async () => {
    const userId = randomUUID();
    const [due] = (await seed(userId, [4])) as [string];
    const own = await reviewDueOf(ctx, userId, { userId }, {}, now);
    expect(own.items.map((n) => n.id)).toEqual([due]);
    const other = randomUUID();
    await expect(reviewDueOf(ctx, other, { userId }, {}, now)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(reviewDueOf(ctx, userId, { userId: 'me' }, {}, now)).rejects.toMatchObject({
      name: 'ZodError',
    });
  });

  it('reschedules a remembered note by SM-2 and takes it off the due list', async () => {
    const userId = randomUUID();
    const [id, other] = (await seed(userId, [5, 6])) as [string, string];
    const first = await reviewMark(ctx, userId, { noteId: id, outcome: 'remembered' }, now);
    expect(first).toEqual({
      noteId: id,
      dueAt: new Date(now.getTime() + DAY).toISOString(),
      intervalDays: 1,
      repetitions: 1,
      ease: 2.5,
    });
    expect((await reviewDue(ctx, userId, {}, now)).items.map((n) => n.id)).toEqual([other]);
    const later = new Date(now.getTime() + DAY);
    const second = await reviewMark(ctx, userId, { noteId: id, outcome: 'remembered' }, later);
    expect(second).toMatchObject({ intervalDays: 6, repetitions: 2 });
    const forgot = await reviewMark(ctx, userId, { noteId: id, outcome: 'forgot' }, later);
    expect(forgot).toMatchObject({ intervalDays: 1, repetitions: 0, ease: 1.96 });
    const graded = await reviewMark(ctx, userId, { noteId: id, grade: 5 }, later);
    expect(graded).toMatchObject({ intervalDays: 1, repetitions: 1, ease: 2.06 });
    expect(await scheduleOf(id)).toMatchObject({ last_reviewed_at: later, interval_days: 1 });
  });

  it('announces each review through the outbox with the schedule it made', async () => {
    const userId = randomUUID();
    const [id] = (await seed(userId, [5])) as [string];
    const marked = () =>
      db
        .knex('outbox')
        .where({ subject: reviewEvents.marked.subject })
        .orderBy('seq')
        .then((rows: { payload: Buffer }[]) =>
          rows
            .map((row) => reviewEvents.marked.decode(row.payload))
            .filter((event) => event.noteId === id),
        );
    const kicksBefore = kicks;
    const schedule = await reviewMark(ctx, userId, { noteId: id, grade: 5 }, now);
    const [event, ...others] = await marked();
    expect(others).toEqual([]);
    expect(event).toMatchObject({
      userId,
      noteId: id,
      grade: 5,
      intervalDays: schedule.intervalDays,
      repetitions: schedule.repetitions,
      ease: schedule.ease,
    });
    expect(event?.eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect(event?.dueAt && timestampDate(event.dueAt).toISOString()).toBe(schedule.dueAt);
    expect(kicks).toBe(kicksBefore + 1);

    await expect(
      reviewMark(ctx, randomUUID(), { noteId: id, outcome: 'forgot' }, now),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await marked()).toHaveLength(1);
  });

  it("answers NOT_FOUND for another user's note and schedules nothing", async () => {
    const owner = randomUUID();
    const [id] = (await seed(owner, [3])) as [string];
    await expect(
      reviewMark(ctx, randomUUID(), { noteId: id, outcome: 'remembered' }, now),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await scheduleOf(id)).toBeUndefined();
    await reviewDue(ctx, owner, {}, now);
    const before = await scheduleOf(id);
    await expect(
      reviewMark(ctx, randomUUID(), { noteId: id, outcome: 'forgot' }, now),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await scheduleOf(id)).toEqual(before);
  });

  it('refuses a review without exactly one of outcome and grade', async () => {
    const noteId = randomUUID();
    for (const input of [
      { noteId },
      { noteId, outcome: 'remembered', grade: 4 },
      { noteId, outcome: 'maybe' },
      { noteId, grade: 6 },
      { noteId: 'x', outcome: 'forgot' },
    ]) {
      await expect(reviewMark(ctx, randomUUID(), input, now)).rejects.toMatchObject({
        name: 'ZodError',
      });
    }
  });
});
