/**
 * The process the local embedding models run in, started by `embedder.ts` with the parent's
 * node options but `--liftoff-only`: the program keeps WebAssembly on V8's baseline compiler
 * (PGlite's optimized code would take 58 MB), a process-wide setting, and the models' matrix
 * kernels run twice as fast optimized. Here a pool of worker threads per model embeds the
 * batches the parent sends over IPC: the sentence encoder's threads, and one thread for e5, so
 * that a query by one model never waits behind the other's batch. The parent ends this process
 * when the models have been idle, and it ends itself when the parent goes. Argv: a batch's
 * time limit, then per model its name, folder and thread count.
 */
import { mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  loadSentenceTokenizer,
  readSentenceEncoderWeights,
  sentenceEncoderWeightsPath,
} from '../use/encoder.js';
import { isTableBlock, rowsFilePath, writeRowsFile } from '../use/table.js';
import { createBoundedPool, type BoundedPool } from './threads.js';
import type { EmbedKind, EmbedModel, EmbedTask, EmbedThreadData } from './embed.worker.js';

export type HostRequest = { id: number; model: EmbedModel; texts: string[]; kind?: EmbedKind };
export type HostReply = { id: number; vectors: Float32Array[] } | { id: number; error: string };

/** A thread's heap limit: what it holds is mostly buffers (weights, activations), outside it. */
const HEAP_MB = 256;
/**
 * Its young generation: what a batch allocates is mostly buffers, and V8's default let a
 * thread hold 50 MB more after a batch of long chunks.
 */
const YOUNG_MB = 4;

const [timeoutMs, ...models] = process.argv.slice(2);
if (!process.send || models.length < 3)
  throw new Error('embed.host runs as a child process of embedder.ts');
const sendToParent = process.send.bind(process);
/**
 * Answers the parent, unless it is gone: it disconnects to end this process, and a batch that
 * finishes afterwards has no one to answer (a send would throw on the closed channel).
 */
const send = (reply: HostReply) => {
  if (process.connected) sendToParent(reply, undefined, undefined, () => undefined);
};

/** A model's pool, and how a request becomes its task. */
interface Served {
  pool: BoundedPool<EmbedTask, Float32Array[]>;
  task(texts: string[], kind: EmbedKind): EmbedTask;
}

const poolOf = (threads: string, workerData?: EmbedThreadData) =>
  createBoundedPool<EmbedTask, Float32Array[]>({
    moduleUrl: import.meta.url,
    worker: 'embed.worker',
    name: 'embedTexts',
    threads: Number(threads) || 1,
    // The parent ends the whole process when idle.
    idleMs: 2 ** 31 - 1,
    timeoutMs: Number(timeoutMs),
    memoryMb: HEAP_MB,
    youngMb: YOUNG_MB,
    closedError: () => new Error('closed'),
    failed: (cause) => new Error(cause),
    workerData,
  });

/**
 * The sentence encoder's embedding table (65 MB) as a file of rows in the system's temporary
 * folder, written once from `weights.npz`: its threads read a batch's rows from there, so the
 * table stays in the page cache rather than in this process. Undefined when the file cannot be
 * written (a full or read-only disk) or its folder is not this user's alone: the threads then
 * share the table in memory.
 */
const tableFile = (modelDir: string): string | undefined => {
  try {
    const dir = join(tmpdir(), 'noted');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // A folder another user owns or can write to could hold a table of their making.
    const { uid, mode } = statSync(dir);
    if (uid !== process.getuid?.() || (mode & 0o022) !== 0) return undefined;
    const path = rowsFilePath(sentenceEncoderWeightsPath(modelDir), dir);
    writeRowsFile(path, () => readSentenceEncoderWeights(modelDir, { only: isTableBlock }));
    return path;
  } catch {
    return undefined;
  }
};

/**
 * The sentence encoder's threads share one copy of its weights in SharedArrayBuffers (14 MB,
 * and the table when it has no file), and this thread tokenizes for them, holding the one copy
 * of the tokenizer (20 MB of heap): a text's pieces take a fraction of a millisecond next to
 * its forward pass.
 */
const serveSentenceEncoder = (modelDir: string, threads: string): Served => {
  const tokenizer = loadSentenceTokenizer(modelDir);
  const rowsFile = tableFile(modelDir);
  const weights = readSentenceEncoderWeights(modelDir, {
    shared: true,
    ...(rowsFile ? { only: (name: string) => !isTableBlock(name) } : {}),
  });
  const pool = poolOf(threads, { weights, ...(rowsFile ? { rowsFile } : {}) });
  return {
    pool,
    task: (texts) => ({ model: 'use', tokens: texts.map((text) => tokenizer.encode(text)) }),
  };
};

const serveE5 = (modelDir: string, threads: string): Served => ({
  pool: poolOf(threads),
  task: (texts, kind) => ({ model: 'e5', modelDir, texts, kind }),
});

/**
 * Each model loads with its first request, so that a model that fails to load says so in a
 * reply.
 */
const starters = new Map<string, () => Served>();
for (let at = 0; at + 2 < models.length; at += 3) {
  const [model, modelDir, threads] = models.slice(at, at + 3) as [EmbedModel, string, string];
  starters.set(model, () =>
    model === 'use' ? serveSentenceEncoder(modelDir, threads) : serveE5(modelDir, threads),
  );
}
const served = new Map<string, Served>();

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

process.on('message', ({ id, model, texts, kind = 'passage' }: HostRequest) => {
  let serving = served.get(model);
  let task: EmbedTask;
  try {
    if (!serving) {
      const start = starters.get(model);
      if (!start) throw new Error(`no ${model} model in this process`);
      serving = start();
      served.set(model, serving);
    }
    task = serving.task(texts, kind);
  } catch (error) {
    send({ id, error: errorText(error) });
    return;
  }
  serving.pool.run(task).then(
    (vectors) => send({ id, vectors } satisfies HostReply),
    (error: unknown) => send({ id, error: errorText(error) } satisfies HostReply),
  );
});
process.on('disconnect', () => {
  void Promise.all([...served.values()].map(({ pool }) => pool.close())).finally(() =>
    process.exit(0),
  );
});
