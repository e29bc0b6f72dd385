/**
 * A whole-instance rebuild of the AI index (`noted reindex`) while notes keep being written.
 * The notes service is the in-memory one the ai tests use (ScanNotes, GetNotes, note events on
 * the in-process bus); the index, its event consumer and the rebuild are the service's own,
 * on PGlite. Each scenario runs in a process of its own:
 *
 *   intact: the index already holds every note (a rebuild to make sure);
 *   lost:   the index is empty (a restored or new ai database).
 *
 * Each starts from BENCH_NOTES notes of BENCH_USERS users, writes BENCH_WRITES notes a second
 * (three creates to one edit) for the whole rebuild, and reports the rebuild's throughput
 * (notes scanned a second), when it finished, and when it converged: the index held every
 * note as the notes service had it when the rebuild finished. A rebuild that has not finished
 * after BENCH_TIMEOUT_S is reported as such. Baseline, same process: indexing the starting
 * notes in batches of 16 with no rebuild and no writes (what the embedding model can do).
 *
 *   npm run bench:reindex
 *   BENCH_PROVIDER=use npm run bench:reindex   # the sentence encoder instead of hashed vectors
 *
 * The embedding model is the scarce resource: BENCH_EMBED_RATE (texts a second, 0 for none)
 * caps the provider at that rate for every caller at once, first come first served in
 * batches of 32, as a remote API's rate limit or the local encoder on a busy machine does.
 * Figures, not assertions.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '@noted/db';
import { createMemoryBus } from '@noted/events';
import { createLogger } from '@noted/kit';
import { DEFAULT_EMBEDDING_THREADS } from '../../services/ai/src/config.js';
import { startIndexConsumer } from '../../services/ai/src/index/consumer.js';
import { createIndexer, noteForIndex, type Indexer } from '../../services/ai/src/index/indexer.js';
import { createReindexer } from '../../services/ai/src/index/reindex.js';
import { DEFAULT_USE_MODEL_DIR } from '../../services/ai/src/local/use/model-dir.js';
import { aiMigrations } from '../../services/ai/src/migrations.js';
import { createLocalProvider } from '../../services/ai/src/providers/local.js';
import type { AiProvider } from '../../services/ai/src/providers/port.js';
import { corpusNotes } from '../../services/ai/src/test/retrieval-corpus.js';
import { createNotesStore } from '../../services/ai/src/test/notes-store.js';

const noteCount = Number(process.env.BENCH_NOTES ?? 1000);
const userCount = Number(process.env.BENCH_USERS ?? 5);
const writesPerSecond = Number(process.env.BENCH_WRITES ?? 4);
const embedRate = Number(process.env.BENCH_EMBED_RATE ?? 12);
const timeoutS = Number(process.env.BENCH_TIMEOUT_S ?? 300);
const providerKind = process.env.BENCH_PROVIDER === 'use' ? 'use' : 'hashed';
const databaseUrl = process.env.BENCH_DATABASE_URL;
const scenarios = ['intact', 'lost'] as const;
type Scenario = (typeof scenarios)[number];

/** A small deterministic generator, so every run writes the same notes. */
const random = (() => {
  let seed = 7;
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
})();
const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
const paragraphs = corpusNotes.flatMap((note) =>
  note.body.split(/\n\s*\n/).filter((part) => part.trim().length > 40),
);
const bodyOf = () =>
  Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(paragraphs)).join('\n\n');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The provider behind one queue of `rate` texts a second, shared by every caller. */
const throttled = (inner: AiProvider, rate: number) => {
  let freeAt = 0;
  const counts = { calls: 0, texts: 0 };
  const provider: AiProvider = {
    ...inner,
    name: inner.name,
    models: inner.models,
    chat: (...args) => inner.chat(...args),
    transcribe: (...args) => inner.transcribe(...args),
    close: () => inner.close(),
    embed: async (texts, ctx) => {
      counts.calls += 1;
      counts.texts += texts.length;
      if (rate > 0) {
        for (let start = 0; start < texts.length; start += 32) {
          const cost = (Math.min(32, texts.length - start) / rate) * 1000;
          const begin = Math.max(performance.now(), freeAt);
          freeAt = begin + cost;
          await sleep(freeAt - performance.now());
        }
      }
      return inner.embed(texts, ctx);
    },
  };
  return { provider, counts };
};

