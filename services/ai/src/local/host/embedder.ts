import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { AppError } from '@noted/api';
import { workerThread } from './threads.js';
import type { HostReply, HostRequest } from './embed.host.js';
import type { EmbedKind, EmbedModel } from './embed.worker.js';

/**
 * Texts and characters per task, per model: a search query waits behind at most one such
 * batch of an indexing run per thread, a second or so. The sentence encoder takes about 0.2 ms
 * a token (3 to 4 characters of English or one of Chinese), e5 about 2.5 ms.
 */
const BATCH_LIMITS: Record<EmbedModel, { texts: number; chars: number }> = {
  use: { texts: 32, chars: 8_000 },
  e5: { texts: 8, chars: 800 },
};
/** One batch, the model's first load (about a second) included. */
const BATCH_TIMEOUT_MS = 120_000;
/** A process that has not answered by then is ended: its own threads' time limit failed. */
const HOST_TIMEOUT_MS = BATCH_TIMEOUT_MS + 15_000;
/** An unused model gives its memory back after this; loading it again takes about a second. */
const IDLE_MS = 5 * 60_000;

export interface TextEmbedder {
  /** One unit vector per text by the sentence encoder, in order. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  /** One unit vector per text by e5, as queries or passages, in order (when it runs e5). */
  embedForRetrieval(
    texts: string[],
    kind: EmbedKind,
    signal?: AbortSignal,
  ): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/** The models a process runs: their folders, and the sentence encoder's threads (e5 has one). */
interface HostModels {
  use: { modelDir: string; threads: number };
  e5?: { modelDir: string } | undefined;
}

/**
 * `texts` in order, in batches of at most BATCH_TEXTS texts and about BATCH_CHARS, or smaller,
 * so that a few texts are shared evenly among `lanes` threads: a text goes to the batch its
 * middle falls in, so 16 chunks for two threads make two batches of about half the characters
 * each (not two just under half and a third with the rest, which leaves one thread idle).
 */
const batches = (texts: string[], lanes: number, model: EmbedModel): string[][] => {
  const total = texts.reduce((sum, text) => sum + text.length, 0);
  const maxTexts = Math.min(BATCH_LIMITS[model].texts, Math.ceil(texts.length / lanes));
  const maxChars = Math.min(BATCH_LIMITS[model].chars, Math.ceil(total / lanes));
  const all: string[][] = [];
  let batch: string[] = [];
  let chars = 0;
  for (const text of texts) {
    if (batch.length === maxTexts || (batch.length > 0 && chars + text.length / 2 > maxChars)) {
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
const failed = (cause: string) =>
  new AppError('AI_PROVIDER_FAILED', 'The local embedding model failed', { cause });

interface Host {
  run(model: EmbedModel, texts: string[], kind?: EmbedKind): Promise<Float32Array[]>;
  /** Batches sent and not answered. */
  readonly busy: number;
  /** Still able to take batches. */
  readonly alive: boolean;
  /** Ends the process once its threads are closed; resolves when it has exited. */
  end(): Promise<void>;
}

/**
 * glibc's allocator settings for the models' process, which holds its weights and activations
 * in buffers allocated outside V8's heap: one arena for all its threads, and a fixed threshold
 * above which a buffer is mapped on its own and so given back to the system when freed (the
 * default threshold grows as buffers are freed, and freed memory below it stays with the
 * process). Measured with two encoder threads and e5 loaded, after ten batches: 305 to 317 MB
 * resident with glibc's defaults, 225 to 243 MB with these.
 */
const MALLOC_ENV = { MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '131072' };

/**
 * The young generation of the process's main thread, in MB, as small as its threads' (see
 * `embed.host.ts`): that thread tokenizes, a few short-lived arrays a text, and V8's default
 * semi-spaces (16 MB each) filled up with them, 35 MB more resident.
 */
const SEMI_SPACE = '--max-semi-space-size=1';

/** The models' process (`embed.host.ts`), with this process's node options but the baseline-only one. */
const startHost = (models: HostModels): Host => {
  const { filename, execArgv = process.execArgv } = workerThread(import.meta.url, 'embed.host');
  const child = fork(
    fileURLToPath(filename),
    [
      String(BATCH_TIMEOUT_MS),
      ...['use', models.use.modelDir, String(models.use.threads)],
      ...(models.e5 ? ['e5', models.e5.modelDir, '1'] : []),
    ],
    {
      execArgv: [...execArgv.filter((arg) => arg !== '--liftoff-only'), SEMI_SPACE],
      env: { ...process.env, ...MALLOC_ENV },
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const pending = new Map<
    number,
    {
      resolve: (vectors: Float32Array[]) => void;
      reject: (error: Error) => void;
      timer: NodeJS.Timeout;
    }
  >();
  let ended: Error | undefined;
  let next = 0;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      ended ??= failed(`its process ended (${signal ?? `exit code ${code}`})`);
      for (const { reject, timer } of pending.values()) {
        clearTimeout(timer);
        reject(ended);
      }
      pending.clear();
      resolve();
    });
  });
  // A process that could not start reports here, then exits.
  child.on('error', (error) => {
    ended ??= failed(error.message);
  });
  child.on('message', (reply: HostReply) => {
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    clearTimeout(waiting.timer);
    if ('error' in reply) waiting.reject(failed(reply.error));
    else waiting.resolve(reply.vectors);
  });
  return {
    run: (model, texts, kind) =>
      new Promise((resolve, reject) => {
        if (ended) return reject(ended);
        const id = next++;
        const timer = setTimeout(() => {
          ended ??= failed('timeout');
          child.kill('SIGKILL');
        }, HOST_TIMEOUT_MS);
        pending.set(id, { resolve, reject, timer });
        child.send({ id, model, texts, ...(kind ? { kind } : {}) } satisfies HostRequest);
      }),
    get busy() {
      return pending.size;
    },
    get alive() {
      return !ended;
    },
    end: () => {
      ended ??= closedError();
      if (child.connected) child.disconnect();
      return exited;
    },
  };
};

/**
 * The local models, in a process of their own (`embed.host.ts`): the Universal Sentence
 * Encoder from `use.modelDir` on `use.threads` worker threads (one unless said), and e5 from
 * `e5.modelDir` on one more when given. The process is started and a model loaded by its first
 * embed, and ended, its memory all given back, after `idleMs` without one. Texts go in small
 * batches, at most one per thread at a time, so queries interleave with a long indexing run.
 */
export const createLocalEmbedder = (options: {
  use: { modelDir: string; threads?: number };
  e5?: { modelDir: string } | undefined;
  idleMs?: number;
}): TextEmbedder => {
  const models: HostModels = {
    use: {
      modelDir: options.use.modelDir,
      threads: Math.max(1, Math.floor(options.use.threads ?? 1)),
    },
    e5: options.e5,
  };
  const idleMs = options.idleMs ?? IDLE_MS;
  let host: Host | undefined;
  let idle: NodeJS.Timeout | undefined;
  let closed = false;

  const run = async (
    model: EmbedModel,
    texts: string[],
    kind?: EmbedKind,
  ): Promise<Float32Array[]> => {
    if (closed) throw closedError();
    clearTimeout(idle);
    if (!host?.alive) host = startHost(models);
    const current = host;
    try {
      return await current.run(model, texts, kind);
    } finally {
      if (current.busy === 0 && host === current && !closed) {
        idle = setTimeout(() => {
          if (current.busy > 0) return;
          if (host === current) host = undefined;
          void current.end();
        }, idleMs);
        idle.unref();
      }
    }
  };

  const embedWith = async (
    model: EmbedModel,
    texts: string[],
    kind: EmbedKind | undefined,
    signal?: AbortSignal,
  ) => {
    const threads = model === 'use' ? models.use.threads : 1;
    const queue = batches(texts, threads, model);
    const results: Float32Array[][] = [];
    let next = 0;
    let stop = false;
    // One lane per thread, each taking the next batch when its last is done: a long text
    // list keeps every thread busy, yet never queues more than one batch per thread ahead
    // of a query that comes meanwhile.
    const lane = async () => {
      while (next < queue.length && !stop) {
        const at = next++;
        try {
          // The caller's signal is heard between batches only: aborting a running task
          // would end its thread, and the next embed would load the model again.
          signal?.throwIfAborted();
          results[at] = await run(model, queue[at]!, kind);
        } catch (error) {
          stop = true;
          throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(threads, queue.length) }, lane));
    return results.flat();
  };

  return {
    embed: (texts, signal) => embedWith('use', texts, undefined, signal),
    embedForRetrieval: (texts, kind, signal) => {
      if (!models.e5) return Promise.reject(new Error('This embedder runs no e5 model'));
      return embedWith('e5', texts, kind, signal);
    },
    async close() {
      closed = true;
      clearTimeout(idle);
      await host?.end();
    },
  };
};
