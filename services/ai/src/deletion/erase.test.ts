import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { create, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate, timestampNow } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@noted/db';
import { createMemoryBus, type EventBus } from '@noted/events';
import { createLogger } from '@noted/kit';
import { noteEvents, notesV1, userEvents } from '@noted/proto';
import { createIndexer } from '../index/indexer.js';
import { startIndexConsumer } from '../index/consumer.js';
import { aiMigrations } from '../migrations.js';
import { createLocalProvider } from '../providers/local.js';
import { settingsRepository } from '../settings/repository.js';
import { startUserDeletion, USER_TABLES } from './erase.js';

const logger = createLogger({ level: 'silent' });
const dataDir = mkdtempSync(path.join(tmpdir(), 'noted-ai-erase-'));
let db: Database;
let bus: EventBus;
const workers: { stop(): Promise<void> }[] = [];

const noteMessage = (userId: string, noteId: string, body: string, updatedAt: Date) =>
  create(notesV1.NoteSchema, {
    id: noteId,
    userId,
    title: 'Sourdough',
    body,
    createdAt: timestampFromDate(new Date('2026-11-20T10:00:00Z')),
    updatedAt: timestampFromDate(updatedAt),
  });

const publishCreated = (userId: string, noteId: string, body: string, at = new Date()) =>
  bus.publish(
    noteEvents.created.subject,
    toBinary(
      notesV1.NoteCreatedSchema,
      create(notesV1.NoteCreatedSchema, {
        eventId: randomUUID(),
        occurredAt: timestampNow(),
        note: noteMessage(userId, noteId, body, at),
      }),
    ),
    { id: randomUUID() },
  );

const publishUpdated = (userId: string, noteId: string, body: string, at: Date) =>
  bus.publish(
    noteEvents.updated.subject,
    toBinary(
      notesV1.NoteUpdatedSchema,
      create(notesV1.NoteUpdatedSchema, {
        eventId: randomUUID(),
        occurredAt: timestampNow(),
        note: noteMessage(userId, noteId, body, at),
      }),
    ),
    { id: randomUUID() },
  );

const publishDeleted = (userId: string, noteId: string) =>
  bus.publish(
    noteEvents.deleted.subject,
    toBinary(
      notesV1.NoteDeletedSchema,
      create(notesV1.NoteDeletedSchema, {
        eventId: randomUUID(),
        occurredAt: timestampNow(),
        noteId,
        userId,
      }),
    ),
    { id: randomUUID() },
  );

const publishUserDeleted = (userId: string) =>
  bus.publish(
    userEvents.deleted.subject,
    userEvents.deleted.encode({ eventId: randomUUID(), userId, authId: `sub-${userId}` }),
    { id: randomUUID() },
  );

/** Every row of ai's user tables that names the user. */
const rowsOf = async (userId: string) => {
  const found: Record<string, number> = {};
  for (const table of USER_TABLES) {
    const rows = await db.knex(table).where({ user_id: userId });
    if (rows.length > 0) found[table] = rows.length;
  }
  return found;
};

const eventually = async (check: () => Promise<boolean>) => {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('never happened');
};

beforeAll(async () => {
  db = await openDatabase({ dataDir, schema: 'ai', migrations: aiMigrations, logger });
  await db.migrate();
  bus = createMemoryBus({ service: 'ai', logger });
  const indexer = createIndexer({
    knex: db.knex,
    provider: createLocalProvider({ kind: 'hashed' }),
    notes: { many: async () => [] },
  });
  workers.push(
    startIndexConsumer({ bus, indexer, logger }),
    startUserDeletion({ bus, knex: db.knex, logger }),
  );
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await bus?.close();
  await db?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('erasing a user in ai', () => {
  it('drops a note event that comes after the erasure: nothing of the user is indexed again', async () => {
    const [ada, bo] = [randomUUID(), randomUUID()];
    const [note, other] = [randomUUID(), randomUUID()];
    await publishCreated(ada, note, 'Feed the starter every day.');
    await eventually(async () => (await rowsOf(ada)).chunks === 1);

    await publishUserDeleted(ada);
    await eventually(async () => Object.keys(await rowsOf(ada)).length === 0);

    // Published by notes just before the erasure, delivered after it: a newer version of the
    // note, a new note, a deletion (whose tombstone would name the user), and token usage.
    await publishUpdated(ada, note, 'Feed it twice a day.', new Date(Date.now() + 60_000));
    await publishCreated(ada, randomUUID(), 'A loaf a week.');
    await publishDeleted(ada, note);
    await settingsRepository.recordUsage(db.knex, ada, 'hashed', {
      promptTokens: 12,
      completionTokens: 0,
    });
    // Someone else's note, published after them: once it is indexed, theirs were handled.
    await publishCreated(bo, other, 'Rye needs a longer rise.');
    await eventually(async () => (await rowsOf(bo)).chunks === 1);
    await new Promise((resolve) => setTimeout(resolve, 100));

    expect(await rowsOf(ada)).toEqual({});
    expect(await db.knex('erased_users').where({ user_id: ada })).toHaveLength(1);
    expect(await rowsOf(bo)).toMatchObject({ chunks: 1, indexed_notes: 1, index_versions: 1 });
    // Others' usage is still counted.
    await settingsRepository.recordUsage(db.knex, bo, 'hashed', {
      promptTokens: 3,
      completionTokens: 0,
    });
    expect((await rowsOf(bo)).token_usage).toBe(1);
  });

  it('erases again on a second delivery of user.deleted, remembering the user once', async () => {
    const ada = randomUUID();
    await publishCreated(ada, randomUUID(), 'Starter notes.');
    await eventually(async () => (await rowsOf(ada)).chunks === 1);
    await publishUserDeleted(ada);
    await publishUserDeleted(ada);
    await eventually(async () => Object.keys(await rowsOf(ada)).length === 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await db.knex('erased_users').where({ user_id: ada })).toHaveLength(1);
  });
});
