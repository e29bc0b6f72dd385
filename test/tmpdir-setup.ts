import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Every temporary directory a test run makes (the apps' data directories, PGlite's files, the
 * object stores) goes under one directory of the run, removed when the run ends: CI runs on this
 * machine again and again, and a test's 150 MB data directory must not outlive it.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), 'noted-vitest-'));
  process.env.TMPDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
