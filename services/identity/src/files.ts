import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type * as z from 'zod';

/** Reads a JSON file, or answers undefined when it does not exist yet. */
export const readJson = async (file: string): Promise<unknown> => {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
};

/** Replaces a file atomically (write aside, then rename), readable by the owner only. */
export const writeJsonAtomic = async (file: string, value: unknown): Promise<void> => {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${randomUUID()}.tmp`;
  await writeFile(temporary, JSON.stringify(value), { mode: 0o600 });
  await rename(temporary, file);
};

/**
 * Creates a file only if none exists, so two processes starting on one data directory agree
 * on a single value: the loser reads what the winner wrote.
 */
export const createJsonOnce = async <S extends z.ZodType>(
  file: string,
  schema: S,
  create: () => z.infer<S> | Promise<z.infer<S>>,
): Promise<z.infer<S>> => {
  const existing = await readJson(file);
  if (existing !== undefined) return parseStored(file, schema, existing);
  const value = await create();
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  try {
    await writeFile(file, JSON.stringify(value), { mode: 0o600, flag: 'wx' });
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return parseStored(file, schema, await readJson(file));
  }
};

export const parseStored = <S extends z.ZodType>(
  file: string,
  schema: S,
  value: unknown,
): z.infer<S> => {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new Error(`${file} is not in the expected format; move it aside to start afresh`);
  }
  return result.data;
};
