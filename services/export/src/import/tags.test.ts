import { Tag } from '@noted/api';
import { describe, expect, it } from 'vitest';
import { hashTags, mergeTags, tagOf, TAGS_MAX } from './tags.js';

// The composer's own module, loaded by path: a service cannot depend on a frontend package,
// so tags.ts holds a copy of its rule, and this keeps the two one rule.
const composerModule = new URL(
  '../../../../frontends/notes/src/composer/hashTags.ts',
  import.meta.url,
).href;

const texts = [
  'Milk and eggs #home #errands\nCall #Home later',
  '周末 #生活 and #work/q4- (#idea)',
  '# Heading\nSee https://example.org/#section and C#sharp\n`#inline` and\n```\n#fenced\n```\nbut #real',
  `#${'x'.repeat(65)} #ok`,
  '“#引号” 、#顿号 ，#逗号',
  '#a_b_ #-no #1st ~~~\n#tilde\n~~~',
];

describe('tags of imported notes', () => {
  it('reads #tags in a body by the same rule as the app’s composer', async () => {
    const composer = (await import(composerModule)) as { hashTags: (text: string) => string[] };
    for (const text of texts) expect(hashTags(text)).toEqual(composer.hashTags(text));
    expect(hashTags(texts[1]!)).toEqual(['生活', 'work/q4', 'idea']);
  });

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
