/**
 * The AI index benchmark, with the local provider: indexes 10,000 notes of one user as the
 * event consumer does (batches of 16: chunk, tokenize, embed, write), then searches them as
 * knowledge chat does (hybrid BM25 + vectors over the user's in-memory index).
 *
 *   npm run bench:ai                                   # PGlite, the embedded default
 *   BENCH_DATABASE_URL=postgres://... npm run bench:ai # real Postgres (schema ai_bench)
 *
 * BENCH_NOTES sets the number of notes (10000), BENCH_QUERIES the searches (300).
 * Figures, not assertions. Baselines from the same run: writing the same notes as plain rows
 * (no chunking or embedding) for indexing; a Postgres ILIKE over the chunk texts for search.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '@noted/db';
import { createLogger } from '@noted/kit';
import { createIndexer, type NoteForIndex } from '../../services/ai/src/index/indexer.js';
import { indexRepository } from '../../services/ai/src/index/repository.js';
import { tokenize } from '../../services/ai/src/local/text.js';
import { aiMigrations } from '../../services/ai/src/migrations.js';
import { createLocalProvider } from '../../services/ai/src/providers/local.js';
import { createIndexCache } from '../../services/ai/src/retrieval/cache.js';
import { rankChunks } from '../../services/ai/src/retrieval/hybrid.js';
import { corpusNotes, corpusQuestions } from '../../services/ai/src/test/retrieval-corpus.js';

const noteCount = Number(process.env.BENCH_NOTES ?? 10_000);
const queryCount = Number(process.env.BENCH_QUERIES ?? 300);
const databaseUrl = process.env.BENCH_DATABASE_URL;
const BATCH = 16;

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

const rssAtStart = process.memoryUsage().rss;
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 20);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

const main = async () => {
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
  // The hashed vectors: this measures the index and the database; the model has its own bench.
  const provider = createLocalProvider({ kind: 'hashed' });
  // Fresh notes leave no tombstone to read again from the notes service.
  const indexer = createIndexer({ knex, provider, notes: { many: async () => [] } });
  const userId = randomUUID();
  const notes = makeNotes(userId);
  const words = notes.reduce((sum, note) => sum + note.body.split(/\s+/).length, 0);
  console.log(
    `${noteCount} notes (${Math.round(words / noteCount)} words each on average), ` +
      `${databaseUrl ? 'Postgres' : 'PGlite (embedded)'}, local provider`,
  );

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

  const rssBefore = process.memoryUsage().rss;
  peakRss = rssBefore;
  const indexStart = performance.now();
  for (let start = 0; start < notes.length; start += BATCH) {
    await indexer.index(notes.slice(start, start + BATCH));
  }
  const indexSeconds = (performance.now() - indexStart) / 1000;
  const indexPeak = peakRss;
  const [counted] = await knex('chunks').count<{ count: string }[]>({ count: '*' });
  const chunkCount = Number(counted?.count ?? 0);

  const cache = createIndexCache({ knex, maxBytes: 512 * 1024 * 1024, model: indexer.model });
  peakRss = process.memoryUsage().rss;
  const loadStart = performance.now();
  const index = await cache.get(userId);
  const loadMs = performance.now() - loadStart;

  const questions = Array.from({ length: queryCount }, (_, n) =>
    n % 2 === 0 ? pick(corpusQuestions).question : tokenize(pick(paragraphs)).slice(0, 3).join(' '),
  );
  const searchMs: number[] = [];
  for (const question of questions) {
    const started = performance.now();
    const current = await cache.get(userId);
    const { vectors } = await provider.embed([question], { userId, purpose: 'bench' });
    const hits = rankChunks(
      current,
      { tokens: tokenize(question), vector: vectors[0] },
      'hybrid',
      8,
    );
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
    const current = await cache.get(userId);
    const { vectors } = await provider.embed(['what changed'], { userId, purpose: 'bench' });
    rankChunks(current, { tokens: tokenize('what changed'), vector: vectors[0] }, 'hybrid', 8);
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

  const rate = noteCount / indexSeconds;
  const plainRate = noteCount / plainSeconds;
  console.log('');
  console.log('indexing');
  console.log(`  plain rows (baseline)   ${plainRate.toFixed(0).padStart(6)} notes/s`);
  console.log(
    `  AI index                ${rate.toFixed(0).padStart(6)} notes/s  (${(chunkCount / indexSeconds).toFixed(0)} chunks/s; ${(rate / plainRate).toFixed(2)} of the baseline)`,
  );
  console.log(
    `  peak RSS while indexing ${mb(indexPeak)} (process start ${mb(rssAtStart)}; ` +
      `${mb(rssBefore)} before indexing, with the database${databaseUrl ? ' client' : ' (PGlite)'} and the notes)`,
  );
  console.log('');
  console.log(`search over ${chunkCount} chunks (${queryCount} queries, one user)`);
  console.log(`  index load (cold)       ${loadMs.toFixed(0)} ms, about ${mb(index.size)} held`);
  console.log(
    `  hybrid, warm            p50 ${percentile(searchMs, 50).toFixed(1)} ms  p95 ${percentile(searchMs, 95).toFixed(1)} ms`,
  );
  console.log(
    `  hybrid, after a change  p50 ${percentile(afterChangeMs, 50).toFixed(1)} ms  p95 ${percentile(afterChangeMs, 95).toFixed(1)} ms  (the index catches up on the changed note)`,
  );
  console.log(
    `  ILIKE (baseline)        p50 ${percentile(baselineMs, 50).toFixed(1)} ms  p95 ${percentile(baselineMs, 95).toFixed(1)} ms  (hybrid p95 ${(percentile(searchMs, 95) / percentile(baselineMs, 95)).toFixed(2)}x)`,
  );
  console.log(
    `  peak RSS overall        ${mb(Math.max(peakRss, indexPeak))}; maxRSS ${mb(process.resourceUsage().maxRSS * 1024)}`,
  );

  if (databaseUrl) await knex.raw('drop schema if exists ?? cascade', [schema]);
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
};

main().catch((error: unknown) => {
  clearInterval(sampler);
  console.error(error);
  process.exit(1);
});
