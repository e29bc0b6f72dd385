/**
 * The AI index benchmark, with the local provider as `npm start` runs it: the sentence encoder
 * and e5 (the default) in their worker threads, against the sentence encoder alone and the
 * hashed vectors (no model) in the same run. e5 embeds a sample of the chunks after indexing,
 * for its rate; the rest get copies of the sample's vectors, so that search ranks as many.
 * Indexes 10,000 notes of one user as the event consumer does (batches of 16: chunk, tokenize,
 * embed, write), then searches them as knowledge chat does (embed the question, hybrid BM25 +
 * vectors over the user's in-memory index, read the passages back).
 *
 *   npm run bench:ai                                   # PGlite, the embedded default
 *   BENCH_DATABASE_URL=postgres://... npm run bench:ai # real Postgres (schema ai_bench_*)
 *
 * BENCH_NOTES sets the number of notes (10000), BENCH_QUERIES the searches (300),
 * BENCH_THREADS the encoder's threads (the service's default). Figures, not assertions.
 * Baselines from the same run: the hashed vectors; writing the same notes as plain rows (no
 * chunking or embedding) for indexing; a Postgres ILIKE over the chunk texts for search.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '@noted/db';
import { createLogger } from '@noted/kit';
import { DEFAULT_EMBEDDING_THREADS } from '../../services/ai/src/config.js';
import { createIndexer, type NoteForIndex } from '../../services/ai/src/index/indexer.js';
import { indexRepository } from '../../services/ai/src/index/repository.js';
import { tokenize } from '../../services/ai/src/local/text.js';
import { aiMigrations } from '../../services/ai/src/migrations.js';
import { DEFAULT_USE_MODEL_DIR } from '../../services/ai/src/local/use/model-dir.js';
import { createLocalProvider } from '../../services/ai/src/providers/local.js';
import type { AiProvider } from '../../services/ai/src/providers/port.js';
import type { LocalEmbeddingsSettings } from '../../services/ai/src/config.js';
import { createIndexCache } from '../../services/ai/src/retrieval/cache.js';
import { fusedModel, rankChunks } from '../../services/ai/src/retrieval/hybrid.js';
import { DEFAULT_E5_MODEL_DIR } from '../../services/ai/src/local/e5/model-dir.js';
import { corpusNotes, corpusQuestions } from '../../services/ai/src/test/retrieval-corpus.js';
import { treeRssKb } from './proc.js';

const noteCount = Number(process.env.BENCH_NOTES ?? 10_000);
const queryCount = Number(process.env.BENCH_QUERIES ?? 300);
const databaseUrl = process.env.BENCH_DATABASE_URL;
const threads = Number(process.env.BENCH_THREADS ?? DEFAULT_EMBEDDING_THREADS);
const BATCH = 16;
/** Chunks e5 embeds for its rate; the others get copies of their vectors. */
const RETRIEVAL_SAMPLE = 128;

/** A small deterministic generator, so every run indexes the same notes. */
const random = (() => {
  let seed = 42;
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
})();
const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;

const paragraphs = corpusNotes.flatMap((note) =>
  note.body.split(/\n\s*\n/).filter((part) => part.trim().length > 40),
);

/** Notes made of the corpus's paragraphs, mixed: realistic words and lengths, all distinct. */
const makeNotes = (userId: string): NoteForIndex[] =>
  Array.from({ length: noteCount }, (_, n) => {
    const source = pick(corpusNotes);
    const body = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(paragraphs)).join(
      '\n\n',
    );
    const at = new Date(Date.UTC(2025, 0, 1) + n * 60_000);
    return {
      id: randomUUID(),
      userId,
      title: `${source.title} ${n}`,
      body,
      tags: source.tags,
      createdAt: at,
      updatedAt: at,
    };
  });

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
/** This process's RSS and its children's: the local model runs in a child process. */
const rss = () => treeRssKb(process.pid) * 1024;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

interface Figures {
  model: string;
  /** e5's rate in the background, chunks a second, when it runs. */
  retrievalChunksPerSecond: number | undefined;
  words: number;
  plainSeconds: number;
  indexSeconds: number;
  chunkCount: number;
  /** RSS with the database open and the notes made, before the first embed. */
  rssIdle: number;
  /** RSS once a first query was embedded (the model loaded, if there is one). */
  rssLoaded: number;
  rssPeakIndexing: number;
  rssPeak: number;
  loadMs: number;
  indexBytes: number;
  searchMs: number[];
  afterChangeMs: number[];
  baselineMs: number[];
}

