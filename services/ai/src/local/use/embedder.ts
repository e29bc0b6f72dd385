import { AppError } from '@noted/api';
import { createBoundedPool } from '../../capture/threads.js';
import type { EmbedTask } from './embed.worker.js';

/**
 * Texts and characters per task: a search query waits behind at most one such batch of an
 * indexing run (a few seconds: the model takes about 2 ms a token, 3 to 4 characters of
 * English or one of Chinese).
 */
const BATCH_TEXTS = 32;
const BATCH_CHARS = 8_000;
/** One batch, the model's first load (about a second) included. */
const BATCH_TIMEOUT_MS = 120_000;
/** The thread's heap: the tokenizer's vocabulary; the weights and activations are buffers. */
const HEAP_MB = 256;
/** An unused model gives its memory back after this; loading it again takes about a second. */
const IDLE_MS = 5 * 60_000;

export interface TextEmbedder {
  /** One unit vector per text, in order. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/** `texts` in order, in batches of at most BATCH_TEXTS texts and (but for a long one) BATCH_CHARS. */
const batches = (texts: string[]): string[][] => {
  const all: string[][] = [];
  let batch: string[] = [];
  let chars = 0;
  for (const text of texts) {
    if (batch.length === BATCH_TEXTS || (batch.length > 0 && chars + text.length > BATCH_CHARS)) {
      all.push(batch);
      batch = [];
      chars = 0;
    }
    batch.push(text);
    chars += text.length;
  }
  if (batch.length > 0) all.push(batch);
  return all;
};

const closedError = () => new Error('The local embedding model is closed');

/**
 * The Universal Sentence Encoder from `modelDir` in a pool of `threads` worker threads (one
 * unless said), started and loaded by the first embed, ended after `idleMs` without one.
 * Texts go in small batches, at most one per thread at a time, so queries interleave with a
 * long indexing run.
 */
export const createUseEmbedder = (options: {
  modelDir: string;
  threads?: number;
  idleMs?: number;
}): TextEmbedder => {
  const threads = Math.max(1, Math.floor(options.threads ?? 1));
  const pool = createBoundedPool<EmbedTask, Float32Array[]>({
    moduleUrl: import.meta.url,
    worker: 'embed.worker',
    name: 'embedTexts',
    threads,
    idleMs: options.idleMs ?? IDLE_MS,
    timeoutMs: BATCH_TIMEOUT_MS,
    memoryMb: HEAP_MB,
    closedError,
    failed: (cause) =>
      new AppError('AI_PROVIDER_FAILED', 'The local embedding model failed', { cause }),
  });
  return {
    async embed(texts, signal) {
      const queue = batches(texts);
      const results: Float32Array[][] = [];
      let next = 0;
      let failed = false;
      // One lane per thread, each taking the next batch when its last is done: a long text
      // list keeps every thread busy, yet never queues more than one batch per thread ahead
      // of a query that comes meanwhile.
      const lane = async () => {
        while (next < queue.length && !failed) {
          const at = next++;
          // The caller's signal is heard between batches only: aborting a running task would
          // end its thread, and the next embed would load the model again.
          signal?.throwIfAborted();
          try {
            results[at] = await pool.run({ modelDir: options.modelDir, texts: queue[at]! });
          } catch (error) {
            failed = true;
            throw error;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(threads, queue.length) }, lane));
      return results.flat();
    },
    close: () => pool.close(),
  };
};
