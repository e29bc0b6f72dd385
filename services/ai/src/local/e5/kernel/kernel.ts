import { Q4_WASM } from './q4.wasm.js';
import { wasm } from '../../wasm.js';

/** Weights per Q4_0 block, and the bytes of a block in the model file (an fp16 scale, 16 bytes). */
export const Q4_BLOCK = 32;
export const Q4_BLOCK_BYTES = 18;

/** A Q4_0 weight matrix (rows × columns: y = x · wᵀ) and its bias, in the kernel's memory. */
export interface Q4Matrix {
  readonly rows: number;
  readonly columns: number;
  /** Byte offsets in the kernel's memory. */
  readonly at: number;
  readonly biasAt: number;
}

/**
 * The encoder's arithmetic on float32 arrays in the kernel's memory, named by byte offset (see
 * q4.wat). Offsets come from `floats` and `constants`; views of them stay valid until the next
 * allocation, which may grow (and so replace) the memory.
 */
export interface Q4Kernel {
  /**
   * Copies a matrix in from the model file's Q4_0 blocks (rows × columns / 32, row by row;
   * rows a multiple of 8), packed for the product, with `bias` (zero if absent).
   */
  matrix(blocks: Uint8Array, rows: number, columns: number, bias?: Float32Array): Q4Matrix;
  /** Room for `count` float32 values, zeroed. */
  floats(count: number): number;
  /** `values` copied in. */
  constants(values: Float32Array): number;
  view(at: number, count: number): Float32Array;
  /** Quantizes `tokens × width` values at `at` to int8 per 32 values, for `multiply`. */
  quantize(at: number, tokens: number, width: number): void;
  /** out (tokens × rows) = the last quantized tokens · matrixᵀ + bias. */
  multiply(matrix: Q4Matrix, tokens: number, outAt: number): void;
  /**
   * Attention of tokens [start, end) among themselves, every head of 32 values: `ctxAt` =
   * softmax(q · kᵀ / √32) · v, the four arrays tokens × width.
   */
  attention(
    qAt: number,
    kAt: number,
    vAt: number,
    ctxAt: number,
    start: number,
    end: number,
    width: number,
  ): void;
  /** GELU in place, `count` a multiple of 4. */
  gelu(at: number, count: number): void;
  /** x = layernorm(x + add) (x alone if `addAt` is null), each of `tokens` rows of `width`. */
  layerNorm(
    xAt: number,
    addAt: number | null,
    gainAt: number,
    shiftAt: number,
    tokens: number,
    width: number,
    epsilon: number,
  ): void;
}

type Exports = {
  quantize(x: number, rows: number, width: number, a: number): void;
  matmul(
    ...args: [
      w: number,
      bias: number,
      a: number,
      rows: number,
      nout: number,
      nin: number,
      y: number,
      scratch: number,
    ]
  ): void;
  attention(
    ...args: [
      q: number,
      k: number,
      v: number,
      ctx: number,
      prob: number,
      start: number,
      end: number,
      width: number,
      heads: number,
      scale: number,
    ]
  ): void;
  gelu(x: number, count: number): void;
  layernorm(
    ...args: [
      x: number,
      y: number,
      add: number,
      gain: number,
      shift: number,
      rows: number,
      width: number,
      eps: number,
    ]
  ): void;
};

const PAGE = 65_536;
const HEAD = 32;
/** Bytes of a packed unit of four rows × one block: 64 of levels, then four float32 scales. */
const UNIT_BLOCK_BYTES = 80;
/** Tokens per call of the product (even). */
const TILE = 64;
const compiled = new wasm.Module(Q4_WASM);

/** e5.c's fp16_to_fp32 (subnormals included). */
export const halfToFloat = (half: number): number => {
  const sign = half & 0x8000 ? -1 : 1;
  const exponent = (half >> 10) & 0x1f;
  const mantissa = half & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 31) return mantissa ? NaN : sign * Infinity;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
};

/**
 * Byte `k` of packed vector `m` of a unit-block, for weight `i` (0..31) of row `r` (0..3):
 * pair p = i / 2 of the block goes to expanded vector p, lane 2r + i % 2, and expanded vectors
 * 4m..4m+3 come from packed vector m: its low nibbles (bytes 0-7, then 8-15), then its high.
 */
const packedNibble = (r: number, i: number): [byte: number, shift: number] => {
  const p = i >> 1;
  const lane = 2 * r + (i & 1);
  return [(p >> 2) * 16 + (p & 1) * 8 + lane, ((p >> 1) & 1) * 4];
};
const NIBBLES: ReadonlyArray<readonly [number, number]> = Array.from({ length: 4 * 32 }, (_, n) =>
  packedNibble(n >> 5, n & 31),
);

/**
 * Creates a kernel with room for products of up to `tokens` tokens of `width` values (the
 * quantized activations, the expanded weights and attention's probabilities).
 */