/** One provider's run, in a process of its own so its memory is its own. */
const run = async (settings: LocalEmbeddingsSettings): Promise<Figures> => {
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rss());
  }, 50);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'noted-bench-ai-'));
  const logger = createLogger({ level: 'silent' });
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
  const provider: AiProvider = createLocalProvider(settings);
  // Fresh notes leave no tombstone to read again from the notes service.
  const indexer = createIndexer({ knex, provider, notes: { many: async () => [] } });
  const userId = randomUUID();
  const notes = makeNotes(userId);
  const words = notes.reduce((sum, note) => sum + note.body.split(/\s+/).length, 0);

  // Baseline: the same notes written as plain rows, in the same batches.
  await knex.schema.createTable('bench_plain', (t) => {
    t.uuid('id').primary();
    t.uuid('user_id');
    t.text('title');
    t.text('body');
  });
  const plainStart = performance.now();
  for (let start = 0; start < notes.length; start += BATCH) {
    await knex('bench_plain').insert(
      notes
        .slice(start, start + BATCH)
        .map((note) => ({ id: note.id, user_id: userId, title: note.title, body: note.body })),
    );
  }
  const plainSeconds = (performance.now() - plainStart) / 1000;

  gc();
  const rssIdle = rss();
  await provider.embed(['warming up'], { userId, purpose: 'bench' });
  if (provider.models.retrieval) {
    await provider.embedForRetrieval(['warming up'], 'query', { userId, purpose: 'bench' });
  }
  gc();
  const rssLoaded = rss();
  peakRss = rssLoaded;
  const indexStart = performance.now();
  for (let start = 0; start < notes.length; start += BATCH) {
    await indexer.index(notes.slice(start, start + BATCH));
  }
  const indexSeconds = (performance.now() - indexStart) / 1000;
  const rssPeakIndexing = peakRss;
  const [counted] = await knex('chunks').count<{ count: string }[]>({ count: '*' });
  const chunkCount = Number(counted?.count ?? 0);

  // e5 in the background, as the repair loop runs it: a sample's rate, then the rest of the
  // chunks given copies of the sample's vectors (ranking costs the same whatever the values:
  // embedding all 18,000 chunks would take e5 an hour and a half on one core).
  let retrievalChunksPerSecond: number | undefined;
  const retrievalModel = provider.models.retrieval;
  if (retrievalModel) {
    const sampleStart = performance.now();
    const sampled = await indexer.fillRetrievalVectors({ limit: RETRIEVAL_SAMPLE });
    retrievalChunksPerSecond = sampled / ((performance.now() - sampleStart) / 1000);
    const vectors = (
      await knex('chunks').whereNotNull('retrieval_embedding').select('retrieval_embedding')
    ).map((row: { retrieval_embedding: Buffer }) => row.retrieval_embedding);
    const rest = await knex('chunks')
      .whereNull('retrieval_embedding')
      .select<{ note_id: string; chunk_index: number }[]>('note_id', 'chunk_index');
    for (const [at, chunk] of rest.entries()) {
      await knex('chunks')
        .where(chunk)
        .update({
          retrieval_model: retrievalModel,
          retrieval_embedding: vectors[at % vectors.length],
        });
    }
  }

  const cache = createIndexCache({
    knex,
    maxBytes: 512 * 1024 * 1024,
    models: () => provider.models,
  });
  const loadStart = performance.now();
  const index = await cache.get(userId);
  const loadMs = performance.now() - loadStart;

  /**
   * The user's index and a query's vectors, as search takes them (`queryOf`, `findNotes`): the
   * index looked up and both models' vectors embedded at once, and with e5, the first model's
   * scan of the index done while e5 embeds.
   */
  const indexAndQuery = async (text: string) => {
    const loading = cache.get(userId);
    const embedded = provider
      .embed([text], { userId, purpose: 'bench' })
      .then(({ vectors }) => vectors[0]);
    const [current, vector, retrievalVector, vectorScores] = await Promise.all([
      loading,
      embedded,
      retrievalModel
        ? provider
            .embedForRetrieval([text], 'query', { userId, purpose: 'bench' })
            .then(({ vectors }) => vectors[0])
        : undefined,
      retrievalModel
        ? Promise.all([loading, embedded]).then(([loaded, first]) =>
            first ? loaded.vectorScores(first) : undefined,
          )
        : undefined,
    ]);
    return { current, query: { vector, retrievalVector, vectorScores } };
  };
  const questions = Array.from({ length: queryCount }, (_, n) =>
    n % 2 === 0 ? pick(corpusQuestions).question : tokenize(pick(paragraphs)).slice(0, 3).join(' '),
  );
  const searchMs: number[] = [];
  for (const question of questions) {
    const started = performance.now();
    const { current, query } = await indexAndQuery(question);
    const hits = rankChunks(current, { tokens: tokenize(question), ...query }, 'hybrid', 8);
    await indexRepository.chunkTexts(
      knex,
      userId,
      hits.map((hit) => ({ noteId: hit.noteId, index: hit.index })),
    );
    searchMs.push(performance.now() - started);
  }
  // Search right after a note changed: the cached index catches up on that note only.
  const afterChangeMs: number[] = [];
  for (let n = 0; n < 50; n += 1) {
    const note = notes[n] as NoteForIndex;
    await indexer.index([
      { ...note, body: `${note.body}\n\nEdited ${n}.`, updatedAt: new Date(Date.now() + n) },
    ]);
    const started = performance.now();
    const { current, query } = await indexAndQuery('what changed');
    rankChunks(current, { tokens: tokenize('what changed'), ...query }, 'hybrid', 8);
    afterChangeMs.push(performance.now() - started);
  }
  const baselineMs: number[] = [];
  for (const question of questions) {
    const word = tokenize(question)[0] ?? 'the';
    const started = performance.now();
    await knex('chunks')
      .where({ user_id: userId })
      .andWhere('text', 'ilike', `%${word}%`)
      .limit(8)
      .select('note_id', 'text');
    baselineMs.push(performance.now() - started);
  }
  clearInterval(sampler);
  const figures: Figures = {
    model: retrievalModel
      ? fusedModel(provider.models.embeddings, retrievalModel)
      : provider.models.embeddings,
    retrievalChunksPerSecond,
    words,
    plainSeconds,
    indexSeconds,
    chunkCount,
    rssIdle,
    rssLoaded,
    rssPeakIndexing,
    rssPeak: peakRss,
    loadMs,
    indexBytes: index.size,
    searchMs,
    afterChangeMs,
    baselineMs,
  };
  await provider.close();
  if (databaseUrl) await knex.raw('drop schema if exists ?? cascade', [schema]);
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
  return figures;
};

