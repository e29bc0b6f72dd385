import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { assembledFile, assembleWat } from '../../use/kernel/assemble.js';
import { createQ4Kernel, halfToFloat, Q4_BLOCK, Q4_BLOCK_BYTES } from './kernel.js';

const wat = fileURLToPath(new URL('q4.wat', import.meta.url));
const f32 = Math.fround;

/** Deterministic values in [0, 1). */
const random = (seed: number) => {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
};
const values = (length: number, seed: number, scale = 1) => {
  const next = random(seed);
  return Float32Array.from({ length }, () => (next() * 2 - 1) * scale);
};

/** Random Q4_0 blocks: levels 0..15, fp16 scales of either sign, a few subnormal. */
const q4Blocks = (rows: number, columns: number, seed: number) => {
  const next = random(seed);
  const blocks = new Uint8Array((rows * columns * Q4_BLOCK_BYTES) / Q4_BLOCK);
  for (let at = 0; at < blocks.length; at += Q4_BLOCK_BYTES) {
    const subnormal = next() < 0.05;
    const exponent = subnormal ? 0 : 5 + Math.floor(next() * 9);
    const half = (next() < 0.5 ? 0x8000 : 0) | (exponent << 10) | Math.floor(next() * 1024);
    blocks[at] = half & 0xff;
    blocks[at + 1] = half >> 8;
    for (let j = 2; j < Q4_BLOCK_BYTES; j++) blocks[at + j] = Math.floor(next() * 256);
  }
  return blocks;
};

/** e5.c's lrintf: round half to even. */
const roundEven = (x: number) => {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
};

/** e5.c's quantize_acts and matmul_q4q8 (its scalar fallback), in float64 where it sums. */
const reference = (
  x: Float32Array,
  tokens: number,
  columns: number,
  blocks: Uint8Array,
  rows: number,
  bias: Float32Array,
) => {
  const nb = columns / Q4_BLOCK;
  const levels = new Int32Array(tokens * columns);
  const scales = new Float64Array(tokens * nb);
  const sums = new Int32Array(tokens * nb);
  for (let b = 0; b < tokens * nb; b++) {
    let max = 0;
    for (let j = 0; j < Q4_BLOCK; j++) max = Math.max(max, Math.abs(x[b * Q4_BLOCK + j]!));
    const d = f32(max / 127);
    const inverse = d > 0 ? f32(1 / d) : 0;
    for (let j = 0; j < Q4_BLOCK; j++) {
      const level = roundEven(f32(x[b * Q4_BLOCK + j]! * inverse));
      levels[b * Q4_BLOCK + j] = level;
      sums[b]! += level;
    }
    scales[b] = d;
  }
  const out = new Float64Array(tokens * rows);
  for (let t = 0; t < tokens; t++) {
    for (let r = 0; r < rows; r++) {
      let sum = bias[r]!;
      for (let b = 0; b < nb; b++) {
        const at = (r * nb + b) * Q4_BLOCK_BYTES;
        const scale = halfToFloat(blocks[at]! | (blocks[at + 1]! << 8));
        let dot = 0;
        for (let j = 0; j < 16; j++) {
          const byte = blocks[at + 2 + j]!;
          dot += (byte & 15) * levels[t * columns + b * Q4_BLOCK + j]!;
          dot += (byte >> 4) * levels[t * columns + b * Q4_BLOCK + j + 16]!;
        }
        sum += scale * scales[t * nb + b]! * (dot - 8 * sums[t * nb + b]!);
      }
      out[t * rows + r] = sum;
    }
  }
  return out;
};

/** The exact erf, for GELU's reference (series, then the continued fraction of erfc). */
const erf = (x: number): number => {
  const a = Math.abs(x);
  if (a < 3) {
    let sum = a;
    let term = a;
    for (let n = 1; Math.abs(term) > 1e-17 * sum; n++) {
      term *= (-a * a) / n;
      sum += term / (2 * n + 1);
    }
    return Math.sign(x) * sum * (2 / Math.sqrt(Math.PI));
  }
  let fraction = 0;
  for (let k = 60; k >= 1; k--) fraction = k / 2 / (a + fraction);
  return Math.sign(x) * (1 - Math.exp(-a * a) / Math.sqrt(Math.PI) / (a + fraction));
};

