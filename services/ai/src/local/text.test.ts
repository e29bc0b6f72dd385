import { describe, expect, it } from 'vitest';
import { STOP_WORDS, analyze, queryTokens, tokenize } from './text.js';

describe('tokenize', () => {
  it('drops stop words and single letters and stems English words', () => {
    expect(tokenize('The meetings about a budget, and I was running')).toEqual([
      'meet',
      'budget',
      'run',
    ]);
    expect(tokenize('meeting')).toEqual(tokenize('meetings'));
    expect(STOP_WORDS.has('the')).toBe(true);
  });

  it('folds width and case (NFKC) and keeps numbers, decimals included', () => {
    expect(tokenize('ＡＢＣ Version 2024 costs 3.5 euros')).toEqual([
      'abc',
      'version',
      '2024',
      'cost',
      '3.5',
      'euro',
    ]);
  });

  it('handles apostrophes and hyphens inside words', () => {
    expect(tokenize("John's don't follow-up rock'n'roll")).toEqual(['john', 'follow', 'rocknrol']);
  });

  it('turns CJK runs into overlapping character bigrams', () => {
    expect(tokenize('東京都')).toEqual(['東京', '京都']);
    expect(tokenize('日')).toEqual(['日']);
    expect(tokenize('한국어 notes')).toEqual(['한국', '국어', 'note']);
  });

  it('keeps accented letters whole', () => {
    expect(tokenize('Café naïve Straße')).toEqual(['café', 'naïve', 'straße']);
  });
});

describe('analyze', () => {
  it('marks where punctuation separates words, for phrases', () => {
    const words = analyze('Budget meeting, finance team');
    expect(words.map((word) => [word.surface, word.breakBefore])).toEqual([
      ['budget', true],
      ['meeting', false],
      ['finance', true],
      ['team', false],
    ]);
  });
});

describe('queryTokens', () => {
  it('leaves out the words about taking notes, unless they are all the query says', () => {
    expect(queryTokens('What did I write about the kombucha?')).toEqual(tokenize('kombucha'));
    expect(queryTokens('my notes on the garage')).toEqual(tokenize('garage'));
    expect(queryTokens('notes')).toEqual(tokenize('notes'));
  });
});
