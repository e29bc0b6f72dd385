import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

/** A figure of /proc/<pid>/status in kB (VmRSS, VmHWM), or undefined once the process ended. */
export const statusKb = (pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
};

/** Sets the process's high-water mark back to its current RSS (Linux's clear_refs, 5). */
export const resetHighWater = (pid: number) => {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
};

export const mb = (kb: number) => Math.round(kb / 1024);

/** The processes `pid` started, and theirs (Linux's /proc/<pid>/task/<tid>/children). */
export const descendants = (pid: number): number[] => {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children = tasks.flatMap((tid) => {
    try {
      return readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8')
        .split(' ')
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  });
  return children.flatMap((child) => [child, ...descendants(child)]);
};

/** RSS in kB of `pid` and every process it started (the local model runs in a child). */
export const treeRssKb = (pid: number): number =>
  [pid, ...descendants(pid)].reduce((sum, each) => sum + (statusKb(each, 'VmRSS') ?? 0), 0);

/** Waits until the program at `url` answers /readyz (five minutes at most); throws if it exits. */
export const untilReady = async (url: string, child: ChildProcess, name: string) => {
  const deadline = Date.now() + 300_000;
  while (
    !(await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${name} did not become ready`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};
