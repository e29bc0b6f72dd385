import { describe, expect, it } from 'vitest';
import { wikiTitles } from './wiki.js';

describe('wikiTitles', () => {
  it('reads [[Title]] and [[Title|shown text]], trimmed, once per title whatever the case', () => {
    expect(wikiTitles('See [[Rust]], [[ Go |the Go note]] and [[rust]] again; [[Go]].')).toEqual([
      'Rust',
      'Go',
    ]);
  });

  it('ignores empty, unclosed, nested and multi-line brackets', () => {
    expect(wikiTitles('[[]] [[ ]] [[open [x] [[a\nb]] [[|alias]] [single]')).toEqual([]);
    expect(wikiTitles('[[[Inner]]]')).toEqual(['Inner']);
  });
});
