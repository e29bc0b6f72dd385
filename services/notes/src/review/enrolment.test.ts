import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, startOutboxRelay, type Database } from '@noted/db';
import { createMemoryBus, type EventBus } from '@noted/events';
import { createLogger } from '@noted/kit';
import { notesMigrations } from '../migrations.js';
import { noteCreate, noteDelete, type NotesContext } from '../notes/usecases.js';
import { startReviewEnrolment } from './enrolment.js';

const logger = createLogger({ level: 'silent' });
const dataDir = mkdtempSync(path.join(tmpdir(), 'noted-review-enrolment-'));
let db: Database;
let bus: EventBus;
let ctx: NotesContext;
let stop: () => Promise<void>;

beforeAll(async () => {
  db = await openDatabase({ dataDir, schema: 'notes', migrations: notesMigrations, logger });
  await db.migrate();
  bus = createMemoryBus({ service: 'notes', logger });
  const relay = startOutboxRelay({ db, bus, service: 'notes', logger, pollMs: 20 });
  const enrolment = startReviewEnrolment({ bus, knex: db.knex, logger });
  stop = async () => {
    await enrolment.stop();
    await relay.stop();
  };
  ctx = {
    knex: db.knex,
    published: relay.kick,
    quota: { consume: async () => async () => {}, close: () => {} },
  };
}, 60_000);

afterAll(async () => {
  await stop?.();
  await bus?.close();
  await db?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const scheduleOf = (noteId: string) => db.knex('note_reviews').where({ note_id: noteId }).first();

const eventually = async <T>(check: () => Promise<T | undefined>): Promise<T> => {
  for (let attempt = 0; attempt < 100; attempt++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('never happened');
};

describe('review enrolment', () => {
  it('schedules a new note from its created event, first due a day after it was written', async () => {
    const userId = randomUUID();
    const note = await noteCreate(ctx, userId, { title: 'Remember me' });
    const schedule = await eventually(() => scheduleOf(note.id));
    expect(schedule).toMatchObject({ user_id: userId, repetitions: 0, interval_days: 0 });
    expect(new Date(schedule.due_at).getTime() - Date.parse(note.createdAt)).toBe(86_400_000);
  });

  it('gives a note deleted before its event arrives no schedule, and goes on', async () => {
    const userId = randomUUID();
    const gone = await noteCreate(ctx, userId, { title: 'Gone' });
    await noteDelete(ctx, userId, gone.id);
    const kept = await noteCreate(ctx, userId, { title: 'Kept' });
    await eventually(() => scheduleOf(kept.id));
    expect(await scheduleOf(gone.id)).toBeUndefined();
  });
});
