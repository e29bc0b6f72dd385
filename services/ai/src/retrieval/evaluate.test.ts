import { describe, expect, it } from 'vitest';
import { QUESTION_GROUPS, corpusNotes, corpusQuestions } from '../test/retrieval-corpus.js';
import { loadSentenceEncoder } from '../local/use/encoder.js';
import { DEFAULT_USE_MODEL_DIR } from '../local/use/model-dir.js';
import { ALL_QUESTIONS, evaluateRetrieval, indexOfNotes } from './evaluate.js';

describe('retrieval quality on the fixture corpus', () => {
  const index = indexOfNotes(corpusNotes);
  const quality = evaluateRetrieval(index, corpusQuestions);

  // The local hashed embeddings know no synonyms and no translations: reworded and cross-language
  // questions need a real model (npm run eval:ai measures them with the sentence encoder). Here
  // the thresholds hold for the questions that share words with their notes.
  const wordMatching = corpusQuestions.filter(
    ({ group }) => group !== 'reworded' && group !== 'cross',
  );
  const matched = evaluateRetrieval(index, wordMatching);

  it('gives the figures per question group and for all questions', () => {
    for (const row of quality) {
      expect(Object.keys(row.groups)).toEqual([...QUESTION_GROUPS, ALL_QUESTIONS]);
      // A question no note answers counts in its group only.
      expect(row.groups[ALL_QUESTIONS]).toEqual({
        questions: corpusQuestions.filter(({ relevant }) => relevant.length > 0).length,
        recallAt5: row.recallAt5,
        mrr: row.mrr,
      });
      const perGroup = QUESTION_GROUPS.map((group) => row.groups[group]?.questions ?? 0);
      expect(perGroup.reduce((sum, count) => sum + count, 0)).toBe(corpusQuestions.length);
    }
  });

  it('finds the answering note among the first five for most word-matching questions, by every ranker', () => {
    for (const row of matched) expect(row.recallAt5, row.ranker).toBeGreaterThan(0.7);
  });

  it('ranks, with the sentence encoder, at least as well fused as by meaning alone in every group', () => {
    const encoder = loadSentenceEncoder(DEFAULT_USE_MODEL_DIR);
    const embed = (texts: string[]) => encoder.embed(texts);
    const [bm25, semantic, hybrid] = evaluateRetrieval(
      indexOfNotes(corpusNotes, embed),
      corpusQuestions,
      ['bm25', 'semantic', 'hybrid'],
      embed,
    );
    for (const group of [...QUESTION_GROUPS, ALL_QUESTIONS]) {
      expect(hybrid!.groups[group]!.recallAt5, group).toBeGreaterThanOrEqual(
        semantic!.groups[group]!.recallAt5,
      );
      expect(hybrid!.groups[group]!.mrr, group).toBeGreaterThanOrEqual(
        semantic!.groups[group]!.mrr,
      );
    }
    // Words still lead where the question uses the note's own words.
    expect(hybrid!.groups.keyword!.mrr).toBeGreaterThanOrEqual(bm25!.groups.keyword!.mrr - 0.05);
    // 0.769 on the grown set (0.839 on the easier one before it): a guard against falling back.
    expect(hybrid!.recallAt5).toBeGreaterThanOrEqual(0.76);
  }, 120_000);
});
