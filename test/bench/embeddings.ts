/**
 * The local embedding model's costs: loading, a query, a batch of 32 note chunks, in its own
 * process as the service runs it and on this thread (with this process's node options, those
 * of `npm start`: WebAssembly on the baseline compiler only); and the RSS of this process and
 * its children before the model is loaded, with it loaded, and once its idle process ended.
 *
 *   npm run bench:embeddings
 *
 * Figures, not assertions. The hashed vectors (the test double) in the same run for scale.
 */
import { createLocalEmbedder } from '../../services/ai/src/local/host/embedder.js';
import { loadSentenceEncoder } from '../../services/ai/src/local/use/encoder.js';
import { DEFAULT_USE_MODEL_DIR } from '../../services/ai/src/local/use/model-dir.js';
import { hashedEmbedding } from '../../services/ai/src/local/embeddings.js';
import { chunkNote } from '../../services/ai/src/local/chunks.js';
import { corpusNotes } from '../../services/ai/src/test/retrieval-corpus.js';
import { mb, treeRssKb } from './proc.js';

const IDLE_MS = 3_000;
const QUERIES = 50;
const BATCHES = 5;
const query = 'How much did fixing the car cost?';
const chunks = corpusNotes
  .flatMap((note) => chunkNote({ title: note.title, body: note.body }).map((chunk) => chunk.text))
  .slice(0, 32);
/** This process's RSS and its children's (the model's process). */
const rss = () => mb(treeRssKb(process.pid));
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const timed = async (runs: number, run: () => unknown): Promise<number> => {
  const start = performance.now();
  for (let i = 0; i < runs; i++) await run();
  return (performance.now() - start) / runs;
};
const row = (label: string, value: number | string, unit = '') =>
  console.log(`${label.padEnd(44)} ${String(value).padStart(8)} ${unit}`);

console.log(
  `batch: ${chunks.length} chunks of the fixture corpus, ${chunks.join('').length} characters`,
);
gc();
const idleRss = rss();
row('RSS, model not loaded', idleRss, 'MB');

const embedder = createLocalEmbedder({ use: { modelDir: DEFAULT_USE_MODEL_DIR }, idleMs: IDLE_MS });
let start = performance.now();
await embedder.embed([query]);
row('own process: start, load and first query', (performance.now() - start).toFixed(0), 'ms');
row(
  'own process: per query',
  (await timed(QUERIES, () => embedder.embed([query]))).toFixed(1),
  'ms',
);
row(
  'own process: per batch of 32 chunks',
  (await timed(BATCHES, () => embedder.embed(chunks))).toFixed(0),
  'ms',
);
gc();
row('RSS, model loaded in its process', rss(), 'MB');
await sleep(IDLE_MS + 1_500);
gc();
row(`RSS, model's process ended after ${IDLE_MS / 1000} s idle`, rss(), 'MB');
await embedder.close();

start = performance.now();
const encoder = loadSentenceEncoder(DEFAULT_USE_MODEL_DIR);
row('this thread: load', (performance.now() - start).toFixed(0), 'ms');
encoder.embed([query]);
row(
  'this thread: per query',
  (await timed(QUERIES, () => encoder.embed([query]))).toFixed(1),
  'ms',
);
row(
  'this thread: per batch of 32 chunks',
  (await timed(BATCHES, () => encoder.embed(chunks))).toFixed(0),
  'ms',
);
row(
  'this thread: 32 chunks one at a time',
  (await timed(BATCHES, () => chunks.forEach((chunk) => encoder.embed([chunk])))).toFixed(0),
  'ms',
);
row(
  'hashed: per batch of 32 chunks',
  (await timed(BATCHES, () => chunks.map(hashedEmbedding))).toFixed(1),
  'ms',
);
