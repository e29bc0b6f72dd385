import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { createSlots } from './slots.js';

/**
 * The worker module `name` (say `pdf.worker`) next to the module at `moduleUrl` (its
 * `import.meta.url`), as whichever it is: `name.ts` from source (vitest, tsx) or `name.js` from
 * dist. A `.ts` worker needs tsx's loader in its thread: a process started with `--import tsx`
 * passes that on (threads inherit `execArgv`); under vitest, which transforms only its own
 * module graph, the loader is added here. Hence a worker imports nothing from the workspace:
 * its packages resolve to their dist, built or not.
 */
export const workerThread = (
  moduleUrl: string,
  name: string,
): { filename: string; execArgv?: string[] } => {
  const extension = extname(fileURLToPath(moduleUrl));
  const filename = new URL(`./${name}${extension}`, moduleUrl).href;
  if (extension !== '.ts' || process.execArgv.some((arg) => /\btsx\b/.test(arg))) {
    return { filename };
  }
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { filename, execArgv: [...process.execArgv, '--import', tsx] };
};

/** Idle threads end after this, giving their memory back: captures come now and then. */
const IDLE_MS = 60_000;

export interface BoundedPool<T, R> {
  /**
   * Runs `task` once a thread is free, within `timeoutMs` from then. A caller's abort rejects
   * with its reason; closing, with `closedError`; anything else that ends the task (the time
   * limit, the heap limit, a crash) with `failed(cause)`, the cause said in words.
   */
  run(task: T, options?: { signal?: AbortSignal; transferList?: ArrayBuffer[] }): Promise<R>;
  close(): Promise<void>;
}

/**
 * A piscina pool of `threads` threads of the worker `worker` next to `moduleUrl` (see
 * `workerThread`), started with the first task and ended when idle (`idleMs`), each thread's
 * heap limited to `memoryMb`. Tasks queue in `createSlots`, so a task's time starts when a thread takes it;
 * past its time its thread is ended (and replaced), so one bad input costs a thread, not the
 * service.
 */
export const createBoundedPool = <T, R>(options: {
  moduleUrl: string;
  worker: string;
  /** The worker module's exported function. */
  name: string;
  threads: number;
  /** An idle thread ends after this; a minute unless said. */
  idleMs?: number;
  timeoutMs: number;
  memoryMb: number;
  /** The young generation's size, when V8's default (up to 48 MB a thread) is too much. */
  youngMb?: number;
  closedError: () => Error;
  failed: (cause: string) => Error;
  /** Says in words why a thread failed, when its error says more than its message. */
  describe?: (error: unknown) => string | undefined;
  /** Given to each thread (piscina's `workerData`); SharedArrayBuffers are shared, not copied. */
  workerData?: unknown;
}): BoundedPool<T, R> => {
  const size = Math.max(1, Math.floor(options.threads));
  const slots = createSlots(size);
  let pool: Piscina<T, R> | undefined;
  let closed = false;

  const startPool = () => {
    const started = new Piscina<T, R>({
      ...workerThread(options.moduleUrl, options.worker),
      name: options.name,
      minThreads: 0,
      maxThreads: size,
      idleTimeout: options.idleMs ?? IDLE_MS,
      ...(options.workerData === undefined ? {} : { workerData: options.workerData }),
      resourceLimits: {
        maxOldGenerationSizeMb: options.memoryMb,
        ...(options.youngMb ? { maxYoungGenerationSizeMb: options.youngMb } : {}),
      },
    });
    // A thread that dies with no task (rare) is reported here; unheard, it would end the process.
    started.on('error', () => {});
    return started;
  };

  const describe = (error: unknown): string => {
    const said = options.describe?.(error);
    if (said) return said;
    if ((error as { code?: unknown })?.code === 'ERR_WORKER_OUT_OF_MEMORY') return 'heap limit';
    return error instanceof Error ? error.message : String(error);
  };

  return {
    async run(task, { signal, transferList } = {}) {
      if (closed) throw options.closedError();
      const release = await slots.acquire(signal);
      try {
        if (closed) throw options.closedError();
        pool ??= startPool();
        const timeout = AbortSignal.timeout(options.timeoutMs);
        try {
          return await pool.run(task, {
            signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
            ...(transferList ? { transferList } : {}),
          });
        } catch (error) {
          if (closed) throw options.closedError();
          if (signal?.aborted) throw signal.reason;
          throw options.failed(timeout.aborted ? 'timeout' : describe(error));
        }
      } finally {
        release();
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      slots.close(options.closedError());
      await pool?.destroy();
    },
  };
};