describe('the e5 kernel', () => {
  it('is assembled from the current q4.wat (npm run kernel)', async () => {
    expect(readFileSync(assembledFile(wat), 'utf8')).toBe(await assembleWat(wat));
  });

  it('reads fp16 scales as e5.c does, subnormals included', () => {
    expect(halfToFloat(0x3c00)).toBe(1);
    expect(halfToFloat(0xc000)).toBe(-2);
    expect(halfToFloat(0x0001)).toBe(2 ** -24);
    expect(halfToFloat(0x83ff)).toBe(-1023 * 2 ** -24);
    expect(halfToFloat(0x7bff)).toBe(65504);
  });

  it.each([
    [1, 8, 32],
    [2, 8, 64],
    [3, 16, 96],
    [7, 24, 384],
    [12, 384, 384],
    [33, 64, 1536],
    [71, 16, 384],
  ])('multiplies %i tokens by %i × %i Q4_0 weights as e5.c does', (tokens, rows, columns) => {
    const kernel = createQ4Kernel({ tokens: 80, width: 1536 });
    const blocks = q4Blocks(rows, columns, rows + columns);
    const bias = values(rows, 3);
    const matrix = kernel.matrix(blocks, rows, columns, bias);
    const plain = kernel.matrix(blocks, rows, columns);
    // Spread magnitudes, as activations have, and an all-zero block.
    const x = values(tokens * columns, tokens, 4).map((v, i) => (i % 7 === 0 ? v * 20 : v));
    x.fill(0, 0, Q4_BLOCK);
    const xAt = kernel.constants(x);
    const outAt = kernel.floats(tokens * rows);
    const plainAt = kernel.floats(tokens * rows);
    kernel.quantize(xAt, tokens, columns);
    kernel.multiply(matrix, tokens, outAt);
    kernel.multiply(plain, tokens, plainAt);
    const got = kernel.view(outAt, tokens * rows);
    const gotPlain = kernel.view(plainAt, tokens * rows);
    const expected = reference(x, tokens, columns, blocks, rows, bias);
    const expectedPlain = reference(x, tokens, columns, blocks, rows, new Float32Array(rows));
    const scale = Math.max(...expected.map(Math.abs));
    for (let i = 0; i < tokens * rows; i++) {
      expect(Math.abs(got[i]! - expected[i]!), `output ${i}`).toBeLessThan(scale * 2e-6);
      expect(Math.abs(gotPlain[i]! - expectedPlain[i]!), `output ${i}`).toBeLessThan(scale * 2e-6);
    }
  });

  it('attends within a window, as softmax(q·kᵀ/√32)·v', () => {
    const [tokens, width, start, end] = [13, 64, 2, 11];
    const kernel = createQ4Kernel({ tokens, width });
    const q = values(tokens * width, 5, 3);
    const k = values(tokens * width, 6, 3);
    const v = values(tokens * width, 7);
    const at = [q, k, v].map((array) => kernel.constants(array));
    const ctxAt = kernel.floats(tokens * width);
    kernel.attention(at[0]!, at[1]!, at[2]!, ctxAt, start, end, width);
    const ctx = kernel.view(ctxAt, tokens * width);
    for (let t = 0; t < tokens; t++) {
      for (let h = 0; h < width / 32; h++) {
        const scores: number[] = [];
        for (let s = start; s < end; s++) {
          let dot = 0;
          for (let e = 0; e < 32; e++)
            dot += q[t * width + h * 32 + e]! * k[s * width + h * 32 + e]!;
          scores.push(dot / Math.sqrt(32));
        }
        const max = Math.max(...scores);
        const weights = scores.map((score) => Math.exp(score - max));
        const total = weights.reduce((a, b) => a + b, 0);
        for (let e = 0; e < 32; e++) {
          const at = t * width + h * 32 + e;
          if (t < start || t >= end) {
            expect(ctx[at]).toBe(0);
            continue;
          }
          let expected = 0;
          weights.forEach(
            (w, i) => (expected += (w / total) * v[(start + i) * width + h * 32 + e]!),
          );
          expect(ctx[at]).toBeCloseTo(expected, 5);
        }
      }
    }
  });

  it('applies GELU with erf to within float rounding', () => {
    const kernel = createQ4Kernel({ tokens: 1, width: 32 });
    const x = Float32Array.from({ length: 4000 }, (_, i) => (i - 2000) / 200);
    const at = kernel.constants(x);
    kernel.gelu(at, x.length);
    const got = kernel.view(at, x.length);
    x.forEach((value, i) => {
      const expected = 0.5 * value * (1 + erf(value / Math.SQRT2));
      expect(Math.abs(got[i]! - expected), `gelu(${value})`).toBeLessThan(2e-6);
    });
  });

  it('normalizes rows, with and without a residual', () => {
    const [tokens, width] = [3, 384];
    const kernel = createQ4Kernel({ tokens, width });
    const x = values(tokens * width, 8, 5);
    const y = values(tokens * width, 9, 2);
    const gain = values(width, 10);
    const shift = values(width, 11);
    const [xAt, yAt, gainAt, shiftAt] = [x, y, gain, shift].map((array) => kernel.constants(array));
    const alone = kernel.constants(x);
    kernel.layerNorm(xAt!, yAt!, gainAt!, shiftAt!, tokens, width, 1e-12);
    kernel.layerNorm(alone, null, gainAt!, shiftAt!, tokens, width, 1e-12);
    const check = (got: Float32Array, input: (i: number) => number) => {
      for (let t = 0; t < tokens; t++) {
        const row = Array.from({ length: width }, (_, i) => input(t * width + i));
        const mean = row.reduce((a, b) => a + b, 0) / width;
        const variance = row.reduce((a, b) => a + (b - mean) ** 2, 0) / width;
        row.forEach((value, i) => {
          const expected = ((value - mean) / Math.sqrt(variance + 1e-12)) * gain[i]! + shift[i]!;
          expect(got[t * width + i]).toBeCloseTo(expected, 4);
        });
      }
    };
    check(kernel.view(xAt!, tokens * width), (i) => x[i]! + y[i]!);
    check(kernel.view(alone, tokens * width), (i) => x[i]!);
  });

  it('refuses shapes the loops cannot take', () => {
    const kernel = createQ4Kernel({ tokens: 4, width: 64 });
    expect(() => kernel.matrix(q4Blocks(4, 32, 1), 4, 32)).toThrow(RangeError);
    expect(() => kernel.matrix(q4Blocks(8, 96, 1), 8, 96)).toThrow(RangeError);
    expect(() => kernel.quantize(kernel.floats(5 * 32), 5, 32)).toThrow(RangeError);
    const matrix = kernel.matrix(q4Blocks(8, 64, 1), 8, 64);
    kernel.quantize(kernel.floats(4 * 32), 4, 32);
    expect(() => kernel.multiply(matrix, 4, kernel.floats(32))).toThrow(RangeError);
  });
});
