import { homedir } from 'node:os';
import path from 'node:path';

/** Where the scripts keep what they make once, as deploy/local/common.sh: NOTED_CACHE_DIR, else ~/.cache/noted. */
export const cacheDir = process.env.NOTED_CACHE_DIR ?? path.join(homedir(), '.cache', 'noted');
