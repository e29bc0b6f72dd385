import { closeSync, fstatSync, openSync } from 'node:fs';
import { readAt } from '../read-at.js';
import { Q4_BLOCK, Q4_BLOCK_BYTES } from './kernel/kernel.js';

/** The shape of the network, from the file's header. */
export interface E5Config {
  hidden: number;
  layers: number;
  heads: number;
  intermediate: number;
  vocabulary: number;
  maxPositions: number;
  epsilon: number;
}

/**
 * The tokenizer's tables as e5.c keeps them: the pieces' UTF-8 bytes end to end (`offsets[i]`
 * to `offsets[i + 1]`) and their scores, and the normalizer as a map from a code point
 * (`normalizeFrom`, ascending) to code points (`normalizeTo[normalizeAt[i]..normalizeAt[i + 1]]`).
 */
export interface E5Vocabulary {
  bos: number;
  eos: number;
  pad: number;
  unk: number;
  offsets: Uint32Array;
  scores: Float32Array;
  pieces: Uint8Array;
  normalizeFrom: Uint32Array;
  normalizeAt: Uint32Array;
  normalizeTo: Uint32Array;
}

/**
 * Where the word embeddings (`emb.word`, 250,037 × 384 in Q4_0: 54 MB) lie in the file: the
 * encoder reads the rows of a batch's tokens from there, so the table stays in the page cache
 * rather than in the process (`encoder.ts`).
 */
export interface E5WordTable {
  path: string;
  /** Byte offset of row 0; row `id` is `rowBytes` long, at `offset + id · rowBytes`. */
  offset: number;
  rowBytes: number;
  rows: number;
}

export interface E5Model {
  config: E5Config;
  vocabulary: E5Vocabulary;
  /** The float32 tensors by name (`emb.pos`, `l0.q.b`, ...). */
  floats: Map<string, Float32Array>;
  /** The Q4_0 tensors by name (`l0.q.w`, ...), the file's blocks as they are. */
  blocks: Map<string, Uint8Array>;
  word: E5WordTable;
}

const MAGIC = 'E5S1';
const F32 = 0;
const Q4_0 = 1;
const WORD = 'emb.word';

/** A little-endian cursor over the head of the file, read as far as it is needed. */
const cursor = (fd: number, size: number) => {
  let position = 0;
  const take = (length: number) => {
    if (position + length > size) throw new Error('e5 model: the file is truncated');
    const bytes = readAt(fd, position, length);
    position += length;
    return new DataView(bytes.buffer);
  };
  return {
    bytes: (length: number) => new Uint8Array(take(length).buffer),
    i32: () => take(4).getInt32(0, true),
    u32: () => take(4).getUint32(0, true),
    f32: () => take(4).getFloat32(0, true),
    u64: () => Number(take(8).getBigUint64(0, true)),
    u16: () => take(2).getUint16(0, true),
    u8: () => take(1).getUint8(0),
  };
};

/**
 * Reads the model file at `path` as e5.c's loader does ("E5S1": header, tokenizer, normalizer
 * map, tensor directory, tensors), with positioned reads so that only what is kept is held: all
 * but the word embeddings, whose place in the file is noted (`E5WordTable`).
 */
export const readE5Model = (path: string): E5Model => {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const read = cursor(fd, size);
    if (new TextDecoder().decode(read.bytes(4)) !== MAGIC) {
      throw new Error(`e5 model: ${path} is not an ${MAGIC} file`);
    }
    read.u32(); // version
    const [hidden, layers, heads, intermediate, vocabulary, maxPositions] = Array.from(
      { length: 6 },
      read.i32,
    ) as [number, number, number, number, number, number];
    read.i32(); // token type vocabulary: only type 0 is used
    const epsilon = read.f32();
    if (read.i32() !== Q4_BLOCK || hidden % Q4_BLOCK !== 0 || intermediate % Q4_BLOCK !== 0) {
      throw new Error(`e5 model: blocks of ${Q4_BLOCK} weights expected`);
    }

    const pieceCount = read.i32();
    const [bos, eos, pad, unk] = Array.from({ length: 4 }, read.i32) as [
      number,
      number,
      number,
      number,
    ];
    const piecesLength = read.u64();
    const offsets = new Uint32Array(read.bytes((pieceCount + 1) * 4).buffer);
    const scores = new Float32Array(read.bytes(pieceCount * 4).buffer);
    const pieces = read.bytes(piecesLength);
    if (offsets[pieceCount] !== piecesLength) throw new Error('e5 model: bad piece offsets');

    // The normalizer: (code point u32, count u8, count × u32) entries.
    const normalizeCount = read.i32();
    const map = read.bytes(read.u32());
    const mapView = new DataView(map.buffer);
    const normalizeFrom = new Uint32Array(normalizeCount);
    const normalizeAt = new Uint32Array(normalizeCount + 1);
    const to: number[] = [];
    for (let i = 0, at = 0; i < normalizeCount; i++) {
      normalizeFrom[i] = mapView.getUint32(at, true);
      if (i > 0 && normalizeFrom[i]! <= normalizeFrom[i - 1]!) {
        throw new Error('e5 model: the normalizer map is not sorted');
      }
      const count = map[at + 4]!;
      at += 5;
      normalizeAt[i] = to.length;
      for (let j = 0; j < count; j++, at += 4) to.push(mapView.getUint32(at, true));
    }
    normalizeAt[normalizeCount] = to.length;

    const floats = new Map<string, Float32Array>();
    const blocks = new Map<string, Uint8Array>();
    let word: E5WordTable | undefined;
    const directory = read.i32();
    for (let i = 0; i < directory; i++) {
      const name = new TextDecoder().decode(read.bytes(read.u16()));
      const dtype = read.u8();
      const elements = read.u32();
      const offset = read.u64();
      const bytes = read.u64();
      const expected = dtype === F32 ? elements * 4 : (elements / Q4_BLOCK) * Q4_BLOCK_BYTES;
      if ((dtype !== F32 && dtype !== Q4_0) || bytes !== expected || offset + bytes > size) {
        throw new Error(`e5 model: tensor ${name} (type ${dtype}, ${bytes} bytes) is malformed`);
      }
      if (name === WORD) {
        if (dtype !== Q4_0 || elements !== vocabulary * hidden) {
          throw new Error(`e5 model: ${WORD} is not ${vocabulary} × ${hidden} in Q4_0`);
        }
        word = { path, offset, rowBytes: (hidden / Q4_BLOCK) * Q4_BLOCK_BYTES, rows: vocabulary };
      } else if (dtype === F32) {
        const values = new Float32Array(elements);
        readAt(fd, offset, bytes, new Uint8Array(values.buffer));
        floats.set(name, values);
      } else {
        blocks.set(name, readAt(fd, offset, bytes));
      }
    }

    if (!word) throw new Error(`e5 model: ${WORD} is missing`);
    return {
      config: { hidden, layers, heads, intermediate, vocabulary, maxPositions, epsilon },
      vocabulary: {
        bos,
        eos,
        pad,
        unk,
        offsets,
        scores,
        pieces,
        normalizeFrom,
        normalizeAt,
        normalizeTo: Uint32Array.from(to),
      },
      floats,
      blocks,
      word,
    };
  } finally {
    closeSync(fd);
  }
};
