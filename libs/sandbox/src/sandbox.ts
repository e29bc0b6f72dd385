import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AppError, errorCodes, type ErrorCode } from '@noted/api';
import { sandboxMetrics, type TaskOutcome } from './metrics.js';
import type { HostReply, HostRequest } from './protocol.js';

/** Why a task ended without an answer: each is the input's doing, or the machine's. */
export type SandboxFailure = 'timeout' | 'memory' | 'crashed';

/** A task that its process could not finish: it ran past its time or memory, or died. */
export class SandboxError extends Error {
  constructor(
    readonly reason: SandboxFailure | 'closed',
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'SandboxError';
  }
}

/** What a deployment sets for its services' sandboxes: each process's memory (NOTED_SANDBOX_MEMORY_MB). */
export interface SandboxSettings {
  memoryMb: number;
}

export const DEFAULT_SANDBOX: SandboxSettings = { memoryMb: 320 };

export interface SandboxOptions {
  /** Names the sandbox in metrics and messages (`notes-images`, `ai-capture`, `export`). */
  name: string;
  /** Processes at most, each running one task at a time. */
  processes: number;
  /**
   * A process's resident memory, everything counted (JS heap, buffers, native libraries): one
   * that passes it is killed at once and its task fails with `memory`.
   */
  memoryMb: number;
  /** Its V8 old generation; by default what the resident cap leaves after about 64 MB. */
  heapMb?: number;
  /** An idle process ends after this, giving its memory back (30 s unless said). */
  idleMs?: number;
  /** A process left holding more than this after a task is ended (3/4 of the cap unless said). */
  keepMb?: number;
  /** Tasks waiting for a process; one more is refused at once with BUSY (8 a process unless said). */
  maxQueue?: number;
}

export interface SandboxTask<I> {
  /** The module holding the task, as a file URL (see `taskModule`). */
  module: string;
  /** Its export, called with `input` (structured-cloned): returns the answer or throws. */
  fn: string;
  input: I;
  /** From the moment it begins in its process (its module loaded); past it the process is killed. */
  timeoutMs: number;
  /**
   * The longest wait for a process: past it, BUSY (503 with Retry-After). Waiting work that a
   * person is not waiting on (a queued capture) can leave it unset.
   */
  maxWaitMs?: number;
  signal?: AbortSignal;
  /** The task's name in metrics (a fixed set per caller); `fn` unless said. */
  label?: string;
  /** Hears what the task reports with `progress` (its second argument, TaskTools). */
  onProgress?: (value: unknown) => void;
}

export interface Sandbox {
  /**
   * Runs a task in one of the sandbox's processes. Resolves with what the task returned;
   * rejects with what it threw (an AppError of the same code when it threw one), a
   * SandboxError when its process could not finish it, AppError BUSY when no process is free
   * soon enough, or the caller's abort reason.
   */
  run<R, I = unknown>(task: SandboxTask<I>): Promise<R>;
  /** Processes running, those busy, and tasks waiting. */
  stats(): { processes: number; busy: number; queued: number; rssBytes: number };
  /** Refuses waiting and new tasks, lets running ones finish for `graceMs` (5 s), then kills. */
  close(graceMs?: number): Promise<void>;
}

/**
 * The module `name` (say `pdf.task`) next to the module at `moduleUrl` (its `import.meta.url`),
 * with that module's extension: `.ts` from source (vitest, tsx), `.js` from dist.
 */
export const taskModule = (moduleUrl: string, name: string): string =>
  new URL(`./${name}${extname(fileURLToPath(moduleUrl))}`, moduleUrl).href;

