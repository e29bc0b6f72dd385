import { describe, expect, it } from 'vitest';
import { corpusNotes, corpusQuestions } from '../test/retrieval-corpus.js';
import { evaluateRetrieval, indexOfNotes } from './evaluate.js';

describe('retrieval quality on the fixture corpus', () => {
  const quality = evaluateRetrieval(indexOfNotes(corpusNotes), corpusQuestions);
  const of = (ranker: string) => quality.find((row) => row.ranker === ranker);

  it('finds the answering note among the first five for most questions, by every ranker', () => {
    for (const row of quality) expect(row.recallAt5, row.ranker).toBeGreaterThan(0.7);
  });

  it('ranks better fused than by meaning alone, and close to words alone', () => {
    // The local hashed embeddings know no synonyms, so on this corpus words lead; the fusion
    // must not lose much of that while it adds what meaning finds (more with a real model).
    expect(of('hybrid')?.mrr).toBeGreaterThan(of('semantic')?.mrr ?? 1);
    expect(of('hybrid')?.recallAt5).toBeGreaterThan(of('semantic')?.recallAt5 ?? 1);
    expect(of('hybrid')?.mrr).toBeGreaterThanOrEqual((of('bm25')?.mrr ?? 0) - 0.05);
    expect(of('hybrid')?.recallAt5).toBeGreaterThanOrEqual((of('bm25')?.recallAt5 ?? 0) - 0.05);
  });
});
