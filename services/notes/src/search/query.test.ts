import { describe, expect, it } from 'vitest';
import { searchTerms } from './query.js';

describe('searchTerms', () => {
  it('matches the last word as a prefix, and the others as words', () => {
    expect(searchTerms('team meet')).toEqual({
      words: 'team',
      prefix: { term: 'meet:*', join: 'and' },
      similar: 'team meet',
      excluded: '',
    });
  });

  it('joins the prefix with or after an or', () => {
    expect(searchTerms('budget OR meet')).toEqual({
      words: 'budget',
      prefix: { term: 'meet:*', join: 'or' },
      similar: 'budget meet',
      excluded: '',
    });
  });

  it('takes no prefix from a phrase, an exclusion, a trailing or, or punctuation', () => {
    for (const text of ['"team meeting"', '"team meet', 'team -budget', 'team or', "team don't"]) {
      const terms = searchTerms(text);
      expect(terms.prefix, text).toBeUndefined();
      expect(terms.words, text).toBe(text);
    }
  });

  it('keeps letters of any script in a prefix, and nothing a tsquery would read as syntax', () => {
    expect(searchTerms('会议')).toMatchObject({ words: '', prefix: { term: '会议:*' } });
    expect(searchTerms("a:*|b'")).toEqual({ words: "a:*|b'", similar: "a:*|b'", excluded: '' });
  });

  it('leaves quotes, exclusions and or out of the words for the typo fallback', () => {
    expect(searchTerms('"meetng notes" -budget or plan -"q3"')).toMatchObject({
      similar: 'meetng notes plan',
      excluded: 'budget or q3',
    });
  });
});
