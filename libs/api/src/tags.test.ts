import { describe, expect, it } from 'vitest';
import { hashTags } from './tags.js';

describe('hashTags', () => {
  it('finds #tags anywhere in prose, first spelling kept, without repeats', () => {
    expect(hashTags('Milk and eggs #home #errands\nCall #Home later')).toEqual(['home', 'errands']);
  });

  it('reads tags in any script, nested with a slash, and drops trailing punctuation', () => {
    expect(hashTags('周末 #生活 and #work/q4- (#idea)')).toEqual(['生活', 'work/q4', 'idea']);
  });

  it('does not take headings, anchors, words with # inside, or code', () => {
    const text = [
      '# Heading',
      'See https://example.org/#section and C#sharp',
      '`#inline` and',
      '```',
      '#fenced',
      '```',
      'but #real',
    ].join('\n');
    expect(hashTags(text)).toEqual(['real']);
  });

  it('leaves out a tag longer than the service accepts', () => {
    expect(hashTags(`#${'x'.repeat(65)} #ok`)).toEqual(['ok']);
  });
});
