import { Tag } from '@noted/api';
import { describe, expect, it } from 'vitest';
import { mergeTags, tagOf, TAGS_MAX } from './tags.js';

describe('tags of imported notes', () => {
  it('makes front matter and Notion tags ones the notes service takes', () => {
    const raw = [
      '#Project X',
      ' work ',
      'a,b',
      'Q1 planning',
      `${'long'.repeat(20)}`,
      '##',
      '工作',
    ];
    const tags = raw.map(tagOf);
    expect(tags).toEqual([
      'Project-X',
      'work',
      'a-b',
      'Q1-planning',
      'long'.repeat(16),
      undefined,
      '工作',
    ]);
    for (const tag of tags) if (tag !== undefined) expect(Tag.safeParse(tag).success).toBe(true);
  });

  it('merges lists once each, the first spelling kept, at most as many as a note holds', () => {
    expect(mergeTags(['Work', 'idea'], ['work', 'new'])).toEqual(['Work', 'idea', 'new']);
    const many = Array.from({ length: 80 }, (_, i) => `t${i}`);
    expect(mergeTags(many)).toHaveLength(TAGS_MAX);
  });
});
