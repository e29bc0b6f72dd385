import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { create, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate, timestampNow } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '@noted/db';
import { createMemoryBus, type EventBus } from '@noted/events';
import { AppError } from '@noted/api';
import { createLogger } from '@noted/kit';
import { notesV1 } from '@noted/proto';
import { HASHED_EMBEDDING_MODEL, hashedEmbedding } from '../local/embeddings.js';
import { tokenize } from '../local/text.js';
import { aiMigrations } from '../migrations.js';
import type { NotesClient } from '../notes-client.js';
import { createLocalProvider } from '../providers/local.js';
import type { AiProvider } from '../providers/port.js';
import { createIndexCache } from '../retrieval/cache.js';
import { settingsRepository } from '../settings/repository.js';
import { startIndexConsumer } from './consumer.js';
import { createIndexer, type NoteForIndex } from './indexer.js';
import { startIndexRepair } from './reindex.js';
import { indexRepository } from './repository.js';

const logger = createLogger({ level: 'silent' });
const dataDir = mkdtempSync(path.join(tmpdir(), 'noted-ai-index-'));
let db: Database;
let bus: EventBus;

/** The local provider, remembering every text it embedded; optionally under another model name. */
const recordingProvider = (model = HASHED_EMBEDDING_MODEL) => {
  const local = createLocalProvider({ kind: 'hashed' });
  const embedded: string[] = [];
  const provider: AiProvider = {
    ...local,
    models: { ...local.models, embeddings: model },
    embed: async (texts, ctx) => {
      embedded.push(...texts);
      return { ...(await local.embed(texts, ctx)), model };
    },
  };
  return { provider, embedded };
};

/** The notes service once every note is deleted: what a tombstone is checked against. */
const noneLeft = { many: async () => [] };

/** A provider that cannot embed until `up()` is called. */
const flakyProvider = () => {
  const local = recordingProvider();
  let down = true;
  const provider: AiProvider = {
    ...local.provider,
    embed: async (texts, ctx) => {
      if (down) throw new AppError('AI_PROVIDER_FAILED', 'The AI provider could not be reached');
      return local.provider.embed(texts, ctx);
    },
  };
  return {
    provider,
    up: () => {
      down = false;
    },
  };
};

