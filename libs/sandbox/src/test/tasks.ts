/** Tasks the sandbox's tests run in its processes. */
import { AppError } from '@noted/api';

export const echo = (input: unknown) => input;

export const pid = () => process.pid;

export const refuse = (message: string) => {
  throw new AppError('VALIDATION_FAILED', message, { where: 'task' });
};

/** Holds `mb` of buffers outside the JS heap, as a decoder inflating a stream does. */
export const holdBuffers = async (mb: number) => {
  const held: Buffer[] = [];
  for (let at = 0; at < mb; at += 8) {
    held.push(Buffer.alloc(8 * 1024 * 1024, 1));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return held.length;
};

/** Fills the JS heap with `mb` of small objects. */
export const fillHeap = (mb: number) => {
  const held: number[][] = [];
  for (let at = 0; at < mb * 16; at += 1)
    held.push(Array.from({ length: 8_000 }, (_, i) => i + at));
  return held.length;
};

/** Never returns, and never yields: only killing the process ends it. */
export const spin = () => {
  for (;;) {
    // A parser stuck in a pathological input does the same.
  }
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(() => resolve(ms), ms));

export const exit = (code: number) => process.exit(code);

/** Reports each step, then blocks on the last without yielding. */
export const steps = (count: number, tools: { progress(value: unknown): void }) => {
  for (let step = 1; step <= count; step += 1) tools.progress(step);
  for (;;) {
    // Stuck at the last step: only the caller's abort ends it.
  }
};