export const createQ4Kernel = ({ tokens, width }: { tokens: number; width: number }): Q4Kernel => {
  const memory = new wasm.Memory({ initial: 1 });
  const kernel = new wasm.Instance(compiled, { env: { memory } }).exports as Exports;
  // Offset 0 is never handed out.
  let top = 64;
  const allocate = (bytes: number): number => {
    const at = top;
    top += Math.ceil(bytes / 16) * 16;
    const missing = top - memory.buffer.byteLength;
    if (missing > 0) memory.grow(Math.ceil(missing / PAGE));
    return at;
  };
  const bytesAt = (at: number, length: number) => new Uint8Array(memory.buffer, at, length);
  const floatsAt = (at: number, length: number) => new Float32Array(memory.buffer, at, length);

  // Levels and scales of token pairs, 144 bytes a pair and block; the expanded weights.
  const levelsAt = allocate(Math.ceil(tokens / 2) * (width / Q4_BLOCK) * 144);
  const scratchAt = allocate(width * 17);
  const probAt = allocate((tokens + 4) * 4);
  let quantized = { tokens: 0, width: 0 };

  return {
    matrix(blocks, rows, columns, bias) {
      const perRow = columns / Q4_BLOCK;
      if (
        rows % 8 !== 0 ||
        columns % Q4_BLOCK !== 0 ||
        columns > width ||
        blocks.length !== rows * perRow * Q4_BLOCK_BYTES ||
        (bias && bias.length !== rows)
      ) {
        throw new RangeError(`q4 matrix: ${rows} × ${columns} (${blocks.length} bytes) do not fit`);
      }
      const at = allocate((rows / 4) * perRow * UNIT_BLOCK_BYTES);
      const biasAt = allocate(rows * 4);
      const packed = bytesAt(at, (rows / 4) * perRow * UNIT_BLOCK_BYTES);
      const scales = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
      for (let unit = 0; unit < rows / 4; unit++) {
        for (let b = 0; b < perRow; b++) {
          const to = (unit * perRow + b) * UNIT_BLOCK_BYTES;
          for (let r = 0; r < 4; r++) {
            const from = ((unit * 4 + r) * perRow + b) * Q4_BLOCK_BYTES;
            scales.setFloat32(
              to + 64 + r * 4,
              halfToFloat(blocks[from]! | (blocks[from + 1]! << 8)),
              true,
            );
            // Byte j of a block holds weight j (low nibble) and weight j + 16 (high).
            for (let j = 0; j < 16; j++) {
              const byte = blocks[from + 2 + j]!;
              const [low, lowShift] = NIBBLES[r * 32 + j]!;
              const [high, highShift] = NIBBLES[r * 32 + j + 16]!;
              packed[to + low]! |= (byte & 15) << lowShift;
              packed[to + high]! |= (byte >> 4) << highShift;
            }
          }
        }
      }
      if (bias) floatsAt(biasAt, rows).set(bias);
      return { rows, columns, at, biasAt };
    },
    floats: (count) => allocate(count * 4),
    constants(values) {
      const at = allocate(values.length * 4);
      floatsAt(at, values.length).set(values);
      return at;
    },
    view: floatsAt,
    quantize(at, count, columns) {
      if (count > tokens || columns > width || columns % Q4_BLOCK !== 0) {
        throw new RangeError(`q4 quantize: ${count} × ${columns} do not fit`);
      }
      kernel.quantize(at, count, columns, levelsAt);
      quantized = { tokens: count, width: columns };
    },
    multiply({ rows, columns, at, biasAt }, count, outAt) {
      if (count > quantized.tokens || columns !== quantized.width) {
        throw new RangeError(`q4 multiply: ${count} × ${columns} are not the quantized tokens`);
      }
      // Tiles of 64 tokens, so that a tile's levels and outputs stay in the cache while every
      // group of rows runs over them: a third faster for the 1,536-row matrix at 512 tokens.
      // The weights are expanded again for each tile, 1% of the work.
      const pairBytes = (columns / Q4_BLOCK) * 144;
      for (let t = 0; t < count; t += TILE) {
        kernel.matmul(
          at,
          biasAt,
          levelsAt + (t / 2) * pairBytes,
          Math.min(TILE, count - t),
          rows,
          columns,
          outAt + t * rows * 4,
          scratchAt,
        );
      }
    },
    attention(qAt, kAt, vAt, ctxAt, start, end, columns) {
      if (end - start > tokens || columns % HEAD !== 0) {
        throw new RangeError(`q4 attention: ${end - start} tokens of ${columns} do not fit`);
      }
      kernel.attention(
        qAt,
        kAt,
        vAt,
        ctxAt,
        probAt,
        start,
        end,
        columns,
        columns / HEAD,
        1 / Math.sqrt(HEAD),
      );
    },
    gelu: (at, count) => kernel.gelu(at, count),
    layerNorm(xAt, addAt, gainAt, shiftAt, count, columns, epsilon) {
      kernel.layernorm(
        xAt,
        addAt ?? 0,
        addAt === null ? 0 : 1,
        gainAt,
        shiftAt,
        count,
        columns,
        epsilon,
      );
    },
  };
};
