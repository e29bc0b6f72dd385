import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from './logger.js';
import { startPeriodic } from './periodic.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('startPeriodic', () => {
  const logger = createLogger({ level: 'silent' });

  it('runs after the first delay, then each interval after a run ends, one at a time', async () => {
    vi.useFakeTimers();
    const starts: number[] = [];
    let finish: () => void = () => undefined;
    const worker = startPeriodic({
      name: 'test',
      intervalMs: 1000,
      firstDelayMs: 10,
      logger,
      run: () => {
        starts.push(Date.now());
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      },
    });
    const t0 = Date.now();
    await vi.advanceTimersByTimeAsync(10);
    expect(starts).toEqual([t0 + 10]);
    // The run lasts 5 s: no second run starts meanwhile.
    await vi.advanceTimersByTimeAsync(5000);
    expect(starts).toHaveLength(1);
    finish();
    await vi.advanceTimersByTimeAsync(1000);
    expect(starts).toEqual([t0 + 10, t0 + 5010 + 1000]);
    finish();
    await worker.stop();
  });

  it('goes on after a failing run, and stop waits for the run under way', async () => {
    vi.useFakeTimers();
    let runs = 0;
    let finished = false;
    const worker = startPeriodic({
      name: 'test',
      intervalMs: 100,
      logger,
      run: async () => {
        runs += 1;
        if (runs === 1) throw new Error('boom');
        await new Promise((resolve) => setTimeout(resolve, 50));
        finished = true;
      },
    });
    await vi.advanceTimersByTimeAsync(200);
    expect(runs).toBe(2);
    const stopping = worker.stop();
    await vi.advanceTimersByTimeAsync(50);
    await stopping;
    expect(finished).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(2);
  });
});
