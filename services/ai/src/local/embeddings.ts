import { tokenize } from './text.js';

export const HASHED_EMBEDDING_MODEL = 'local-hashed-v1';
export const HASHED_DIMENSIONS = 512;

const UNIGRAM_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.5;
// Trigrams make typos and inflections overlap; a word has several, so each counts less.
const TRIGRAM_WEIGHT = 0.3;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over UTF-16 code units of `text[start, end)`, continuing from `seed`. */
const fnv1a = (text: string, start = 0, end = text.length, seed = FNV_OFFSET): number => {
  let hash = seed;
  for (let i = start; i < end; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
};

// Distinct seeds keep a word, a bigram and a trigram with the same characters apart.
const UNIGRAM_SEED = fnv1a('u');
const BIGRAM_SEED = fnv1a('b');
const TRIGRAM_SEED = fnv1a('t');

/** Murmur3's finaliser: spreads FNV's weak low bits before they pick a dimension and a sign. */
const mix = (hash: number): number => {
  let h = hash;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
};

const countFeature = (counts: Map<number, number>, hash: number): void => {
  counts.set(hash, (counts.get(hash) ?? 0) + 1);
};

const addFeatures = (vector: Float32Array, counts: Map<number, number>, weight: number): void => {
  for (const [hash, count] of counts) {
    const mixed = mix(hash);
    const index = mixed % HASHED_DIMENSIONS;
    const sign = mixed & 0x80000000 ? -1 : 1;
    vector[index]! += sign * weight * (1 + Math.log(count));
  }
};

/**
 * A unit vector for a text without a model: signed feature hashing of its terms, word bigrams
 * and the terms' character trigrams, with sublinear term frequency.
 */
export const hashedEmbedding = (text: string): Float32Array => {
  const tokens = tokenize(text);
  const unigrams = new Map<number, number>();
  const bigrams = new Map<number, number>();
  const trigrams = new Map<number, number>();
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    countFeature(unigrams, fnv1a(token, 0, token.length, UNIGRAM_SEED));
    const next = tokens[i + 1];
    if (next !== undefined) {
      const left = fnv1a(token, 0, token.length, BIGRAM_SEED);
      countFeature(bigrams, fnv1a(next, 0, next.length, fnv1a(' ', 0, 1, left)));
    }
    const bounded = `<${token}>`;
    for (let start = 0; start + 3 <= bounded.length; start++) {
      countFeature(trigrams, fnv1a(bounded, start, start + 3, TRIGRAM_SEED));
    }
  }
  const vector = new Float32Array(HASHED_DIMENSIONS);
  addFeatures(vector, unigrams, UNIGRAM_WEIGHT);
  addFeatures(vector, bigrams, BIGRAM_WEIGHT);
  addFeatures(vector, trigrams, TRIGRAM_WEIGHT);
  return normalizeInPlace(vector);
};

const normalizeInPlace = (vector: Float32Array): Float32Array => {
  let squares = 0;
  for (const value of vector) squares += value * value;
  if (squares === 0) return vector;
  const scale = 1 / Math.sqrt(squares);
  for (let i = 0; i < vector.length; i++) vector[i]! *= scale;
  return vector;
};

/** A unit-length copy of `vector`; a zero vector stays zero. */
export const normalize = (vector: Float32Array): Float32Array =>
  normalizeInPlace(Float32Array.from(vector));

/** Dot product: the cosine similarity of unit vectors. */
export const dot = (a: Float32Array, b: Float32Array): number => {
  if (a.length !== b.length) {
    throw new RangeError(`Vectors differ in length: ${a.length} and ${b.length}`);
  }
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
};

/** Cosine similarity; 0 when either vector is zero. */
export const cosine = (a: Float32Array, b: Float32Array): number => {
  const product = dot(a, b);
  let squaresA = 0;
  let squaresB = 0;
  for (let i = 0; i < a.length; i++) {
    squaresA += a[i]! * a[i]!;
    squaresB += b[i]! * b[i]!;
  }
  return squaresA === 0 || squaresB === 0 ? 0 : product / Math.sqrt(squaresA * squaresB);
};
