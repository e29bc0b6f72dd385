import type { Logger } from './logger.js';

/**
 * Runs `run` now and then: first after `firstDelayMs`, then `intervalMs` after each run ends,
 * never two at once. A failing run is logged and the next one comes as planned. The timers do
 * not keep the process alive; `stop` waits for a run under way.
 */
export const startPeriodic = (options: {
  /** Says what runs, in the log. */
  name: string;
  intervalMs: number;
  firstDelayMs?: number;
  logger: Logger;
  run: (isStopped: () => boolean) => Promise<void>;
}): { stop(): Promise<void> } => {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const isStopped = () => stopped;

  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = options
        .run(isStopped)
        .catch((error: unknown) => {
          options.logger.warn({ err: error }, `${options.name} failed`);
        })
        .finally(() => {
          running = undefined;
          schedule(options.intervalMs);
        });
    }, delayMs);
    timer.unref();
  };
  schedule(options.firstDelayMs ?? options.intervalMs);

  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
};
