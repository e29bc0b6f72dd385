import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite, type Extension } from '@electric-sql/pglite';

/**
 * PGlite's shared_buffers, unless configured. initdb picks 128 MB, and PGlite's WebAssembly
 * heap commits all of it at start, once per database (three in one Noted process); an embedded
 * database of one person's notes is read from the OS's page cache just as well.
 */
export const DEFAULT_PGLITE_SHARED_BUFFERS_MB = 16;

export interface PgliteSettings {
  /** Postgres's shared_buffers, in MB. */
  sharedBuffersMb: number;
}

const settingsOf = ({ sharedBuffersMb }: PgliteSettings) => [`shared_buffers=${sharedBuffersMb}MB`];

/**
 * Makes a new database cluster in `dataDir` in a process of its own, as Postgres's initdb is.
 * PGlite's initdb runs a second Postgres and the initdb program as WebAssembly beside the
 * database, about 500 MB that the process would keep as freed-but-resident memory; a child
 * process gives all of it back when it exits. Liftoff alone (no optimizing tier) compiles the
 * modules faster and smaller for a run this short.
 */
const initdbInChildProcess = async (dataDir: string, settings: PgliteSettings) => {
  const pglite = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
  const script = `
    const { PGlite } = await import(${JSON.stringify(pglite)});
    const [dataDir, settings] = process.argv.slice(1);
    const sets = JSON.parse(settings);
    const db = await PGlite.create(dataDir, {
      startParams: [...PGlite.defaultStartParams, ...sets.flatMap((set) => ['-c', set])],
      initDbStartParams: sets.flatMap((set) => ['--set', set]),
    });
    await db.close();
  `;
  const child = spawn(
    process.execPath,
    [
      '--liftoff-only',
      '--input-type=module',
      '-e',
      script,
      dataDir,
      JSON.stringify(settingsOf(settings)),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], env: process.env },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    stderr = (stderr + text).slice(-4000);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0 || !existsSync(join(dataDir, 'PG_VERSION'))) {
    throw new Error(`initdb of ${dataDir} failed (exit ${code}): ${stderr.trim()}`);
  }
};

/**
 * A new cluster made from a template: with NOTED_PGLITE_TEMPLATE_DIR set (the test runs, which
 * start hundreds of embedded databases, each run its own directory), initdb runs once per
 * settings, into that directory, and every new database is a copy of its result (tens of
 * milliseconds instead of seconds of initdb). Made under a unique name and renamed into place,
 * so processes starting at once never see a half-made template.
 */
const initdbFromTemplate = async (
  dataDir: string,
  settings: PgliteSettings,
  templatesDir: string,
) => {
  const template = join(templatesDir, `initdb-${settings.sharedBuffersMb}mb`);
  if (!existsSync(join(template, 'PG_VERSION'))) {
    mkdirSync(templatesDir, { recursive: true });
    const making = `${template}.${randomUUID()}`;
    await initdbInChildProcess(making, settings);
    try {
      renameSync(making, template);
    } catch {
      // Another process put its template there first: the same cluster, so keep that one.
      rmSync(making, { recursive: true, force: true });
    }
  }
  mkdirSync(dirname(dataDir), { recursive: true });
  cpSync(template, dataDir, { recursive: true });
};

/** Opens the PGlite database in `dataDir`, making it first (in a child process) if missing. */
export const openPglite = async (
  dataDir: string,
  options: { extensions: Record<string, Extension>; settings: PgliteSettings },
): Promise<PGlite> => {
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    const templates = process.env.NOTED_PGLITE_TEMPLATE_DIR;
    if (templates) await initdbFromTemplate(dataDir, options.settings, templates);
    else await initdbInChildProcess(dataDir, options.settings);
  }
  return PGlite.create(dataDir, {
    extensions: options.extensions,
    startParams: [
      ...PGlite.defaultStartParams,
      ...settingsOf(options.settings).flatMap((set) => ['-c', set]),
    ],
  });
};
