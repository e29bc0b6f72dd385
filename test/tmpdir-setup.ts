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
  // Each embedded database of the run is a copy of one made by initdb (libs/db/src/pglite.ts).
  process.env.NOTED_PGLITE_TEMPLATE_DIR = path.join(dir, 'pglite-templates');
  return () => rmSync(dir, { recursive: true, force: true });
}
