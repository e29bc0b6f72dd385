import { Counter, Gauge, Histogram } from 'prom-client';
import { registry } from '@noted/kit';

/** How a task ended: a fixed set. */
export type TaskOutcome = 'ok' | 'error' | 'timeout' | 'memory' | 'crashed' | 'aborted' | 'busy';

const tasks = new Counter({
  name: 'noted_sandbox_tasks_total',
  help: 'Tasks of a sandbox by task and outcome (ok, error, timeout, memory, crashed, aborted, busy)',
  labelNames: ['sandbox', 'task', 'outcome'] as const,
  registers: [registry],
});

const seconds = new Histogram({
  name: 'noted_sandbox_task_duration_seconds',
  help: 'Time a task ran in its process, by task',
  labelNames: ['sandbox', 'task'] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  registers: [registry],
});

const peak = new Histogram({
  name: 'noted_sandbox_task_peak_resident_bytes',
  help: "The highest resident memory of a task's process while it ran, by task",
  labelNames: ['sandbox', 'task'] as const,
  buckets: [32, 64, 96, 128, 192, 256, 384, 512, 768, 1024].map((mb) => mb * 1024 * 1024),
  registers: [registry],
});

type Stats = { name: string; processes: number; busy: number; queued: number; rssBytes: number };
let sources: () => Stats[] = () => [];

const gauge = (name: string, help: string, value: (stats: Stats) => number) =>
  new Gauge({
    name,
    help,
    labelNames: ['sandbox'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const stats of sources()) this.inc({ sandbox: stats.name }, value(stats));
    },
  });

gauge('noted_sandbox_processes', 'Processes a sandbox runs now', (s) => s.processes);
gauge('noted_sandbox_busy_processes', 'Processes of a sandbox running a task now', (s) => s.busy);
gauge('noted_sandbox_queued_tasks', 'Tasks waiting for a process of a sandbox', (s) => s.queued);
gauge(
  'noted_sandbox_resident_bytes',
  "Resident memory of a sandbox's processes together (the program's own is process_resident_memory_bytes)",
  (s) => s.rssBytes,
);

export const sandboxMetrics = {
  /** Where the gauges read the sandboxes of this process from. */
  observe(read: () => Stats[]) {
    sources = read;
  },
  for(sandbox: string) {
    return {
      done(task: string, outcome: TaskOutcome, took?: number, peakBytes?: number) {
        tasks.inc({ sandbox, task, outcome });
        if (took !== undefined && outcome !== 'busy') seconds.observe({ sandbox, task }, took);
        if (peakBytes) peak.observe({ sandbox, task }, peakBytes);
      },
    };
  },
};