interface Figures {
  scenario: Scenario;
  model: string;
  baselineNotesPerSecond: number;
  notesAtStart: number;
  notesAtEnd: number;
  writes: number;
  finished: boolean;
  finishSeconds: number;
  convergeSeconds: number | null;
  scanned: number;
  total: number;
  textsEmbeddedDuring: number;
  writeLagMs: number[];
}

const run = async (scenario: Scenario): Promise<Figures> => {
  const logger = createLogger({ level: 'silent' });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'noted-bench-reindex-'));
  const schema = databaseUrl ? `ai_bench_${randomUUID().slice(0, 8)}` : 'ai';
  const db = await openDatabase({
    url: databaseUrl,
    dataDir,
    schema,
    migrations: aiMigrations,
    logger,
  });
  await db.migrate();
  const knex = db.knex;
  const bus = createMemoryBus({ service: 'ai', logger });
  const { provider, counts } = throttled(
    createLocalProvider(
      providerKind === 'use'
        ? { kind: 'use', modelDir: DEFAULT_USE_MODEL_DIR, threads: DEFAULT_EMBEDDING_THREADS }
        : { kind: 'hashed' },
    ),
    embedRate,
  );
  const store = createNotesStore({ bus });
  const indexer = createIndexer({ knex, provider, notes: store.client });
  const users = Array.from({ length: userCount }, () => randomUUID());

  // The starting notes, published before the consumer exists (so it never sees them).
  for (let n = 0; n < noteCount; n += 1) {
    await store.create({ userId: users[n % userCount]!, body: bodyOf() });
  }
  await provider.embed(['warming up'], { userId: users[0]!, purpose: 'bench' });
  const baselineStart = performance.now();
  const starting = store.live().map(noteForIndex);
  for (let start = 0; start < starting.length; start += 16) {
    await indexer.index(starting.slice(start, start + 16));
  }
  const baselineNotesPerSecond = starting.length / ((performance.now() - baselineStart) / 1000);
  if (scenario === 'lost') {
    await knex.raw('truncate indexed_notes, chunks, index_versions, summaries');
  }

  // When each note's latest write reached the index through its event.
  const writtenAt = new Map<string, { at: number; updatedAt: number }>();
  const writeLagMs: number[] = [];
  const watched: Indexer = {
    ...indexer,
    index: async (notes, options) => {
      const outcome = await indexer.index(notes, options);
      const now = performance.now();
      for (const note of notes) {
        const written = writtenAt.get(note.id);
        if (written && written.updatedAt === note.updatedAt.getTime()) {
          writeLagMs.push(now - written.at);
          writtenAt.delete(note.id);
        }
      }
      return outcome;
    },
  };
  const consumer = startIndexConsumer({ bus, indexer: watched, logger });
  const reindexer = createReindexer({ knex, notes: store.client, indexer, logger });

  const notesAtStart = store.live().length;
  let writing = true;
  let writes = 0;
  const writer = (async () => {
    const every = 1000 / writesPerSecond;
    const began = performance.now();
    while (writing) {
      const userId = pick(users);
      const note =
        writes % 4 === 3
          ? await store.edit(pick(store.live()).id, bodyOf())
          : await store.create({ userId, body: bodyOf() });
      writtenAt.set(note.id, {
        at: performance.now(),
        updatedAt: noteForIndex(note).updatedAt.getTime(),
      });
      writes += 1;
      await sleep(Math.max(0, began + writes * every - performance.now()));
    }
  })();

  const embeddedBefore = counts.texts;
  const started = performance.now();
  reindexer.start();
  const seconds = () => (performance.now() - started) / 1000;
  let finished = false;
  while (seconds() < timeoutS) {
    const { state } = reindexer.progress();
    if (state === 'finished' || state === 'failed') {
      finished = state === 'finished';
      break;
    }
    await sleep(100);
  }
  const finishSeconds = seconds();
  const { done: scanned, total } = reindexer.progress();

  // Converged: every note, as it was when the rebuild finished, indexed at that version or a
  // later one, with the configured model.
  let convergeSeconds: number | null = null;
  if (finished) {
    const wanted = new Map(
      store.live().map((note) => [note.id, noteForIndex(note).updatedAt.getTime()]),
    );
    while (seconds() < timeoutS * 2) {
      const rows = await knex('indexed_notes')
        .where({ deleted: false, model: provider.models.embeddings })
        .select<{ note_id: string; note_updated_at: Date }[]>('note_id', 'note_updated_at');
      const held = new Map(rows.map((row) => [row.note_id, row.note_updated_at.getTime()]));
      const behind = [...wanted].filter(([id, at]) => (held.get(id) ?? -1) < at).length;
      if (behind === 0) {
        convergeSeconds = seconds();
        break;
      }
      await sleep(100);
    }
  }
  writing = false;
  await writer;
  const figures: Figures = {
    scenario,
    model: provider.models.embeddings,
    baselineNotesPerSecond,
    notesAtStart,
    notesAtEnd: store.live().length,
    writes,
    finished,
    finishSeconds,
    convergeSeconds,
    scanned,
    total,
    textsEmbeddedDuring: counts.texts - embeddedBefore,
    writeLagMs,
  };
  // A rebuild still running is left behind: this process ends here.
  if (finished) {
    await consumer.stop();
    await bus.close();
    await provider.close();
    if (databaseUrl) await knex.raw('drop schema if exists ?? cascade', [schema]);
    await db.close();
  }
  rmSync(dataDir, { recursive: true, force: true });
  return figures;
};

