import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUnitOfWork, openDatabase, type Database } from '@noted/db';
import { createLogger } from '@noted/kit';
import { reviewEvents } from '@noted/proto';
import { infraUrl } from '@noted/testing';
import { notesConfigSchema } from '../config.js';
import { notesMigrations } from '../migrations.js';
import { reviewRepository } from './repository.js';
import { reviewAnnounceDue, startReviewScheduler } from './scheduler.js';

const logger = createLogger({ level: 'silent' });
const databaseUrl = infraUrl('PostgreSQL', 'TEST_DATABASE_URL');
const DAY = 86_400_000;

const suite = (name: string, url: string | undefined) =>
  describe(`review scheduler (${name})`, () => {
    let db: Database;
    const schema = `review_test_${randomUUID().slice(0, 8)}`;

    /** Notes with schedules due the given number of days before `at`. */
    const seedDue = async (userId: string, at: Date, overdueDays: number[]) => {
      const ids: string[] = [];
      for (const days of overdueDays) {
        const id = randomUUID();
        await db.knex('notes').insert({ id, user_id: userId, title: `t${days}` });
        await db.knex('note_reviews').insert({
          note_id: id,
          user_id: userId,
          due_at: new Date(at.getTime() - days * DAY),
        });
        ids.push(id);
      }
      return ids;
    };

    const dueEvents = async (since: number) =>
      (
        await db
          .knex('outbox')
          .where({ subject: reviewEvents.due.subject })
          .where('seq', '>', since)
          .orderBy('seq')
          .select<{ payload: Buffer }[]>('payload')
      ).map((row) => reviewEvents.due.decode(row.payload));

    const unitOfWork = () => createUnitOfWork(db.knex, () => {});

    const lastSeq = async () =>
      Number((await db.knex('outbox').max<{ max: string | null }>('seq as max').first())?.max ?? 0);

    beforeAll(async () => {
      db = await openDatabase({
        ...(url ? { url } : {}),
        dataDir: mkdtempSync(path.join(tmpdir(), 'noted-review-scheduler-')),
        schema: url ? schema : 'notes',
        migrations: notesMigrations,
        logger,
      });
      await db.migrate();
    }, 60_000);

    afterAll(async () => {
      if (url) await db?.knex.raw('drop schema if exists ?? cascade', [schema]);
      await db?.close();
    });

    it('announces due notes once per user, marks them, and announces nothing twice', async () => {
      const at = new Date(Date.UTC(2028, 0, 1));
      const ada = randomUUID();
      const bob = randomUUID();
      const adaNotes = await seedDue(ada, at, [3, 1]);
      const bobNotes = await seedDue(bob, at, [2]);
      const [notYet] = await seedDue(ada, at, [-1]);
      const since = await lastSeq();

      const run = await reviewAnnounceDue(unitOfWork(), { now: at });
      expect(run).toEqual({ leader: true, events: 2, notes: 3 });
      const events = await dueEvents(since);
      const byUser = new Map(events.map((e) => [e.userId, e.notes.map((n) => n.id)]));
      expect(byUser).toEqual(
        new Map([
          [ada, adaNotes],
          [bob, bobNotes],
        ]),
      );
      expect(events[0]?.notes[0]?.userId).toBe(events[0]?.userId);
      const marked = await db
        .knex('note_reviews')
        .whereIn('note_id', [...adaNotes, ...bobNotes])
        .pluck('notified_at');
      expect(marked).toEqual([at, at, at]);

      expect(await reviewAnnounceDue(unitOfWork(), { now: at })).toEqual({
        leader: true,
        events: 0,
        notes: 0,
      });
      expect(await dueEvents(since)).toHaveLength(2);

      const nextDay = new Date(at.getTime() + DAY);
      await reviewAnnounceDue(unitOfWork(), { now: nextDay });
      const later = await dueEvents(since);
      expect(later.slice(2).map((e) => [e.userId, e.notes.map((n) => n.id)])).toEqual([
        [ada, [notYet]],
      ]);
    });

    it('announces a note again once a review makes it due again', async () => {
      const at = new Date(Date.UTC(2029, 0, 1));
      const user = randomUUID();
      const [id] = (await seedDue(user, at, [1])) as [string];
      await reviewAnnounceDue(unitOfWork(), { now: at });
      await db
        .knex('note_reviews')
        .where({ note_id: id })
        .update({ due_at: new Date(at.getTime() + DAY) });
      const since = await lastSeq();
      await reviewAnnounceDue(unitOfWork(), { now: new Date(at.getTime() + 2 * DAY) });
      expect((await dueEvents(since)).map((e) => e.notes.map((n) => n.id))).toEqual([[id]]);
    });

    it('does not announce a schedule twice when runs overlap', async () => {
      const at = new Date(Date.UTC(2030, 0, 1));
      const users = [randomUUID(), randomUUID(), randomUUID()];
      for (const user of users) await seedDue(user, at, [1, 2]);
      const since = await lastSeq();
      const runs = await Promise.all(
        Array.from({ length: 4 }, () => reviewAnnounceDue(unitOfWork(), { now: at })),
      );
      expect(runs.reduce((sum, r) => sum + r.notes, 0)).toBe(6);
      const events = await dueEvents(since);
      expect(events.flatMap((e) => e.notes.map((n) => n.id)).sort()).toHaveLength(6);
      expect(new Set(events.flatMap((e) => e.notes.map((n) => n.id))).size).toBe(6);
    });

    it('announces a new note once its first-due seconds have passed; by default a day', async () => {
      const created = new Date(Date.UTC(2031, 0, 1));
      const user = randomUUID();
      const [soon, byDefault] = [randomUUID(), randomUUID()];
      for (const id of [soon, byDefault]) {
        await db.knex('notes').insert({ id, user_id: user, title: id, created_at: created });
      }
      await reviewRepository.enrolNewNotes(db.knex, [{ userId: user, noteId: soon }], 1);
      const { NOTES_REVIEW_FIRST_DUE_SECONDS } = notesConfigSchema.parse({});
      await reviewRepository.enrolNewNotes(
        db.knex,
        [{ userId: user, noteId: byDefault }],
        NOTES_REVIEW_FIRST_DUE_SECONDS,
      );
      const since = await lastSeq();
      const announcedBy = async (at: Date) => {
        await reviewAnnounceDue(unitOfWork(), { now: at });
        return (await dueEvents(since))
          .filter((event) => event.userId === user)
          .map((event) => event.notes.map((note) => note.id));
      };
      expect(await announcedBy(new Date(created.getTime() + 999))).toEqual([]);
      expect(await announcedBy(new Date(created.getTime() + 1_000))).toEqual([[soon]]);
      expect(await announcedBy(new Date(created.getTime() + DAY - 1))).toEqual([[soon]]);
      expect(await announcedBy(new Date(created.getTime() + DAY))).toEqual([[soon], [byDefault]]);
    });

    it('runs on its interval, kicks the relay, and stops cleanly', async () => {
      const user = randomUUID();
      await seedDue(user, new Date(), [1]);
      let kicks = 0;
      const scheduler = startReviewScheduler({
        unitOfWork: createUnitOfWork(db.knex, () => {
          kicks += 1;
        }),
        logger,
        intervalMs: 20,
      });
      await expect.poll(() => kicks, { timeout: 5_000 }).toBeGreaterThan(0);
      await scheduler.stop();
      expect(await scheduler.runOnce()).toMatchObject({ events: 0 });
      const since = await lastSeq();
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(await lastSeq()).toBe(since);
    });
  });

suite('PGlite', undefined);
if (databaseUrl) suite('Postgres', databaseUrl);
