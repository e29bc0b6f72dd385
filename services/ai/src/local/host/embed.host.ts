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
import { createBoundedPool, type BoundedPool } from './threads.js';
import type { EmbedKind, EmbedModel, EmbedTask } from './embed.worker.js';

export type HostRequest = { id: number; model: EmbedModel; texts: string[]; kind?: EmbedKind };
export type HostReply = { id: number; vectors: Float32Array[] } | { id: number; error: string };

/** A thread's heap: the tokenizer's vocabulary; the weights and activations are buffers. */
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

const pools = new Map<string, { modelDir: string; pool: BoundedPool<EmbedTask, Float32Array[]> }>();
for (let at = 0; at + 2 < models.length; at += 3) {
  const [model, modelDir, threads] = models.slice(at, at + 3) as [EmbedModel, string, string];
  pools.set(model, {
    modelDir,
    pool: createBoundedPool<EmbedTask, Float32Array[]>({
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
    }),
  });
}

process.on('message', ({ id, model, texts, kind }: HostRequest) => {
  const served = pools.get(model);
  if (!served) {
    send({ id, error: `no ${model} model in this process` });
    return;
  }
  served.pool.run({ model, modelDir: served.modelDir, texts, ...(kind ? { kind } : {}) }).then(
    (vectors) => send({ id, vectors } satisfies HostReply),
    (error: unknown) =>
      send({
        id,
        error: error instanceof Error ? error.message : String(error),
      } satisfies HostReply),
  );
});
process.on('disconnect', () => {
  void Promise.all([...pools.values()].map(({ pool }) => pool.close())).finally(() =>
    process.exit(0),
  );
});