const noteOf = (overrides: Partial<NoteForIndex> = {}): NoteForIndex => {
  const at = new Date('2026-11-20T10:00:00Z');
  return {
    id: randomUUID(),
    userId: randomUUID(),
    title: 'Sourdough',
    body: 'Bake the loaf at 250 degrees for twenty minutes.',
    tags: [],
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
};

const chunksOf = (noteId: string) =>
  db.knex('chunks').where({ note_id: noteId }).orderBy('chunk_index').select('text', 'model');

const eventually = async (check: () => Promise<boolean>) => {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('never happened');
};

beforeAll(async () => {
  db = await openDatabase({ dataDir, schema: 'ai', migrations: aiMigrations, logger });
  await db.migrate();
  bus = createMemoryBus({ service: 'ai', logger });
}, 60_000);

afterAll(async () => {
  await bus?.close();
  await db?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the AI index', () => {
  it('indexes a note version once: the same version again, or an older one, changes nothing', async () => {
    const { provider, embedded } = recordingProvider();
    const indexer = createIndexer({ knex: db.knex, provider, notes: noneLeft });
    const note = noteOf();
    expect(await indexer.index([note])).toMatchObject({ indexed: 1, skipped: 0 });
    const calls = embedded.length;
    expect(await indexer.index([note])).toMatchObject({ indexed: 0, skipped: 1 });
    expect(embedded.length).toBe(calls);

    const newer = {
      ...note,
      body: 'Bake at 230 now.',
      updatedAt: new Date('2026-11-21T00:00:00Z'),
    };
    await indexer.index([newer]);
    await indexer.index([note]);
    const chunks = await chunksOf(note.id);
    expect(chunks.map((chunk) => chunk.text).join(' ')).toContain('230');
    expect(chunks.map((chunk) => chunk.text).join(' ')).not.toContain('250');
  });

  it('never writes an older version over a newer one, even one still waiting for the provider', async () => {
    const flaky = flakyProvider();
    const indexer = createIndexer({ knex: db.knex, provider: flaky.provider, notes: noneLeft });
    const first = noteOf({ body: 'Bake at 250.' });
    const edited = { ...first, body: 'Bake at 230 now.', updatedAt: new Date('2026-11-21') };
    expect(await indexer.index([edited])).toMatchObject({ pending: 1 });
    flaky.up();
    // The create event, late: the edit's version waits for the provider, but it is newer.
    expect(await indexer.index([first])).toMatchObject({ indexed: 0, skipped: 1 });
    expect(await indexer.index([first], { force: true })).toMatchObject({ skipped: 1 });
    expect(await chunksOf(first.id)).toEqual([]);
    const row = await db.knex('indexed_notes').where({ note_id: first.id }).first();
    expect(row.note_updated_at).toEqual(edited.updatedAt);
  });

  it('keeps a deleted note deleted, whatever arrives after the delete', async () => {
    const indexer = createIndexer({
      knex: db.knex,
      provider: recordingProvider().provider,
      notes: noneLeft,
    });
    const note = noteOf();
    await indexer.index([note]);
    await indexer.remove([{ noteId: note.id, userId: note.userId }]);
    expect(await chunksOf(note.id)).toEqual([]);
    await indexer.index([{ ...note, updatedAt: new Date('2027-01-01T00:00:00Z') }]);
    expect(await chunksOf(note.id)).toEqual([]);
  });

  it('never embeds the text of a note whose tag its owner excluded from AI', async () => {
    const { provider, embedded } = recordingProvider();
    const indexer = createIndexer({ knex: db.knex, provider, notes: noneLeft });
    const userId = randomUUID();
    await db.knex.transaction((trx) =>
      settingsRepository.replaceExcludedTags(trx, userId, ['private']),
    );
    const secret = noteOf({ userId, tags: ['private'], body: 'my secret diary entry' });
    expect(await indexer.index([secret])).toMatchObject({ excluded: 1, indexed: 0 });
    expect(embedded.join(' ')).not.toContain('secret diary');
    expect(await chunksOf(secret.id)).toEqual([]);
  });

  it('follows note events, and a redelivered event leaves one set of chunks', async () => {
    const { provider, embedded } = recordingProvider();
    const indexer = createIndexer({ knex: db.knex, provider, notes: noneLeft });
    const consumer = startIndexConsumer({ bus, indexer, logger });
    const note = noteOf();
    const message = create(notesV1.NoteSchema, {
      id: note.id,
      userId: note.userId,
      title: note.title,
      body: note.body,
      createdAt: timestampFromDate(note.createdAt),
      updatedAt: timestampFromDate(note.updatedAt),
    });
    const created = toBinary(
      notesV1.NoteCreatedSchema,
      create(notesV1.NoteCreatedSchema, {
        eventId: 'e1',
        occurredAt: timestampNow(),
        note: message,
      }),
    );
    // Two publishes with distinct ids: the bus's de-duplication does not hide the second.
    await bus.publish('noted.notes.v1.note.created', created, { id: randomUUID() });
    await bus.publish('noted.notes.v1.note.created', created, { id: randomUUID() });
    await eventually(async () => (await chunksOf(note.id)).length > 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await chunksOf(note.id)).toHaveLength(1);
    // The second delivery found this version indexed and embedded nothing.
    expect(embedded).toHaveLength(1);

    const deleted = toBinary(
      notesV1.NoteDeletedSchema,
      create(notesV1.NoteDeletedSchema, {
        eventId: 'e2',
        occurredAt: timestampNow(),
        noteId: note.id,
        userId: note.userId,
      }),
    );
    await bus.publish('noted.notes.v1.note.deleted', deleted, { id: randomUUID() });
    await eventually(async () => (await chunksOf(note.id)).length === 0);
    await consumer.stop();
  });

  it('keeps notes the provider could not embed waiting, and embeds them once it answers', async () => {
    const userId = randomUUID();
    const flaky = flakyProvider();
    const indexer = createIndexer({ knex: db.knex, provider: flaky.provider, notes: noneLeft });
    const note = noteOf({ userId, body: 'Dentist on Tuesday at nine.' });
    expect(await indexer.index([note])).toMatchObject({ pending: 1, indexed: 0 });
    expect(await chunksOf(note.id)).toEqual([]);

    const stored = create(notesV1.NoteSchema, {
      ...note,
      createdAt: timestampFromDate(note.createdAt),
      updatedAt: timestampFromDate(note.updatedAt),
    });
    const notesClient = { many: async () => [stored] } as unknown as NotesClient;
    flaky.up();
    const repair = startIndexRepair({
      knex: db.knex,
      notes: notesClient,
      indexer,
      logger,
      intervalMs: 20,
    });
    await eventually(async () => (await chunksOf(note.id)).length > 0);
    await repair.stop();
  });

  it('stops repairing at once when stopped mid-repair, without waiting out its interval', async () => {
    const down: AiProvider = {
      ...recordingProvider().provider,
      embed: async () => {
        throw new AppError('AI_PROVIDER_FAILED', 'The AI provider could not be reached');
      },
    };
    const indexer = createIndexer({ knex: db.knex, provider: down, notes: noneLeft });
    await indexer.index([noteOf()]);
    let reading: () => void = () => {};
    const read = new Promise<void>((resolve) => {
      reading = resolve;
    });
    const notesClient = {
      many: async () => {
        reading();
        await new Promise((resolve) => setTimeout(resolve, 100));
        return [];
      },
    } as unknown as NotesClient;
    const repair = startIndexRepair({
      knex: db.knex,
      notes: notesClient,
      indexer,
      logger,
      intervalMs: 3_600_000,
    });
    await read;
    // The test's own timeout is far below the interval: waiting it out would fail here.
    await repair.stop();
  }, 10_000);

  it('stops repairing at once while a batch is being embedded, writing nothing of it', async () => {
    const userId = randomUUID();
    const note = noteOf({ userId, body: 'Embedded by a slow model.' });
    // Written while the provider was down: the repair embeds it again.
    const down: AiProvider = {
      ...recordingProvider().provider,
      embed: async () => {
        throw new AppError('AI_PROVIDER_FAILED', 'The AI provider could not be reached');
      },
    };
    await createIndexer({ knex: db.knex, provider: down, notes: noneLeft }).index([note]);
    let embedding: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      embedding = resolve;
    });
    // A model that takes its time, and stops between batches when asked to.
    const slow: AiProvider = {
      ...recordingProvider().provider,
      embed: (_texts, ctx) => {
        embedding();
        return new Promise((_resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('the slow model finished')), 60_000);
          ctx.signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(ctx.signal?.reason);
          });
        });
      },
    };
    const stored = create(notesV1.NoteSchema, {
      ...note,
      createdAt: timestampFromDate(note.createdAt),
      updatedAt: timestampFromDate(note.updatedAt),
    });
    const repair = startIndexRepair({
      knex: db.knex,
      notes: { many: async () => [stored] } as unknown as NotesClient,
      indexer: createIndexer({ knex: db.knex, provider: slow, notes: noneLeft }),
      logger,
      intervalMs: 3_600_000,
    });
    await started;
    // The test's own timeout is far below the model's minute: waiting for it would fail here.
    await repair.stop();
    expect(await chunksOf(note.id)).toEqual([]);
  }, 10_000);

  it('brings a cached index up to date by reading only the notes that changed', async () => {
    const userId = randomUUID();
    const indexer = createIndexer({
      knex: db.knex,
      provider: recordingProvider().provider,
      notes: noneLeft,
    });
    const cache = createIndexCache({
      knex: db.knex,
      maxBytes: 10_000_000,
      models: () => ({ embeddings: indexer.model(), retrieval: null }),
    });
    const notes = Array.from({ length: 4 }, (_, n) =>
      noteOf({ userId, title: `Trip ${n}`, body: `Packing for the trip number ${n}.` }),
    );
    await indexer.index(notes);
    const first = await cache.get(userId);
    expect(first.lexical(tokenize('packing'), 10)).toHaveLength(4);

    const loads = vi.spyOn(indexRepository, 'loadChunks');
    const [changed, gone] = notes as [NoteForIndex, NoteForIndex];
    await indexer.index([
      { ...changed, body: 'Unpacking the suitcase at home.', updatedAt: new Date('2027-01-01') },
    ]);
    await indexer.remove([{ noteId: gone.id, userId }]);
    const after = await cache.get(userId);
    expect(after).toBe(first);
    expect(loads).toHaveBeenCalledTimes(1);
    expect(loads.mock.calls[0]?.[2]?.sort()).toEqual([changed.id, gone.id].sort());
    expect(after.lexical(tokenize('packing'), 10).map((hit) => hit.noteId)).toHaveLength(2);
    expect(after.lexical(tokenize('suitcase'), 10).map((hit) => hit.noteId)).toEqual([changed.id]);
    const query = hashedEmbedding('unpacking suitcase');
    expect(after.semantic(query, 10)[0]?.noteId).toBe(changed.id);
    expect(after.semantic(query, 10).map((hit) => hit.noteId)).not.toContain(gone.id);
    loads.mockRestore();
  });

  it('gives chunks vectors by the retrieval encoder in the background, kept while their text is', async () => {
    const { provider: base } = recordingProvider();
    const retrieved: string[] = [];
    const provider: AiProvider = {
      ...base,
      models: { ...base.models, retrieval: 'test-retrieval' },
      embedForRetrieval: async (texts) => {
        retrieved.push(...texts);
        return { vectors: texts.map((text) => hashedEmbedding(`r ${text}`)), model: 'r' };
      },
    };
    const indexer = createIndexer({ knex: db.knex, provider, notes: noneLeft });
    const repair = startIndexRepair({
      knex: db.knex,
      notes: { many: async () => [] } as unknown as NotesClient,
      indexer,
      logger,
      intervalMs: 60_000,
    });
    const cache = createIndexCache({
      knex: db.knex,
      maxBytes: 10_000_000,
      models: () => ({ embeddings: indexer.model(), retrieval: 'test-retrieval' }),
    });
    const userId = randomUUID();
    const [kept, edited] = [
      noteOf({ userId, title: 'Kept', body: 'The spare key is under the blue flower pot.' }),
      noteOf({ userId, title: 'Edited', body: 'Dentist on Thursday at three.' }),
    ] as [NoteForIndex, NoteForIndex];
    const withVectors = async () =>
      (
        await db
          .knex('chunks')
          .where({ user_id: userId, retrieval_model: 'test-retrieval' })
          .select('note_id')
      ).length;
    try {
      await indexer.index([kept, edited]);
      // Woken by the indexing, not the interval.
      await eventually(async () => (await withVectors()) === 2);
      expect((await cache.get(userId)).hasRetrievalVectors).toBe(true);
      const later = new Date('2027-02-01');
      await indexer.index([
        { ...kept, tags: ['home'], updatedAt: later },
        { ...edited, body: 'Dentist moved to Friday at four.', updatedAt: later },
      ]);
      await eventually(async () => (await withVectors()) === 2);
      // The kept chunk's text was embedded once; the edited note's each time it changed (the
      // repair also embedded the chunks other tests left in the database).
      const times = (words: string) => retrieved.filter((text) => text.includes(words)).length;
      expect(times('spare key is under the blue')).toBe(1);
      expect(times('Dentist on Thursday at three')).toBe(1);
      expect(times('Dentist moved to Friday at four')).toBe(1);
      const index = await cache.get(userId);
      const text = retrieved.at(-1) ?? '';
      const query = {
        vector: hashedEmbedding(text),
        retrievalVector: hashedEmbedding(`r ${text}`),
      };
      expect(index.meaning(query).nearest(1)[0]?.noteId).toBe(edited.id);
    } finally {
      await repair.stop();
    }
  });

  it('re-embeds with a new embedding model in the background, searchable by words meanwhile', async () => {
    const userId = randomUUID();
    const old = createIndexer({
      knex: db.knex,
      provider: recordingProvider().provider,
      notes: noneLeft,
    });
    const notes = Array.from({ length: 5 }, (_, n) =>
      noteOf({
        userId,
        title: `Meeting ${n}`,
        body: `Budget review number ${n} with the finance team.`,
      }),
    );
    await old.index(notes);

    const next = recordingProvider('hashed-next');
    const indexer = createIndexer({ knex: db.knex, provider: next.provider, notes: noneLeft });
    const cache = createIndexCache({
      knex: db.knex,
      maxBytes: 10_000_000,
      models: () => ({ embeddings: indexer.model(), retrieval: null }),
    });
    // Before the migration: every note found by words, none by meaning (other model's vectors).
    const before = await cache.get(userId);
    expect(before.lexical(tokenize('budget review'), 10)).toHaveLength(5);
    const query = (await next.provider.embed(['budget review'], { userId, purpose: 'test' }))
      .vectors[0];
    expect(before.semantic(query as Float32Array, 10)).toHaveLength(0);

    const byId = new Map(notes.map((note) => [note.id, note]));
    const notesClient = {
      many: async (_user: string, ids: string[]) =>
        ids.flatMap((id) => {
          const note = byId.get(id);
          return note
            ? [
                create(notesV1.NoteSchema, {
                  ...note,
                  createdAt: timestampFromDate(note.createdAt),
                  updatedAt: timestampFromDate(note.updatedAt),
                }),
              ]
            : [];
        }),
    } as unknown as NotesClient;
    const migration = startIndexRepair({
      knex: db.knex,
      notes: notesClient,
      indexer,
      logger,
      batch: 2,
    });
    await eventually(async () => {
      const rows = await db.knex('indexed_notes').where({ user_id: userId, model: 'hashed-next' });
      return rows.length === 5;
    });
    await migration.stop();
    const after = await cache.get(userId);
    expect(after.semantic(query as Float32Array, 10)).toHaveLength(5);
    expect(next.embedded.join(' ')).toContain('Budget review number 4');
  });
});
