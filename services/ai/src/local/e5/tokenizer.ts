import type { E5Vocabulary } from './model.js';

export type E5Kind = 'query' | 'passage';

/** What e5 puts before a text, as its model card asks: e5.c adds it before tokenizing. */
export const E5_PREFIXES: Readonly<Record<E5Kind, string>> = {
  query: 'query: ',
  passage: 'passage: ',
};

/**
 * XLM-RoBERTa's SentencePiece unigram tokenizer as e5.c runs it (`tok_content`): the
 * Precompiled normalizer as a per-code-point map, runs of spaces collapsed, a leading U+2581
 * and every space as U+2581, then the Viterbi segmentation over the pieces by bytes. The ids
 * match e5.c's on the strings of `e5.test.ts`.
 *
 * It is not local/use's sentencepiece.ts, whose Viterbi this would otherwise share: e5.c
 * differs from sentencepiece where the ids show it, and the port follows e5.c. It sums scores
 * in float32 (ties break as there), gives each unknown character its own `<unk>` (sentencepiece
 * merges a run into one), matches the control pieces too (a literal `<s>` in a text is piece
 * 0, score 0), and looks pieces up by their bytes in e5.c's open-addressing table (6.6 MB with
 * the pieces themselves, where a Map of 250,002 strings would hold far more on the JS heap).
 */
export interface E5Tokenizer {
  readonly bos: number;
  readonly eos: number;
  /**
   * The piece ids of the kind's prefix and `text`, without `<s>` and `</s>`. As in C, the text
   * ends at its first NUL; an unpaired surrogate is U+FFFD, as it is in UTF-8.
   */
  content(text: string, kind: E5Kind): Int32Array;
}

/** U+2581, SentencePiece's space. */
const META = 0x2581;
const SPACE = 0x20;
/** Below the lowest piece score, an unknown character's (sentencepiece's and e5.c's penalty). */
const UNKNOWN_PENALTY = 10;
const UNREACHED = Math.fround(-1e30);
/** FNV-1a 64-bit as e5.c hashes pieces; only its low 32 bits index the table. */
const FNV_BASIS = 0x84222325 | 0;
const FNV_PRIME = 0x1b3;

const utf8 = (cp: number, out: Uint8Array, at: number): number => {
  if (cp < 0x80) {
    out[at] = cp;
    return 1;
  }
  if (cp < 0x800) {
    out[at] = 0xc0 | (cp >> 6);
    out[at + 1] = 0x80 | (cp & 0x3f);
    return 2;
  }
  if (cp < 0x10000) {
    out[at] = 0xe0 | (cp >> 12);
    out[at + 1] = 0x80 | ((cp >> 6) & 0x3f);
    out[at + 2] = 0x80 | (cp & 0x3f);
    return 3;
  }
  out[at] = 0xf0 | (cp >> 18);
  out[at + 1] = 0x80 | ((cp >> 12) & 0x3f);
  out[at + 2] = 0x80 | ((cp >> 6) & 0x3f);
  out[at + 3] = 0x80 | (cp & 0x3f);
  return 4;
};

