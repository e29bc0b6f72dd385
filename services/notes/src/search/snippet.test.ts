import { describe, expect, it } from 'vitest';
import { markedWords, searchSnippet } from './snippet.js';

describe('search snippets', () => {
  it('takes the marked words of the headlines, decoded, once each', () => {
    expect(
      markedWords(
        '<mark>Tom</mark> &amp; <mark>Jerry</mark>',
        'a <mark>tom</mark> <mark>&lt;b&gt;</mark>',
      ),
    ).toEqual(['tom', 'jerry', '<b>']);
    expect(markedWords(null, 'no marks')).toEqual([]);
  });

  it('marks whole words only, in any case, and escapes the rest', () => {
    expect(searchSnippet('Cats & cat food; concatenate CAT.', ['cat'])).toBe(
      'Cats &amp; <mark>cat</mark> food; concatenate <mark>CAT</mark>.',
    );
  });

  it('starts a little before a match deep into a long sentence', () => {
    const long = `${'word '.repeat(60)}needle and then some more words after it`;
    const snippet = searchSnippet(long, ['needle']) ?? '';
    expect(snippet.startsWith('…word')).toBe(true);
    expect(snippet).toContain('<mark>needle</mark>');
    expect(snippet.replace(/<\/?mark>/g, '').length).toBeLessThanOrEqual(202);
  });

  it('finds a word inside a run of Chinese characters', () => {
    expect(searchSnippet('周末去超市买牛奶。然后回家。', ['超市'])).toBe(
      '周末去<mark>超市</mark>买牛奶。然后回家。',
    );
  });

  it('is undefined when the text a reader sees holds none of the words', () => {
    expect(searchSnippet('See [the docs](https://example.com/needle)', ['needle'])).toBeUndefined();
    expect(searchSnippet('anything', [])).toBeUndefined();
  });
});
