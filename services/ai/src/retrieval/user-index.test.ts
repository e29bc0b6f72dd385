import { describe, expect, it } from 'vitest';
import { hashedEmbedding } from '../local/embeddings.js';
import { tokenize } from '../local/text.js';
import { UserIndex, type IndexedChunk } from './user-index.js';

const chunkOf = (noteId: string, text: string, index = 0): IndexedChunk => ({
  noteId,
  index,
  tokens: tokenize(text),
  vector: hashedEmbedding(text),
});

const texts = [
  'sourdough starter feeding schedule and flour ratios',
  'quarterly roadmap review with the customer feedback',
  'hiking the river trail up to the mountain hut',
  'tomato seedlings need repotting before the frost',
  'invoice reminders for the design agency',
];

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

describe('UserIndex', () => {
  it('scores by meaning within 1% of the exact cosine, though it keeps vectors as int8', () => {
    const index = new UserIndex(texts.map((text, i) => chunkOf(`n${i}`, text)));
    const query = hashedEmbedding('river mountain trail');
    const hits = index.semantic(query, 5);
    expect(hits[0]?.noteId).toBe('n2');
    for (const hit of hits) {
      const exact = cosine(query, hashedEmbedding(texts[Number(hit.noteId.slice(1))]!));
      expect(Math.abs(hit.score - exact)).toBeLessThan(0.01);
    }
  });

  it('replaces a changed note in place, reusing its row', () => {
    const index = new UserIndex(texts.map((text, i) => chunkOf(`n${i}`, text)));
    const replace = () => {
      index.removeNotes(['n0']);
      index.addChunks([chunkOf('n0', 'a packing list for the mountain hut weekend')]);
    };
    replace();
    const size = index.size;
    for (let i = 0; i < 50; i += 1) replace();
    expect(index.size).toBe(size);
    expect(index.chunkCount).toBe(texts.length);
    const [best] = index.semantic(
      hashedEmbedding('a packing list for the mountain hut weekend'),
      1,
    );
    expect(best?.noteId).toBe('n0');
    expect(best?.score).toBeCloseTo(1, 2);
    const old = index.semantic(hashedEmbedding(texts[0]!), 1);
    expect(old[0]?.noteId).not.toBe('n0');
    expect(index.lexical(tokenize('packing'), 5).map((hit) => hit.noteId)).toEqual(['n0']);
    const meaning = index.noteVector('n0');
    expect(meaning && Math.hypot(...meaning)).toBeCloseTo(1, 5);
  });

  it('counts its vectors for the cache budget at one byte per dimension', () => {
    const chunks = Array.from({ length: 1_000 }, (_, i) =>
      chunkOf(`m${i}`, `${texts[i % 5]} ${i}`),
    );
    const withVectors = new UserIndex(chunks);
    const without = new UserIndex(chunks.map((chunk) => ({ ...chunk, vector: null })));
    const dimensions = hashedEmbedding('x').length;
    // One byte per dimension and a four-byte scale per vector.
    expect(withVectors.size - without.size).toBe(1_000 * (dimensions + 4));
  });
});

describe('UserIndex with a retrieval encoder beside the embedding model', () => {
  /** A second space where the query's words are not its meaning: each text's vector by other words. */
  const other = (text: string) => hashedEmbedding(`other ${text.split(' ').reverse().join(' ')}`);
  const withRetrieval = (noteId: string, text: string, retrieval = true): IndexedChunk => ({
    ...chunkOf(noteId, text),
    retrievalVector: retrieval ? other(text) : null,
  });

  it('fuses both cosines as z-scores on the first model’s scale, and ranks by either when the other is silent', () => {
    const index = new UserIndex(texts.map((text, i) => withRetrieval(`n${i}`, text)));
    expect(index.hasRetrievalVectors).toBe(true);
    // The first space knows nothing of the query (a vector of no text); the second finds n3.
    const query = { vector: hashedEmbedding('zzz qqq'), retrievalVector: other(texts[3]!) };
    const [best] = index.meaning(query).nearest(5);
    expect(best?.noteId).toBe('n3');
    // By the first model alone, the same query finds nothing in particular.
    expect(index.meaning({ vector: query.vector }).nearest(1)[0]?.noteId).not.toBe('n3');
    expect(index.meaning(query).of('n3:0')).toBe(best?.score);
  });

  it('scores a chunk without a retrieval vector by the first model alone', () => {
    const index = new UserIndex([
      withRetrieval('n0', texts[0]!),
      withRetrieval('n1', texts[1]!, false),
      withRetrieval('n2', texts[2]!),
    ]);
    const query = { vector: hashedEmbedding(texts[1]!), retrievalVector: other(texts[1]!) };
    const first = index.meaning({ vector: query.vector }).of('n1:0');
    expect(index.meaning(query).of('n1:0')).toBeCloseTo(first!, 5);
  });

  it('takes up the first model’s scores scanned beforehand, unless the index changed since', () => {
    const index = new UserIndex(texts.map((text, i) => withRetrieval(`n${i}`, text)));
    const vector = hashedEmbedding('mountain hut packing list');
    const query = { vector, retrievalVector: other('mountain hut packing list') };
    const ranked = (scanned?: ReturnType<UserIndex['vectorScores']>) =>
      index.meaning({ ...query, vectorScores: scanned }).nearest(5);
    const before = ranked();
    expect(ranked(index.vectorScores(vector))).toEqual(before);
    // A note that changes after the scan: the scan is not read, the change is.
    const stale = index.vectorScores(vector);
    index.removeNotes(['n0']);
    index.addChunks([withRetrieval('n0', 'a packing list for the mountain hut weekend')]);
    const after = ranked(stale);
    expect(after[0]?.noteId).toBe('n0');
    expect(after).toEqual(ranked());
    // Another index's scan is never read.
    const elsewhere = new UserIndex([withRetrieval('x', 'unrelated words entirely')]);
    expect(ranked(elsewhere.vectorScores(vector))).toEqual(ranked());
  });

  it('counts the retrieval vectors for the cache budget too', () => {
    const chunks = texts.map((text, i) => withRetrieval(`n${i}`, text));
    const both = new UserIndex(chunks);
    const first = new UserIndex(chunks.map((chunk) => ({ ...chunk, retrievalVector: null })));
    // Rows are reserved 16 at a time.
    expect(both.size - first.size).toBe(16 * (hashedEmbedding('x').length + 4));
  });
});