export const createE5Tokenizer = (vocabulary: E5Vocabulary): E5Tokenizer => {
  const { bos, eos, unk, offsets, scores, pieces, normalizeFrom, normalizeAt, normalizeTo } =
    vocabulary;
  const count = scores.length;
  let lowest = Infinity;
  let longest = 1;
  for (let i = 0; i < count; i++) {
    lowest = Math.min(lowest, scores[i]!);
    longest = Math.max(longest, offsets[i + 1]! - offsets[i]!);
  }
  const unknownScore = Math.fround(lowest - UNKNOWN_PENALTY);

  // Piece index + 1 by hash, linear probing, at most half full (e5.c's table).
  let bits = 1;
  while (1 << bits < count * 2) bits++;
  const mask = (1 << bits) - 1;
  const table = new Int32Array(1 << bits);
  for (let i = 0; i < count; i++) {
    const start = offsets[i]!;
    const end = offsets[i + 1]!;
    if (end === start) continue;
    let hash = FNV_BASIS;
    for (let j = start; j < end; j++) hash = Math.imul(hash ^ pieces[j]!, FNV_PRIME);
    let slot = hash & mask;
    while (table[slot]) slot = (slot + 1) & mask;
    table[slot] = i + 1;
  }
  /** The piece whose bytes are `bytes[start, start + length)` (hashed to `hash`), or -1. */
  const lookup = (hash: number, bytes: Uint8Array, start: number, length: number): number => {
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = table[slot]!;
      if (entry === 0) return -1;
      const from = offsets[entry - 1]!;
      if (offsets[entry]! - from === length) {
        let same = true;
        for (let j = 0; j < length && same; j++) same = pieces[from + j] === bytes[start + j];
        if (same) return entry - 1;
      }
    }
  };

  /** The normalizer map's entry for `cp`, or -1 (binary search, as e5.c). */
  const normalized = (cp: number): number => {
    let low = 0;
    let high = normalizeFrom.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const value = normalizeFrom[mid]!;
      if (value === cp) return mid;
      if (value < cp) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  };

  /** The normalized code points of `text`, runs of spaces collapsed. */
  const codePoints = (text: string): number[] => {
    const out: number[] = [];
    const push = (cp: number) => {
      if (cp === SPACE && out[out.length - 1] === SPACE) return;
      out.push(cp);
    };
    for (let i = 0; i < text.length; i++) {
      let cp = text.charCodeAt(i);
      if (cp === 0) break;
      if (cp >= 0xd800 && cp < 0xe000) {
        const next = text.charCodeAt(i + 1);
        if (cp < 0xdc00 && next >= 0xdc00 && next < 0xe000) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (next - 0xdc00);
          i++;
        } else {
          cp = 0xfffd;
        }
      }
      const entry = normalized(cp);
      if (entry < 0) push(cp);
      else
        for (let k = normalizeAt[entry]!; k < normalizeAt[entry + 1]!; k++) push(normalizeTo[k]!);
    }
    return out;
  };

  return {
    bos,
    eos,
    content(text, kind) {
      const cps = codePoints(E5_PREFIXES[kind] + text);
      // Normalized UTF-8, spaces as U+2581 and one in front unless the text starts with a
      // space; `starts[c]` is where character c starts (the front U+2581 is character 0).
      const bytes = new Uint8Array(cps.length * 4 + 4);
      const starts = new Int32Array(cps.length + 2);
      let length = 0;
      let n = 0;
      if (cps.length === 0 || cps[0] !== SPACE) {
        starts[n++] = 0;
        length += utf8(META, bytes, length);
      }
      for (const cp of cps) {
        starts[n++] = length;
        length += utf8(cp === SPACE ? META : cp, bytes, length);
      }
      starts[n] = length;

      // Viterbi: best[c] is the best score of a segmentation of characters [0, c).
      const best = new Float32Array(n + 1).fill(UNREACHED);
      const piece = new Int32Array(n + 1);
      const from = new Int32Array(n + 1);
      best[0] = 0;
      for (let i = 0; i < n; i++) {
        const base = best[i]!;
        if (base <= -1e29) continue;
        const start = starts[i]!;
        let hash = FNV_BASIS;
        let hashed = start;
        for (let end = i + 1; end <= n; end++) {
          const span = starts[end]! - start;
          if (span > longest) break;
          for (; hashed < starts[end]!; hashed++)
            hash = Math.imul(hash ^ bytes[hashed]!, FNV_PRIME);
          const id = lookup(hash, bytes, start, span);
          if (id >= 0 && id !== unk) {
            const score = Math.fround(base + scores[id]!);
            if (score > best[end]!) {
              best[end] = score;
              piece[end] = id;
              from[end] = i;
            }
          }
        }
        const unknown = Math.fround(base + unknownScore);
        if (unknown > best[i + 1]!) {
          best[i + 1] = unknown;
          piece[i + 1] = unk;
          from[i + 1] = i;
        }
      }
      const ids: number[] = [];
      for (let at = n; at > 0; at = from[at]!) ids.push(piece[at]!);
      return Int32Array.from(ids.reverse());
    },
  };
};