const runInChild = (scenario: Scenario): Figures => {
  const out = execFileSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url)],
    {
      env: { ...process.env, BENCH_SCENARIO: scenario },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return JSON.parse(out) as Figures;
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

const main = async () => {
  const only = process.env.BENCH_SCENARIO as Scenario | undefined;
  if (only) {
    process.stdout.write(JSON.stringify(await run(only)));
    process.exit(0);
  }
  console.log(
    `${noteCount} notes of ${userCount} users, ${writesPerSecond} writes/s during the rebuild, ` +
      `${providerKind === 'use' ? 'sentence encoder' : 'hashed vectors'}` +
      `${embedRate > 0 ? ` capped at ${embedRate} texts/s` : ''}, ` +
      `${databaseUrl ? 'Postgres' : 'PGlite'}; timeout ${timeoutS} s`,
  );
  const runs = scenarios.map(runInChild);
  const line = (label: string, cells: string[]) =>
    console.log(`${label.padEnd(40)}${cells.map((cell) => cell.padStart(22)).join('')}`);
  console.log('');
  line('', [...runs.map((f) => `${f.scenario} index`)]);
  line(
    'baseline: indexing alone, notes/s',
    runs.map((f) => f.baselineNotesPerSecond.toFixed(1)),
  );
  line(
    'notes at start / at end',
    runs.map((f) => `${f.notesAtStart} / ${f.notesAtEnd}`),
  );
  line(
    'rebuild throughput, notes scanned/s',
    runs.map((f) => (f.scanned / f.finishSeconds).toFixed(1)),
  );
  line(
    'rebuild finished after',
    runs.map((f) =>
      f.finished
        ? `${f.finishSeconds.toFixed(1)} s`
        : `not in ${timeoutS} s (${f.scanned}/${f.total})`,
    ),
  );
  line(
    'converged after',
    runs.map((f) => (f.convergeSeconds === null ? 'never' : `${f.convergeSeconds.toFixed(1)} s`)),
  );
  line(
    'texts embedded meanwhile',
    runs.map((f) => String(f.textsEmbeddedDuring)),
  );
  line(
    'a write reaching the index, p50 / p95',
    runs.map(
      (f) =>
        `${(percentile(f.writeLagMs, 50) / 1000).toFixed(1)} / ${(percentile(f.writeLagMs, 95) / 1000).toFixed(1)} s`,
    ),
  );
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
