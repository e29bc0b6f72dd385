import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ProgramContext } from './modules.js';

/** Where a running Noted records the addresses its modules listen on (ports may be random). */
const fileOf = (dataDir: string) => path.join(dataDir, 'endpoints.json');

export const writeEndpoints = (dataDir: string, endpoints: ProgramContext['endpoints']) => {
  writeFileSync(fileOf(dataDir), `${JSON.stringify(endpoints, null, 2)}\n`, { mode: 0o600 });
};

/** The endpoints a Noted running on this data dir recorded, if any. */
export const readEndpoints = (dataDir: string): ProgramContext['endpoints'] => {
  try {
    return JSON.parse(readFileSync(fileOf(dataDir), 'utf8')) as ProgramContext['endpoints'];
  } catch {
    return {};
  }
};