const HOST = new URL(`./host${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
const MB = 1024 * 1024;
/** How often a busy process's memory is read: a decoder inflating at 1 GB/s passes a cap by 25 MB at most. */
const WATCH_MS = 25;
/** Loading a task's module (the first time in a process: compiling, reading its libraries). */
const LOAD_TIMEOUT_MS = 60_000;
/** Node's flags that set memory or compilers for the program, not for its sandboxes. */
const PARENT_ONLY_FLAG =
  /^--(max-old-space-size|max-semi-space-size|liftoff-only|inspect|inspect-brk)(=|$)/;

/**
 * The child's node options: the parent's, without its memory and compiler settings, with the
 * sandbox's heap; from source, tsx's loader and the workspace's source condition, so task
 * modules can import workspace packages as they are.
 */
const childExecArgv = (heapMb: number): string[] => {
  const inherited: string[] = [];
  for (let at = 0; at < process.execArgv.length; at += 1) {
    const arg = process.execArgv[at]!;
    if (!PARENT_ONLY_FLAG.test(arg)) inherited.push(arg);
    else if (!arg.includes('=') && /^\d+$/.test(process.execArgv[at + 1] ?? '')) at += 1;
  }
  const args = [...inherited, `--max-old-space-size=${heapMb}`, '--max-semi-space-size=2'];
  if (extname(fileURLToPath(HOST)) === '.ts') {
    if (!inherited.some((arg) => /\btsx\b/.test(arg))) {
      args.push('--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href);
    }
    if (!inherited.some((arg) => arg.includes('@noted/source'))) {
      args.push('--conditions=@noted/source');
    }
  }
  return args;
};

/** A process's resident set from /proc, or undefined where there is none (not Linux). */
export const residentBytes = (pid: number): number | undefined => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
};

interface Running {
  request: HostRequest;
  label: string;
  onProgress: ((value: unknown) => void) | undefined;
  timeoutMs: number;
  started: number;
  peak: number;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
  cleanup: () => void;
}

interface Worker {
  child: ChildProcess;
  running?: Running;
  idle?: NodeJS.Timeout;
  /** Why the sandbox killed it, when it did. */
  killedFor?: SandboxFailure | 'aborted';
  stderr: string;
  exited: Promise<void>;
}

interface Waiting {
  task: SandboxTask<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  timer?: NodeJS.Timeout;
  onAbort?: () => void;
}

const asAppError = (error: { message: string; code?: string; details?: unknown }): Error =>
  error.code !== undefined && error.code in errorCodes
    ? new AppError(error.code as ErrorCode, error.message, error.details)
    : new Error(error.message);

const live = new Set<{ name: string; stats: Sandbox['stats'] }>();
sandboxMetrics.observe(() => [...live].map(({ name, stats }) => ({ name, ...stats() })));

/**
 * Child processes for work on untrusted input (archives, documents, images, Markdown): a task
 * that runs past its time or its process's memory cap, or crashes its process, fails alone with
 * a SandboxError; the process is killed, its memory all given back, and the next task gets a
 * fresh one. Memory is capped for real: V8's heap by its flag, and everything else by reading
 * the process's resident set while it works (worker threads share the program's memory, so no
 * limit of theirs bounds what a decoder allocates outside the JS heap).
 */
export const createSandbox = (options: SandboxOptions): Sandbox => {
  const size = Math.max(1, Math.floor(options.processes));
  const capBytes = options.memoryMb * MB;
  const heapMb = options.heapMb ?? Math.max(32, options.memoryMb - 64);
  const keepBytes = (options.keepMb ?? options.memoryMb * 0.75) * MB;
  const idleMs = options.idleMs ?? 30_000;
  const maxQueue = options.maxQueue ?? size * 8;
  const execArgv = childExecArgv(heapMb);
  const workers = new Set<Worker>();
  const queue: Waiting[] = [];
  let nextId = 0;
  let closed = false;
  /** Seconds a task takes, smoothed: what Retry-After is estimated from. */
  let typicalSeconds = 1;
  const metrics = sandboxMetrics.for(options.name);

  const busy = () => {
    const seconds = Math.ceil(((queue.length + 1) * typicalSeconds) / size);
    return new AppError(
      'BUSY',
      'The server is busy with other work like this: try again in a moment',
      { retryAfterSeconds: Math.min(60, Math.max(1, seconds)) },
    );
  };

  const end = (worker: Worker) => {
    clearTimeout(worker.idle);
    workers.delete(worker);
    if (worker.child.connected) worker.child.disconnect();
  };

  const kill = (worker: Worker, reason: SandboxFailure | 'aborted') => {
    worker.killedFor ??= reason;
    worker.child.kill('SIGKILL');
  };

  const finish = (worker: Worker, outcome: TaskOutcome) => {
    const running = worker.running;
    if (!running) return;
    worker.running = undefined;
    clearTimeout(running.timer);
    running.cleanup();
    const seconds = (Date.now() - running.started) / 1000;
    typicalSeconds = typicalSeconds * 0.8 + seconds * 0.2;
    metrics.done(running.label, outcome, seconds, running.peak);
  };

  const spawn = (): Worker => {
    const child = fork(fileURLToPath(HOST), [], {
      execArgv,
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const worker: Worker = { child, stderr: '', exited: Promise.resolve() };
    // The last words of a process that died: a V8 heap limit says so there.
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      worker.stderr = (worker.stderr + text).slice(-4096);
    });
    worker.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        workers.delete(worker);
        clearTimeout(worker.idle);
        const running = worker.running;
        if (running) {
          const heap = /heap limit|heap out of memory/i.test(worker.stderr);
          const reason = worker.killedFor ?? (heap ? 'memory' : 'crashed');
          finish(worker, reason);
          if (reason === 'aborted') running.reject(new SandboxError('closed', 'aborted'));
          else {
            const how = signal ?? `exit code ${code}`;
            running.reject(
              new SandboxError(
                reason,
                reason === 'timeout'
                  ? `The work took longer than the ${running.timeoutMs / 1000} s it may`
                  : reason === 'memory'
                    ? `The work needed more than the ${options.memoryMb} MB it may use`
                    : `The process doing the work ended (${how})`,
                worker.stderr.trim().split('\n').slice(-3).join(' ') || undefined,
              ),
            );
          }
        }
        resolve();
        pump();
      });
    });
    child.on('error', () => {
      // A process that could not start: its exit follows and fails the task.
    });
    child.on('message', (reply: HostReply) => {
      const running = worker.running;
      if (!running || reply.id !== running.request.id) return;
      if ('progress' in reply) {
        running.onProgress?.(reply.progress);
        return;
      }
      if ('started' in reply) {
        clearTimeout(running.timer);
        running.started = Date.now();
        running.timer = setTimeout(() => kill(worker, 'timeout'), running.timeoutMs);
        return;
      }
      finish(worker, reply.ok ? 'ok' : 'error');
      if (reply.ok) running.resolve(reply.result);
      else running.reject(asAppError(reply.error));
      const rss = residentBytes(child.pid ?? 0);
      if (closed || (rss !== undefined && rss > keepBytes)) end(worker);
      else {
        worker.idle = setTimeout(() => end(worker), idleMs);
        worker.idle.unref();
      }
      pump();
    });
    workers.add(worker);
    return worker;
  };

  const start = (worker: Worker, waiting: Waiting) => {
    clearTimeout(worker.idle);
    const { task } = waiting;
    const request: HostRequest = {
      id: nextId++,
      module: task.module,
      fn: task.fn,
      input: task.input,
    };
    const watch = setInterval(() => {
      const rss = residentBytes(worker.child.pid ?? 0);
      if (rss === undefined || !worker.running) return;
      worker.running.peak = Math.max(worker.running.peak, rss);
      if (rss > capBytes) kill(worker, 'memory');
    }, WATCH_MS);
    const onAbort = () => kill(worker, 'aborted');
    task.signal?.addEventListener('abort', onAbort, { once: true });
    const running: Running = {
      request,
      label: task.label ?? task.fn,
      onProgress: task.onProgress,
      timeoutMs: task.timeoutMs,
      started: Date.now(),
      peak: 0,
      resolve: waiting.resolve,
      reject: (error) =>
        waiting.reject(task.signal?.aborted ? (task.signal.reason as unknown) : error),
      // Until the task begins, the time its module takes to load; then its own.
      timer: setTimeout(() => kill(worker, 'timeout'), LOAD_TIMEOUT_MS),
      cleanup: () => {
        clearInterval(watch);
        task.signal?.removeEventListener('abort', onAbort);
      },
    };
    worker.running = running;
    try {
      worker.child.send(request);
    } catch (error) {
      // Input the channel cannot clone (a function, say) is the caller's mistake.
      finish(worker, 'error');
      running.reject(error);
      end(worker);
    }
  };

  /** Hands waiting tasks to idle processes, starting processes up to the sandbox's size. */
  const pump = () => {
    while (queue.length > 0 && !closed) {
      let worker = [...workers].find((w) => !w.running && w.child.connected);
      if (!worker && workers.size < size) worker = spawn();
      if (!worker) return;
      const waiting = queue.shift()!;
      clearTimeout(waiting.timer);
      if (waiting.onAbort) waiting.task.signal?.removeEventListener('abort', waiting.onAbort);
      start(worker, waiting);
    }
  };

  const sandbox: Sandbox = {
    run<R, I>(task: SandboxTask<I>): Promise<R> {
      const label = task.label ?? task.fn;
      if (closed) return Promise.reject(new SandboxError('closed', `${options.name} is closed`));
      if (task.signal?.aborted) return Promise.reject(task.signal.reason);
      const hasRoom =
        [...workers].some((w) => !w.running && w.child.connected) || workers.size < size;
      if (!hasRoom && (queue.length >= maxQueue || task.maxWaitMs === 0)) {
        metrics.done(label, 'busy');
        return Promise.reject(busy());
      }
      return new Promise<R>((resolve, reject) => {
        const waiting: Waiting = {
          task: task as SandboxTask<unknown>,
          resolve: resolve as (value: unknown) => void,
          reject,
        };
        const leave = (error: unknown) => {
          const at = queue.indexOf(waiting);
          if (at < 0) return;
          queue.splice(at, 1);
          clearTimeout(waiting.timer);
          if (waiting.onAbort) task.signal?.removeEventListener('abort', waiting.onAbort);
          reject(error);
        };
        if (task.maxWaitMs !== undefined) {
          waiting.timer = setTimeout(() => {
            metrics.done(label, 'busy');
            leave(busy());
          }, task.maxWaitMs);
        }
        if (task.signal) {
          waiting.onAbort = () => leave(task.signal?.reason);
          task.signal.addEventListener('abort', waiting.onAbort, { once: true });
        }
        queue.push(waiting);
        pump();
      });
    },

    stats() {
      let rssBytes = 0;
      for (const worker of workers) rssBytes += residentBytes(worker.child.pid ?? 0) ?? 0;
      return {
        processes: workers.size,
        busy: [...workers].filter((w) => w.running).length,
        queued: queue.length,
        rssBytes,
      };
    },

    async close(graceMs = 5_000) {
      if (closed) return;
      closed = true;
      live.delete(entry);
      const error = new SandboxError('closed', `${options.name} is closed`);
      for (const waiting of queue.splice(0)) {
        clearTimeout(waiting.timer);
        waiting.reject(error);
      }
      const all = [...workers];
      for (const worker of all) if (!worker.running) end(worker);
      const grace = setTimeout(() => {
        for (const worker of all) worker.child.kill('SIGKILL');
      }, graceMs);
      await Promise.all(all.map((worker) => worker.exited));
      clearTimeout(grace);
    },
  };
  const entry = { name: options.name, stats: sandbox.stats };
  live.add(entry);
  return sandbox;
};
