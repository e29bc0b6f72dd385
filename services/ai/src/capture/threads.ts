import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The worker module `name` (say `pdf.worker`) next to the module at `moduleUrl` (its
 * `import.meta.url`), as whichever it is: `name.ts` from source (vitest, tsx) or `name.js` from
 * dist. A `.ts` worker needs tsx's loader in its thread: a process started with `--import tsx`
 * passes that on (threads inherit `execArgv`); under vitest, which transforms only its own
 * module graph, the loader is added here. Hence a worker imports nothing from the workspace:
 * its packages resolve to their dist, built or not.
 */
export const workerThread = (
  moduleUrl: string,
  name: string,
): { filename: string; execArgv?: string[] } => {
  const extension = extname(fileURLToPath(moduleUrl));
  const filename = new URL(`./${name}${extension}`, moduleUrl).href;
  if (extension !== '.ts' || process.execArgv.some((arg) => /\btsx\b/.test(arg))) {
    return { filename };
  }
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { filename, execArgv: [...process.execArgv, '--import', tsx] };
};
