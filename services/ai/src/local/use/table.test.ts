import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSentenceEncoderWeights, sentenceEncoderWeightsPath } from './encoder.js';
import { DEFAULT_USE_MODEL_DIR } from './model-dir.js';
import {
  isTableBlock,
  ROW_BYTES,
  rowsFilePath,
  rowsInFile,
  rowsInMemory,
  writeRowsFile,
} from './table.js';

const dir = mkdtempSync(join(tmpdir(), 'noted-table-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const blocks = readSentenceEncoderWeights(DEFAULT_USE_MODEL_DIR, { only: isTableBlock });
const path = rowsFilePath(sentenceEncoderWeightsPath(DEFAULT_USE_MODEL_DIR), dir);

describe("the sentence encoder's embedding table in a file", () => {
  it('holds the rows of the blocks in piece order, read a batch at a time', () => {
    writeRowsFile(path, () => blocks);
    const memory = rowsInMemory(blocks);
    const file = rowsInFile(path);
    expect(file.rows).toBe(128_010);
    expect(file.rows).toBe(memory.rows);
    // Pieces from every block, both ends of the table and a repeat.
    const ids = [0, 1, 2, 16, 17, 18, 4_321, 99_999, 128_009, 17];
    const fromFile = new Uint8Array(ids.length * ROW_BYTES);
    const fromMemory = new Uint8Array(ids.length * ROW_BYTES);
    file.read(ids, fromFile);
    memory.read(ids, fromMemory);
    expect(fromFile).toEqual(fromMemory);
    expect(fromFile.some((level) => level !== 0)).toBe(true);
  });

  it('refuses a piece outside the table', () => {
    const into = new Uint8Array(ROW_BYTES);
    expect(() => rowsInFile(path).read([128_010], into)).toThrow(/out of range/);
    expect(() => rowsInMemory(blocks).read([-1], into)).toThrow(/out of range/);
  });

  it('is written once, and never left half written', () => {
    writeRowsFile(path, () => blocks);
    expect(readdirSync(dir)).toEqual([path.slice(dir.length + 1)]);
    // A table that cannot be written leaves nothing behind.
    const blocked = join(dir, 'blocked');
    writeFileSync(blocked, 'a file where the folder should be');
    expect(() => writeRowsFile(join(blocked, 'table.bin'), () => blocks)).toThrow();
    expect(existsSync(join(blocked, 'table.bin'))).toBe(false);
  });
});
