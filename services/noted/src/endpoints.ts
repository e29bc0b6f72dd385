import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '@noted/kit';
import type { Endpoints } from './modules.js';

/** Where a running Noted records the addresses its modules listen on (ports may be random). */
const fileOf = (dataDir: string) => path.join(dataDir, 'endpoints.json');

/** Records the endpoints for `noted reindex`; a data dir that cannot be written only loses that. */
export const writeEndpoints = (dataDir: string, endpoints: Endpoints, logger: Logger) => {
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(fileOf(dataDir), `${JSON.stringify(endpoints, null, 2)}\n`, { mode: 0o600 });
  } catch (error) {
    logger.warn({ err: error, dataDir }, 'could not record the endpoints in the data dir');
  }
};

/** The endpoints a Noted running on this data dir recorded, if any. */
export const readEndpoints = (dataDir: string): Endpoints => {
  try {
    return JSON.parse(readFileSync(fileOf(dataDir), 'utf8')) as Endpoints;
  } catch {
    return {};
  }
};
