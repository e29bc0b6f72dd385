import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '@noted/api';
import { createSandbox, residentBytes, SandboxError, taskModule, type Sandbox } from './sandbox.js';

const tasks = taskModule(import.meta.url, 'test/tasks');
const opened: Sandbox[] = [];
const sandbox = (options: Partial<Parameters<typeof createSandbox>[0]> = {}) => {
  const made = createSandbox({ name: 'test', processes: 1, memoryMb: 192, ...options });
  opened.push(made);
  return made;
};

afterEach(async () => {
  await Promise.all(opened.splice(0).map((made) => made.close(100)));
});

const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeDefined();
  return error;
};

describe('sandbox', () => {
  it('runs a task in another process and answers what it returned', async () => {
    const box = sandbox();
    const bytes = new Uint8Array([1, 2, 3]);
    await expect(
      box.run({ module: tasks, fn: 'echo', input: { bytes }, timeoutMs: 10_000 }),
    ).resolves.toEqual({ bytes });
    const pid = await box.run<number>({ module: tasks, fn: 'pid', input: null, timeoutMs: 10_000 });
    expect(pid).not.toBe(process.pid);
  });

  it("gives back a task's AppError as the same AppError", async () => {
    const error = await failure(
      sandbox().run({ module: tasks, fn: 'refuse', input: 'no', timeoutMs: 10_000 }),
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'no',
      details: { where: 'task' },
    });
  });

  it('kills a process whose buffers pass its memory cap, and the next task gets a fresh one', async () => {
    const box = sandbox({ memoryMb: 160 });
    const before = await box.run<number>({
      module: tasks,
      fn: 'pid',
      input: null,
      timeoutMs: 10_000,
    });
    const error = await failure(
      box.run({ module: tasks, fn: 'holdBuffers', input: 1024, timeoutMs: 30_000 }),
    );
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).reason).toBe('memory');
    expect(residentBytes(before)).toBeUndefined();
    const after = await box.run<number>({
      module: tasks,
      fn: 'pid',
      input: null,
      timeoutMs: 10_000,
    });
    expect(after).not.toBe(before);
    // This process never held the buffers.
    expect(process.memoryUsage().external).toBeLessThan(160 * 1024 * 1024);
  });

  it("kills a process whose JS heap passes the sandbox's heap limit", async () => {
    const error = await failure(
      sandbox({ memoryMb: 512, heapMb: 64 }).run({
        module: tasks,
        fn: 'fillHeap',
        input: 400,
        timeoutMs: 30_000,
      }),
    );
    expect((error as SandboxError).reason).toBe('memory');
  });

  it('kills a task that never yields at its time limit', async () => {
    const box = sandbox();
    const error = await failure(
      box.run({ module: tasks, fn: 'spin', input: null, timeoutMs: 300 }),
    );
    expect((error as SandboxError).reason).toBe('timeout');
    await expect(box.run({ module: tasks, fn: 'echo', input: 1, timeoutMs: 10_000 })).resolves.toBe(
      1,
    );
  });

  it('reports a process that died as crashed', async () => {
    const error = await failure(
      sandbox().run({ module: tasks, fn: 'exit', input: 3, timeoutMs: 10_000 }),
    );
    expect((error as SandboxError).reason).toBe('crashed');
  });

  it('refuses at once with BUSY and a Retry-After when the queue is full', async () => {
    const box = sandbox({ maxQueue: 1 });
    const first = box.run({ module: tasks, fn: 'sleep', input: 300, timeoutMs: 10_000 });
    const second = box.run({ module: tasks, fn: 'sleep', input: 1, timeoutMs: 10_000 });
    const third = await failure(
      box.run({ module: tasks, fn: 'echo', input: 1, timeoutMs: 10_000 }),
    );
    expect(third).toBeInstanceOf(AppError);
    expect(third).toMatchObject({ code: 'BUSY', status: 503 });
    expect((third as AppError).details).toMatchObject({ retryAfterSeconds: expect.any(Number) });
    await expect(first).resolves.toBe(300);
    await expect(second).resolves.toBe(1);
  });

  it('refuses with BUSY a task that waited longer than it may', async () => {
    const box = sandbox();
    const first = box.run({ module: tasks, fn: 'sleep', input: 500, timeoutMs: 10_000 });
    const waited = await failure(
      box.run({ module: tasks, fn: 'echo', input: 1, timeoutMs: 10_000, maxWaitMs: 50 }),
    );
    expect(waited).toMatchObject({ code: 'BUSY' });
    await first;
    expect(box.stats().queued).toBe(0);
  });

  it("ends a running task at the caller's abort, with the caller's reason", async () => {
    const box = sandbox();
    const controller = new AbortController();
    const running = box.run({
      module: tasks,
      fn: 'spin',
      input: null,
      timeoutMs: 30_000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('gone')), 200);
    await expect(running).rejects.toThrow('gone');
    await expect(box.run({ module: tasks, fn: 'echo', input: 2, timeoutMs: 10_000 })).resolves.toBe(
      2,
    );
  });

  it("hears a task's progress, even while the task then blocks", async () => {
    const box = sandbox();
    const controller = new AbortController();
    const heard: unknown[] = [];
    const running = box.run({
      module: tasks,
      fn: 'steps',
      input: 3,
      timeoutMs: 30_000,
      signal: controller.signal,
      onProgress: (step) => {
        heard.push(step);
        if (step === 3) controller.abort(new Error('stuck at 3'));
      },
    });
    await expect(running).rejects.toThrow('stuck at 3');
    expect(heard).toEqual([1, 2, 3]);
  });

  it('runs as many tasks at once as it has processes, and ends idle ones', async () => {
    const box = sandbox({ processes: 2, idleMs: 200 });
    const pids = await Promise.all(
      [0, 1].map(async () => {
        await box.run({ module: tasks, fn: 'sleep', input: 200, timeoutMs: 10_000 });
        return box.stats().processes;
      }),
    );
    expect(Math.max(...pids)).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(box.stats().processes).toBe(0);
  });

  it('refuses tasks once closed', async () => {
    const box = sandbox();
    await box.close();
    const error = await failure(box.run({ module: tasks, fn: 'echo', input: 1, timeoutMs: 1_000 }));
    expect((error as SandboxError).reason).toBe('closed');
  });
});
