import { readFileSync, writeFileSync } from 'node:fs';

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
