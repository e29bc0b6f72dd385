import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, startOutboxRelay, type Database } from '@noted/db';
import { createMemoryBus, type EventBus } from '@noted/events';
import { createLogger } from '@noted/kit';
import { noteEvents } from '@noted/proto';
import { notesConfigSchema } from '../config.js';
import { notesMigrations } from '../migrations.js';
import { noteEventOf } from '../notes/events.js';
import { notesRepository, type NoteRow } from '../notes/repository.js';
import type { NotesContext } from '../context.js';
import { noteDelete } from '../notes/usecases.js';
import { noteCreate, reviewMark } from '../test/validated.js';
import { startReviewEnrolment } from './enrolment.js';
import { testNotesContext } from '../test/context.js';

const logger = createLogger({ level: 'silent' });
const { NOTES_REVIEW_FIRST_DUE_SECONDS: firstDueSeconds } = notesConfigSchema.parse({});
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
  const enrolment = startReviewEnrolment({ bus, knex: db.knex, logger, firstDueSeconds });
  stop = async () => {
    await enrolment.stop();
    await relay.stop();
  };
  ctx = testNotesContext(db.knex, relay.kick);
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
  it('schedules a new note from its created event, by default first due a day after it was written', async () => {
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

describe('review enrolment, event by event', () => {
  let events: EventBus;
  let handled: string[];
  let enrolment: { stop(): Promise<void> };

  beforeAll(() => {
    events = createMemoryBus({ service: 'notes', logger });
    handled = [];
    // The consumer as the bus runs it, with a note of every delivery it has finished.
    const observed: EventBus = {
      ...events,
      subscribe: (options) =>
        events.subscribe({
          ...options,
          handler: async (message) => {
            await options.handler(message);
            handled.push(message.id);
          },
        }),
    };
    enrolment = startReviewEnrolment({ bus: observed, knex: db.knex, logger, firstDueSeconds });
  });

  afterAll(async () => {
    await enrolment?.stop();
    await events?.close();
  });

  /** A note written without its event, which the test then delivers itself. */
  const stored = async (userId: string, title: string): Promise<NoteRow> =>
    notesRepository.insert(db.knex, {
      id: randomUUID(),
      user_id: userId,
      title,
      body: '',
      tags: [],
    });

  /** Delivers `data` as a message of its own id, as a redelivery does, and waits for it. */
  const deliver = async (data: Uint8Array) => {
    const id = randomUUID();
    await events.publish(noteEvents.created.subject, data, { id });
    await eventually(async () => (handled.includes(id) ? true : undefined));
  };

  it('leaves one schedule, as it was, when the same created event comes twice', async () => {
    const userId = randomUUID();
    const note = await stored(userId, 'Twice');
    const created = noteEventOf.created(note).data;
    await deliver(created);
    const first = await scheduleOf(note.id);
    expect(first).toMatchObject({ user_id: userId, repetitions: 0 });

    const reviewed = await reviewMark(ctx, userId, { noteId: note.id, outcome: 'remembered' });
    await deliver(created);
    await Promise.all([deliver(created), deliver(created)]);
    const schedules = await db.knex('note_reviews').where({ note_id: note.id });
    expect(schedules).toHaveLength(1);
    expect(schedules[0]).toMatchObject({ repetitions: 1, interval_days: reviewed.intervalDays });
    expect(new Date(schedules[0].due_at).toISOString()).toBe(reviewed.dueAt);
  });

  it('enrols the notes of events delivered together with one statement', async () => {
    const userId = randomUUID();
    const notes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => stored(userId, `Together ${i}`)),
    );
    const statements: string[] = [];
    const onQuery = (query: { sql: string }) => {
      if (/^\s*insert into note_reviews/.test(query.sql)) statements.push(query.sql);
    };
    db.knex.on('query', onQuery);
    try {
      await Promise.all(notes.map((note) => deliver(noteEventOf.created(note).data)));
    } finally {
      db.knex.removeListener('query', onQuery);
    }
    for (const note of notes) expect(await scheduleOf(note.id)).toMatchObject({ user_id: userId });
    expect(statements).toHaveLength(1);
  });
});
