import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { readAt } from '../read-at.js';
import type { NpyArray } from './npz.js';

/**
 * The sentence encoder's embedding table: 128,010 rows of 512 quantized levels (uint8), stored
 * in `weights.npz` as 17 blocks, piece `id` being row `id / 17` of block `q{id % 17 + 1}`.
 */
export interface EmbeddingRows {
  readonly rows: number;
  /** Copies the rows of `ids` into `into`, row `t` for `ids[t]`, each `ROW_BYTES` long. */
  read(ids: readonly number[], into: Uint8Array): void;
}

export const TABLE_BLOCKS = 17;
export const ROW_BYTES = 512;

/** Whether an array of `weights.npz` is one of the table's blocks. */
export const isTableBlock = (name: string): boolean => /^q\d+$/.test(name);

const blocksOf = (arrays: Map<string, NpyArray>): Uint8Array[] =>
  Array.from({ length: TABLE_BLOCKS }, (_, block) => {
    const found = arrays.get(`q${block + 1}`);
    if (!(found?.data instanceof Uint8Array) || found.shape[1] !== ROW_BYTES) {
      throw new Error(`USE weights: q${block + 1} is not a uint8 table of width ${ROW_BYTES}`);
    }
    return found.data;
  });

const rowCount = (blocks: Uint8Array[]) =>
  blocks.reduce((count, block) => count + block.length / ROW_BYTES, 0);

/** The table as `weights.npz` holds it, in memory. */
export const rowsInMemory = (arrays: Map<string, NpyArray>): EmbeddingRows => {
  const blocks = blocksOf(arrays);
  const rows = rowCount(blocks);
  return {
    rows,
    read(ids, into) {
      ids.forEach((id, t) => {
        if (id < 0 || id >= rows) throw new Error(`USE: piece ${id} is out of range`);
        const at = Math.floor(id / TABLE_BLOCKS) * ROW_BYTES;
        into.set(blocks[id % TABLE_BLOCKS]!.subarray(at, at + ROW_BYTES), t * ROW_BYTES);
      });
    },
  };
};

/**
 * The table in a file of rows in piece order (`writeRowsFile`), read a batch's pieces at a time:
 * the 65 MB stay in the page cache, shared, rather than in the process, and a batch of 384
 * pieces costs 384 reads of 512 bytes, a fraction of a millisecond.
 */
export const rowsInFile = (path: string): EmbeddingRows => {
  const rows = statSync(path).size / ROW_BYTES;
  return {
    rows,
    read(ids, into) {
      const fd = openSync(path, 'r');
      try {
        ids.forEach((id, t) => {
          if (id < 0 || id >= rows) throw new Error(`USE: piece ${id} is out of range`);
          readAt(fd, id * ROW_BYTES, ROW_BYTES, into.subarray(t * ROW_BYTES, (t + 1) * ROW_BYTES));
        });
      } finally {
        closeSync(fd);
      }
    },
  };
};

/**
 * The path of the table's file for the weights at `weightsPath`, in `dir`: named after the
 * weights file's size and time, so that new weights get a file of their own.
 */
export const rowsFilePath = (weightsPath: string, dir: string): string => {
  const { size, mtimeMs } = statSync(weightsPath);
  return join(dir, `use-table-${size}-${Math.floor(mtimeMs)}.bin`);
};

/** Rows written at a time: 4 MB. */
const WRITE_ROWS = 8_192;

/**
 * Writes the table of the arrays `read` gives (its blocks, as `readNpz` reads them) to `path`
 * in piece order, unless it is there, in which case nothing is read: through a file of this
 * process's own, renamed into place, so that a reader never sees half a table and two
 * processes writing at once both end with a whole one.
 */
export const writeRowsFile = (path: string, read: () => Map<string, NpyArray>): void => {
  if (existsSync(path)) return;
  const table = rowsInMemory(read());
  const { rows } = table;
  mkdirSync(join(path, '..'), { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  try {
    const fd = openSync(partial, 'w');
    try {
      const buffer = new Uint8Array(WRITE_ROWS * ROW_BYTES);
      for (let start = 0; start < rows; start += WRITE_ROWS) {
        const count = Math.min(WRITE_ROWS, rows - start);
        table.read(
          Array.from({ length: count }, (_, i) => start + i),
          buffer,
        );
        const bytes = count * ROW_BYTES;
        for (let done = 0; done < bytes;) done += writeSync(fd, buffer, done, bytes - done);
      }
    } finally {
      closeSync(fd);
    }
    renameSync(partial, path);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
};
