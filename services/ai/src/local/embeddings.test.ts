import { describe, expect, it } from 'vitest';
import { HASHED_DIMENSIONS, cosine, dot, hashedEmbedding, normalize } from './embeddings.js';

const length = (vector: Float32Array): number => Math.sqrt(dot(vector, vector));

describe('hashedEmbedding', () => {
  it('is a unit vector of the declared size', () => {
    const vector = hashedEmbedding('Meeting notes about the budget for next quarter');
    expect(vector).toHaveLength(HASHED_DIMENSIONS);
    expect(length(vector)).toBeCloseTo(1, 5);
  });

  it('is deterministic', () => {
    const text = 'Grocery list: milk, eggs, bread';
    expect(Array.from(hashedEmbedding(text))).toEqual(Array.from(hashedEmbedding(text)));
  });

  it('gives a zero vector, not NaN, for a text without words', () => {
    const vector = hashedEmbedding('the of and ...');
    expect(vector.every((value) => value === 0)).toBe(true);
    expect(cosine(vector, hashedEmbedding('budget'))).toBe(0);
  });

  it('places a paraphrase sharing words and inflections nearer than an unrelated text', () => {
    const query = hashedEmbedding('meeting notes about the budget');
    const paraphrase = hashedEmbedding('budget meetings');
    const unrelated = hashedEmbedding('my cat sleeps on the sofa all afternoon');
    expect(cosine(query, paraphrase)).toBeGreaterThan(0.5);
    expect(cosine(query, paraphrase)).toBeGreaterThan(cosine(query, unrelated) + 0.3);
  });

  it('still finds a misspelt word through character trigrams', () => {
    const typo = hashedEmbedding('recipie');
    expect(cosine(typo, hashedEmbedding('recipe'))).toBeGreaterThan(
      cosine(typo, hashedEmbedding('quarterly sales report')),
    );
    expect(cosine(typo, hashedEmbedding('recipe'))).toBeGreaterThan(0.15);
  });

  it('weights repeated words sublinearly', () => {
    const repeated = hashedEmbedding(
      'budget budget budget budget budget budget budget budget travel',
    );
    // Raw counts would leave "travel" about 0.1 of the vector; 1 + log(tf) keeps it near 0.3.
    expect(cosine(repeated, hashedEmbedding('travel'))).toBeGreaterThan(0.2);
  });
});

describe('cosine and normalize', () => {
  it('measures the angle between vectors of any length', () => {
    const a = Float32Array.from([3, 4]);
    const b = Float32Array.from([6, 8]);
    const c = Float32Array.from([-4, 3]);
    expect(cosine(a, b)).toBeCloseTo(1, 6);
    expect(cosine(a, c)).toBeCloseTo(0, 6);
  });

  it('normalizes to unit length without touching the input, and leaves zero vectors zero', () => {
    const input = Float32Array.from([3, 4]);
    expect(Array.from(normalize(input))).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    expect(Array.from(input)).toEqual([3, 4]);
    expect(Array.from(normalize(new Float32Array(3)))).toEqual([0, 0, 0]);
  });

  it('refuses vectors of different sizes', () => {
    expect(() => cosine(new Float32Array(2), new Float32Array(3))).toThrow(RangeError);
  });
});
