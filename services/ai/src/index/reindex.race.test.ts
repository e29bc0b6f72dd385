import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@noted/db';
import { createMemoryBus, type EventBus } from '@noted/events';
import { createLogger } from '@noted/kit';
import type { notesV1 } from '@noted/proto';
import { aiMigrations } from '../migrations.js';
import { createLocalProvider } from '../providers/local.js';
import type { AiProvider } from '../providers/port.js';
import { createNotesStore, type NotesStore } from '../test/notes-store.js';
import { startIndexConsumer } from './consumer.js';
import { createIndexer, type Indexer } from './indexer.js';
import { createReindexer } from './reindex.js';

const logger = createLogger({ level: 'silent' });
const dataDir = mkdtempSync(path.join(tmpdir(), 'noted-ai-reindex-race-'));
let db: Database;
let bus: EventBus;
let stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  db = await openDatabase({ dataDir, schema: 'ai', migrations: aiMigrations, logger });
  await db.migrate();
}, 60_000);

beforeEach(async () => {
  await db.knex.raw('truncate indexed_notes, chunks, index_versions, summaries');
  bus = createMemoryBus({ service: 'ai', logger });
});

afterEach(async () => {
  for (const stop of stops) await stop();
  stops = [];
  await bus.close();
});

afterAll(async () => {
  await db?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A small deterministic random source (mulberry32), so a failing seed can be run again. */
const randomOf = (seed: number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** Ids that sort before or after every random one: a note the scan has passed, or not reached. */
const behindTheScan = () => `00000000${randomUUID().slice(8)}`;
const aheadOfTheScan = () => `ffffffff${randomUUID().slice(8)}`;

/**
 * The notes service in memory, the event consumer on the in-process bus and a rebuild reading
 * `page` notes at a time; `settled` waits until the consumer has applied every event published.
 */
const setUp = (
  page: number,
  options: { provider?: AiProvider; highWaterMarginMs?: number } = {},
) => {
  const store = createNotesStore({ bus });
  const indexer = createIndexer({
    knex: db.knex,
    provider: options.provider ?? createLocalProvider({ kind: 'hashed' }),
    notes: store.client,
  });
  let applied = 0;
  const counted: Indexer = {
    ...indexer,
    index: async (notes, options) => {
      const outcome = await indexer.index(notes, options);
      applied += notes.length;
      return outcome;
    },
    remove: async (removals) => {
      await indexer.remove(removals);
      applied += removals.length;
    },
  };
  const consumer = startIndexConsumer({ bus, indexer: counted, logger });
  stops.push(() => consumer.stop());
  const reindexer = createReindexer({
    knex: db.knex,
    notes: store.client,
    indexer,
    logger,
    page,
    ...(options.highWaterMarginMs === undefined
      ? {}
      : { highWaterMarginMs: options.highWaterMarginMs }),
  });
  const settled = async () => {
    for (let waited = 0; applied < store.published(); waited += 5) {
      if (waited > 20_000) throw new Error(`${store.published() - applied} events never applied`);
      await sleep(5);
    }
  };
  const rebuild = async (userId?: string) => {
    reindexer.start(userId);
    await reindexer.settled();
    expect(reindexer.progress()).toMatchObject({ state: 'finished', error: '' });
    await settled();
  };
  return { store, indexer, reindexer, settled, rebuild };
};

/**
 * How the index differs from the notes service: live notes it does not hold, live notes it
 * holds with an older text, and deleted notes it still holds.
 */
const differences = async (store: NotesStore) => {
  const rows = new Map(
    (
      await db
        .knex('indexed_notes')
        .select<{ note_id: string; deleted: boolean }[]>('note_id', 'deleted')
    ).map((row) => [row.note_id, row]),
  );
  const texts = new Map<string, string>();
  for (const chunk of await db
    .knex('chunks')
    .select<{ note_id: string; text: string }[]>('note_id', 'text')) {
    texts.set(chunk.note_id, `${texts.get(chunk.note_id) ?? ''}${chunk.text}`);
  }
  const missing = store.live().filter((note) => !rows.get(note.id) || rows.get(note.id)?.deleted);
  const stale = store
    .live()
    .filter(
      (note) => rows.get(note.id)?.deleted === false && !texts.get(note.id)?.includes(note.body),
    );
  const stillIndexed = store
    .deleted()
    .filter((id) => texts.has(id) || rows.get(id)?.deleted === false);
  return { missing: missing.length, stale: stale.length, stillIndexed: stillIndexed.length };
};

const inStep = { missing: 0, stale: 0, stillIndexed: 0 };

describe('a rebuild of the AI index racing note events', () => {
  it('ends with every note created, edited or deleted at any point of its scan as the notes service has it', async () => {
    const { store, settled, rebuild } = setUp(5);
    const users = [randomUUID(), randomUUID()];
    for (let n = 0; n < 24; n += 1) await store.create({ userId: users[n % 2]! });
    await settled();

    const createdDuring: notesV1.Note[] = [];
    store.onScan(async (page) => {
      // The page is read; each change below lands before the rebuild writes it.
      for (const userId of users) {
        for (const id of [behindTheScan(), aheadOfTheScan(), randomUUID()]) {
          createdDuring.push(await store.create({ userId, id }));
        }
      }
      const [first, second] = page;
      if (first) await store.edit(first.id);
      if (second) await store.remove(second.id);
      const earlier = createdDuring.filter((note) => store.live().includes(note));
      if (earlier[0]) await store.edit(earlier[0].id);
      if (earlier[1]) await store.remove(earlier[1].id);
      await settled();
    });
    await rebuild();
    store.onScan(undefined);
    expect(
      await differences(store),
      `${createdDuring.length} notes created during the rebuild, ${store.live().length} live`,
    ).toEqual(inStep);

    await rebuild();
    expect(await differences(store), 'after a second rebuild').toEqual(inStep);
    for (const note of store.live()) await store.edit(note.id);
    await settled();
    expect(await differences(store), 'after editing every note').toEqual(inStep);
  });

  it('brings back a note an earlier rebuild forgot, on its next edit or the next rebuild, but never a deleted one', async () => {
    const { store, indexer, settled, rebuild } = setUp(5);
    const userId = randomUUID();
    const notes: notesV1.Note[] = [];
    for (let n = 0; n < 4; n += 1) notes.push(await store.create({ userId }));
    await settled();
    const [edited, rebuilt, gone] = notes as [notesV1.Note, notesV1.Note, notesV1.Note];

    // What a rebuild that lost notes left behind: tombstones of notes the notes service has.
    await indexer.remove([edited, rebuilt].map((note) => ({ noteId: note.id, userId })));
    await store.edit(edited.id);
    await settled();
    expect(await differences(store), 'after the edit').toEqual({ ...inStep, missing: 1 });

    await rebuild(userId);
    expect(await differences(store), 'after the rebuild').toEqual(inStep);

    // A late event of a note deleted since, delivered twice, leaves it deleted.
    await store.remove(gone.id);
    await settled();
    await store.replay(gone);
    await store.replay(gone);
    await settled();
    await rebuild(userId);
    expect(await differences(store), 'after late events of a deleted note').toEqual(inStep);
  });

  it.each([
    { seed: 1, scope: 'every user' },
    { seed: 2, scope: 'one user' },
    { seed: 3, scope: 'every user' },
    { seed: 4, scope: 'one user' },
  ])(
    'ends in step with the notes service after random creates, edits and deletes during a rebuild of $scope (seed $seed)',
    async ({ seed, scope }) => {
      const random = randomOf(seed);
      const { store, reindexer, settled, rebuild } = setUp(10);
      const users = [randomUUID(), randomUUID(), randomUUID()];
      const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
      for (let n = 0; n < 60; n += 1) await store.create({ userId: pick(users)! });
      await settled();

      // Each page of the scan takes a moment, so the changes below interleave with it.
      store.onScan(() => sleep(random() * 30));
      let created = 0;
      reindexer.start(scope === 'one user' ? users[0] : undefined);
      let running = true;
      void reindexer.settled().then(() => {
        running = false;
      });
      while (running) {
        const roll = random();
        const live = store.live();
        if (roll < 0.5 || live.length === 0) {
          await store.create({ userId: pick(users)! });
          created += 1;
        } else if (roll < 0.8) await store.edit(pick(live)!.id);
        else await store.remove(pick(live)!.id);
        await sleep(random() * 2);
      }
      store.onScan(undefined);
      expect(reindexer.progress()).toMatchObject({ state: 'finished' });
      await settled();
      expect(
        await differences(store),
        `${created} notes created during the rebuild, ${store.live().length} live`,
      ).toEqual(inStep);

      await rebuild();
      expect(await differences(store), 'after a second rebuild').toEqual(inStep);
    },
  );

  it('scans only the notes there were when it began: writes meanwhile reach the index through their events, at their latest version', async () => {
    const { store, reindexer, settled } = setUp(5, { highWaterMarginMs: 0 });
    const userId = randomUUID();
    const before: notesV1.Note[] = [];
    for (let n = 0; n < 20; n += 1) before.push(await store.create({ userId }));
    await settled();
    await db.knex.raw('truncate indexed_notes, chunks, index_versions, summaries');

    let writes = 0;
    const written = new Set<string>();
    const scanned: string[] = [];
    const scannedAfterWritten: string[] = [];
    store.onScan(async (page) => {
      scanned.push(...page.map((note) => note.id));
      scannedAfterWritten.push(...page.filter((note) => written.has(note.id)).map((n) => n.id));
      // Past the high-water mark: new notes ahead of the scan and behind it, and edits.
      await sleep(2);
      for (const id of [aheadOfTheScan(), behindTheScan(), randomUUID()]) {
        written.add((await store.create({ userId, id })).id);
      }
      written.add((await store.edit(before[writes % before.length]!.id)).id);
      writes += 1;
    });
    reindexer.start(userId);
    await reindexer.settled();
    store.onScan(undefined);
    await settled();
    // However many notes were written meanwhile, it read only the twenty there were (not one
    // changed since), once each.
    expect(writes).toBeGreaterThanOrEqual(3);
    expect(store.live()).toHaveLength(20 + 3 * writes);
    expect(scannedAfterWritten).toEqual([]);
    expect(new Set(scanned).size).toBe(scanned.length);
    expect(reindexer.progress()).toMatchObject({ state: 'finished', done: scanned.length });
    expect(await differences(store)).toEqual(inStep);
  });

  it('leaves an index already in step as it is: nothing embedded, nothing written', async () => {
    const local = createLocalProvider({ kind: 'hashed' });
    const embedded: string[] = [];
    const provider: AiProvider = {
      ...local,
      embed: (texts, ctx) => {
        embedded.push(...texts);
        return local.embed(texts, ctx);
      },
    };
    const { store, settled, rebuild } = setUp(5, { provider });
    const userId = randomUUID();
    for (let n = 0; n < 12; n += 1) await store.create({ userId });
    await settled();
    const rows = await db.knex('indexed_notes').orderBy('note_id').select('note_id', 'version');
    embedded.length = 0;

    await rebuild();
    expect(embedded).toEqual([]);
    expect(await db.knex('indexed_notes').orderBy('note_id').select('note_id', 'version')).toEqual(
      rows,
    );

    // A chunk whose text changed is embedded again; the note's unchanged chunks keep theirs.
    const long = await store.create({
      userId,
      body: ['First part.', 'Second part.', 'Third part.']
        .map((part) => `${part} ${'Words to fill the chunk. '.repeat(30)}`)
        .join('\n\n'),
    });
    await settled();
    const chunks = await db.knex('chunks').where({ note_id: long.id }).count({ count: '*' });
    expect(Number(chunks[0]?.count)).toBeGreaterThan(1);
    embedded.length = 0;
    const edited = await store.edit(long.id, `${long.body}\n\nA fourth part.`);
    await settled();
    expect(embedded.length).toBeGreaterThan(0);
    expect(embedded.length).toBeLessThan(Number(chunks[0]?.count));
    const texts = await db.knex('chunks').where({ note_id: long.id }).pluck('text');
    expect(texts.join(' ')).toContain('A fourth part.');
    expect(
      (await db.knex('indexed_notes').where({ note_id: long.id }).first()).note_updated_at,
    ).toEqual(timestampDate(edited.updatedAt!));
  });

  it('embeds a note event before its next slice of a rebuild, so writes stay current', async () => {
    const local = createLocalProvider({ kind: 'hashed' });
    const calls: { purpose: string; texts: string[]; go: () => void }[] = [];
    const provider: AiProvider = {
      ...local,
      embed: async (texts, ctx) => {
        await new Promise<void>((resolve) =>
          calls.push({ purpose: ctx.purpose, texts, go: resolve }),
        );
        return local.embed(texts, ctx);
      },
    };
    const indexer = createIndexer({ knex: db.knex, provider, notes: { many: async () => [] } });
    const userId = randomUUID();
    const at = new Date();
    const noteOf = (body: string) => ({
      id: randomUUID(),
      userId,
      title: 'Note',
      body,
      tags: [],
      createdAt: at,
      updatedAt: at,
    });
    const rebuilt = Array.from({ length: 40 }, (_, n) => noteOf(`Rebuilt note ${n}.`));
    const rebuilding = indexer.index(rebuilt, { force: true, background: true });
    const waitFor = async (count: number) => {
      while (calls.length < count) await sleep(1);
    };
    await waitFor(1);
    const live = noteOf('Written just now.');
    const writing = indexer.index([live]);
    await waitFor(2);
    // The write's embedding is asked for while the rebuild's first slice is in flight; once
    // that slice is done, the rebuild asks for no other until the write's is.
    expect(calls[0]?.texts).toHaveLength(16);
    expect(calls[1]?.texts.join()).toContain('Written just now.');
    calls[0]!.go();
    await sleep(50);
    expect(calls).toHaveLength(2);
    calls[1]!.go();
    await writing;
    for (let n = 2; n < 99; n += 1) {
      const next = Promise.race([rebuilding.then(() => 'done'), waitFor(n + 1).then(() => 'call')]);
      if ((await next) === 'done') break;
      calls[n]!.go();
    }
    await rebuilding;
    expect(calls.slice(2).every((call) => call.texts.length <= 16)).toBe(true);
    const [{ n } = { n: 0 }] = await db
      .knex('indexed_notes')
      .where({ user_id: userId, deleted: false })
      .count({ n: '*' });
    expect(Number(n)).toBe(41);
  });

  it('stops between two pages when the service stops', async () => {
    const { store, reindexer, settled } = setUp(5);
    const userId = randomUUID();
    for (let n = 0; n < 30; n += 1) await store.create({ userId });
    await settled();
    store.onScan(() => sleep(20));
    reindexer.start(userId);
    await sleep(30);
    await reindexer.stop();
    store.onScan(undefined);
    expect(reindexer.progress()).toMatchObject({ state: 'failed' });
    expect(reindexer.progress().done).toBeLessThan(30);
  });
});
