/**
 * The process the local embedding model runs in, started by `embedder.ts` with the parent's
 * node options but `--liftoff-only`: the program keeps WebAssembly on V8's baseline compiler
 * (PGlite's optimized code would take 58 MB), a process-wide setting, and the model's matrix
 * kernel runs twice as fast optimized. Here a pool of worker threads embeds the batches the
 * parent sends over IPC; the parent ends this process
 * when the model has been idle, and it ends itself when the parent goes. Argv: the model
 * folder, the thread count, a batch's time limit.
 */
import { createBoundedPool } from './threads.js';
import type { EmbedTask } from './embed.worker.js';

export type HostRequest = { id: number; texts: string[] };
export type HostReply = { id: number; vectors: Float32Array[] } | { id: number; error: string };

/** A thread's heap: the tokenizer's vocabulary; the weights and activations are buffers. */
const HEAP_MB = 256;
/**
 * Its young generation: what a batch allocates is mostly buffers, and V8's default let a
 * thread hold 50 MB more after a batch of long chunks.
 */
const YOUNG_MB = 4;

const [modelDir, threads, timeoutMs] = process.argv.slice(2);
if (!process.send || !modelDir)
  throw new Error('embed.host runs as a child process of embedder.ts');
const sendToParent = process.send.bind(process);
/**
 * Answers the parent, unless it is gone: it disconnects to end this process, and a batch that
 * finishes afterwards has no one to answer (a send would throw on the closed channel).
 */
const send = (reply: HostReply) => {
  if (process.connected) sendToParent(reply, undefined, undefined, () => undefined);
};

const pool = createBoundedPool<EmbedTask, Float32Array[]>({
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
});

process.on('message', ({ id, texts }: HostRequest) => {
  pool.run({ modelDir, texts }).then(
    (vectors) => send({ id, vectors } satisfies HostReply),
    (error: unknown) =>
      send({
        id,
        error: error instanceof Error ? error.message : String(error),
      } satisfies HostReply),
  );
});
process.on('disconnect', () => {
  void pool.close().finally(() => process.exit(0));
});
