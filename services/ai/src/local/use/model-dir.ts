import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const USE_MODEL = 'use-multilingual-v3';

/**
 * The model files vendored with the service, `services/ai/models/use-multilingual-v3`: this
 * module is three folders below `services/ai` both in `src` and in `dist`, and the image keeps
 * `models` beside `dist`.
 */
export const DEFAULT_USE_MODEL_DIR = fileURLToPath(
  new URL(`../../../models/${USE_MODEL}`, import.meta.url),
);

const MODEL_FILES = ['weights.npz', 'sp.model'];

/** The files of the model that `dir` lacks: checked at start-up, long before the first embed. */
export const missingModelFiles = (dir: string): string[] =>
  MODEL_FILES.filter((file) => !existsSync(join(dir, file)));
