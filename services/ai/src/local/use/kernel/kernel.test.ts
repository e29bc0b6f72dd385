import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assembledKernel, kernelFile } from './assemble.js';
import { createMatmulKernel } from './kernel.js';

/** Deterministic values in [-1, 1). */
const values = (length: number, seed: number) => {
  let state = seed;
  return Float32Array.from({ length }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 30 - 1;
  });
};

const naive = (
  x: Float32Array,
  n: number,
  K: number,
  w: Float32Array,
  N: number,
  b?: Float32Array,
) =>
  Float64Array.from({ length: n * N }, (_, at) => {
    const [t, j] = [Math.floor(at / N), at % N];
    let sum = b ? b[j]! : 0;
    for (let k = 0; k < K; k++) sum += x[t * K + k]! * w[k * N + j]!;
    return sum;
  });

describe('matmul kernel', () => {
  it('is assembled from the current matmul.wat (npm run kernel)', async () => {
    expect(readFileSync(kernelFile, 'utf8')).toBe(await assembledKernel());
  });

  it.each([
    [1, 4, 8],
    [3, 12, 16],
    [4, 8, 8],
    [7, 20, 24],
    [33, 256, 320],
  ])('multiplies %i × %i by %i columns, with and without a bias', (n, K, N) => {
    const kernel = createMatmulKernel();
    const x = values(n * K, 1);
    const w = values(K * N, 2);
    const bias = values(N, 3);
    const withBias = kernel.weights(w, K, N, bias);
    const without = kernel.weights(w, K, N);
    const expected = naive(x, n, K, w, N, bias);
    const plain = naive(x, n, K, w, N);
    const got = kernel.multiply(x, n, withBias);
    const gotPlain = kernel.multiply(x, n, without);
    expect(got).toHaveLength(n * N);
    for (let i = 0; i < n * N; i++) {
      expect(got[i]).toBeCloseTo(expected[i]!, 3);
      expect(gotPlain[i]).toBeCloseTo(plain[i]!, 3);
    }
  });

  it('grows its memory for a large product and keeps earlier weights intact', () => {
    const kernel = createMatmulKernel();
    const small = kernel.weights(values(8 * 8, 4), 8, 8);
    const x = values(8, 5);
    const before = kernel.multiply(x, 1, small);
    kernel.multiply(values(400 * 1280, 6), 400, kernel.weights(values(1280 * 256, 7), 1280, 256));
    expect(kernel.multiply(x, 1, small)).toEqual(before);
  });

  it('refuses shapes the loop cannot take', () => {
    const kernel = createMatmulKernel();
    expect(() => kernel.weights(new Float32Array(6 * 8), 6, 8)).toThrow(RangeError);
    expect(() => kernel.weights(new Float32Array(4 * 6), 4, 6)).toThrow(RangeError);
    const weights = kernel.weights(new Float32Array(4 * 8), 4, 8);
    expect(() => kernel.multiply(new Float32Array(7), 2, weights)).toThrow(RangeError);
  });
});
