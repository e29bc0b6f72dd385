import { MATMUL_WASM } from './matmul.wasm.js';
import { wasm } from '../../wasm.js';

/** A weight matrix (K × N, row-major) and its bias, resident in the kernel's memory. */
export interface KernelWeights {
  readonly rows: number;
  readonly columns: number;
  /** Byte offsets in the kernel's memory. */
  readonly at: number;
  readonly biasAt: number;
}

export interface MatmulKernel {
  /**
   * Copies `w` (K × N, row-major; K a multiple of 4, N of 8) and `bias` (zero if absent) in,
   * packed for the product.
   */
  weights(w: Float32Array, K: number, N: number, bias?: Float32Array): KernelWeights;
  /** `x` (n × K) · w + bias, as a new n × N array. */
  multiply(x: Float32Array, n: number, weights: KernelWeights): Float32Array;
}

const PAGE = 65_536;
const compiled = new wasm.Module(MATMUL_WASM);

/**
 * Matrix products for the sentence encoder in WebAssembly SIMD (matmul.wat): about 4.5
 * GFLOP/s of multiply-adds on the baseline compiler the program runs WebAssembly with
 * (`--liftoff-only`), 2.8 times the best plain TypeScript loop, and twice that under V8's
 * optimizing compiler. Weights are copied in once; each product copies its input in and its
 * output out (n·(K + N) values against n·K·N multiply-adds), so callers keep plain arrays.
 */
export const createMatmulKernel = (): MatmulKernel => {
  const memory = new wasm.Memory({ initial: 1 });
  const matmul = new wasm.Instance(compiled, { env: { memory } }).exports.matmul as (
    ...args: [x: number, n: number, K: number, w: number, N: number, bias: number, out: number]
  ) => void;
  /** End of the weights: the scratch space for products starts here. */
  let top = 0;
  const reserve = (bytes: number) => {
    const missing = top + bytes - memory.buffer.byteLength;
    if (missing > 0) memory.grow(Math.ceil(missing / PAGE));
  };
  const floatsAt = (at: number, length: number) => new Float32Array(memory.buffer, at, length);

  return {
    weights(w, K, N, bias) {
      if (K % 4 !== 0 || N % 8 !== 0 || w.length !== K * N || (bias && bias.length !== N)) {
        throw new RangeError(`matmul weights: ${K} × ${N} (${w.length} values) do not fit`);
      }
      const bytes = (K * N + N) * 4;
      reserve(bytes);
      const at = top;
      // Packed in strips of eight columns, each strip's K rows one after the other (matmul.wat).
      const packed = floatsAt(at, K * N);
      for (let strip = 0; strip < N / 8; strip++) {
        for (let k = 0; k < K; k++) {
          const from = k * N + strip * 8;
          packed.set(w.subarray(from, from + 8), (strip * K + k) * 8);
        }
      }
      const biasAt = at + K * N * 4;
      if (bias) floatsAt(biasAt, N).set(bias);
      top += bytes;
      return { rows: K, columns: N, at, biasAt };
    },
    multiply(x, n, { rows: K, columns: N, at, biasAt }) {
      if (x.length < n * K) throw new RangeError(`matmul: ${x.length} values for ${n} × ${K}`);
      reserve((n * K + n * N) * 4);
      const xAt = top;
      const outAt = top + n * K * 4;
      floatsAt(xAt, n * K).set(x.subarray(0, n * K));
      matmul(xAt, n, K, at, N, biasAt, outAt);
      return floatsAt(outAt, n * N).slice();
    },
  };
};