const runInChild = (kind: 'use+e5' | 'use' | 'hashed'): Figures => {
  const out = execFileSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url)],
    {
      env: { ...process.env, BENCH_RUN: kind },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return JSON.parse(out) as Figures;
};

const main = async () => {
  const only = process.env.BENCH_RUN;
  if (only) {
    const figures = await run(
      only === 'hashed'
        ? { kind: 'hashed' }
        : {
            kind: 'use',
            modelDir: DEFAULT_USE_MODEL_DIR,
            threads,
            ...(only === 'use+e5' ? { e5ModelDir: DEFAULT_E5_MODEL_DIR } : {}),
          },
    );
    process.stdout.write(JSON.stringify(figures));
    return;
  }
  console.log(
    `${noteCount} notes of one user, ${databaseUrl ? 'Postgres' : 'PGlite (embedded)'}, ` +
      `local provider; each model in a process of its own (node ${process.execArgv.filter((arg) => arg.startsWith('--') && !arg.startsWith('--import') && !arg.startsWith('--conditions')).join(' ')})`,
  );
  const runs = [runInChild('hashed'), runInChild('use'), runInChild('use+e5')];
  const [first] = runs as [Figures];
  console.log(
    `${Math.round(first.words / noteCount)} words a note on average, ${first.chunkCount} chunks; ` +
      `encoder threads: ${threads}`,
  );
  const columns = runs.map((figures) => figures.model);
  const line = (label: string, cells: string[]) =>
    console.log(`${label.padEnd(34)}${cells.map((cell) => cell.padStart(24)).join('')}`);
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  console.log('');
  line('', columns);
  line(
    'plain rows (baseline), notes/s',
    runs.map((f) => (noteCount / f.plainSeconds).toFixed(0)),
  );
  line(
    'indexing, notes/s',
    runs.map((f) => (noteCount / f.indexSeconds).toFixed(0)),
  );
  line(
    'indexing, chunks/s',
    runs.map((f) => (f.chunkCount / f.indexSeconds).toFixed(0)),
  );
  line(
    `e5 after indexing, chunks/s (${RETRIEVAL_SAMPLE})`,
    runs.map((f) => f.retrievalChunksPerSecond?.toFixed(1) ?? '-'),
  );
  line(
    `indexing ${noteCount} notes`,
    runs.map((f) => `${f.indexSeconds.toFixed(0)} s`),
  );
  line(
    'search p50 (embed + rank + read)',
    runs.map((f) => ms(percentile(f.searchMs, 50))),
  );
  line(
    'search p95',
    runs.map((f) => ms(percentile(f.searchMs, 95))),
  );
  line(
    'search after a change, p50',
    runs.map((f) => ms(percentile(f.afterChangeMs, 50))),
  );
  line(
    'search after a change, p95',
    runs.map((f) => ms(percentile(f.afterChangeMs, 95))),
  );
  line(
    'ILIKE (baseline), p95',
    runs.map((f) => ms(percentile(f.baselineMs, 95))),
  );
  line(
    'index load (cold)',
    runs.map((f) => `${f.loadMs.toFixed(0)} ms, ${mb(f.indexBytes)}`),
  );
  line(
    'RSS idle (model not loaded)',
    runs.map((f) => mb(f.rssIdle)),
  );
  line(
    'RSS, model loaded',
    runs.map((f) => mb(f.rssLoaded)),
  );
  line(
    'RSS, peak while indexing',
    runs.map((f) => mb(f.rssPeakIndexing)),
  );
  line(
    'RSS, peak overall',
    runs.map((f) => mb(f.rssPeak)),
  );
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
