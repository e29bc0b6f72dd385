import { describe, expect, it } from 'vitest';
import { firstImage, markdownBlocks, mostlyCjk, withoutImages } from './markdown.js';

describe('markdownBlocks', () => {
  it('shows [[wiki links]] as their label, marked, and leaves them alone inside code', () => {
    const [paragraph] = markdownBlocks('See [[trip plan|the trip]] and [[Oven]] and `[[code]]`.');
    expect(paragraph).toEqual({
      type: 'paragraph',
      inlines: [
        { text: 'See ' },
        { text: 'the trip', wiki: true },
        { text: ' and ' },
        { text: 'Oven', wiki: true },
        { text: ' and ' },
        { text: '[[code]]', code: true },
        { text: '.' },
      ],
    });
  });

  it('reads task lists, nested lists and tables', () => {
    const blocks = markdownBlocks(
      '- [x] done\n- [ ] open\n  1. nested\n\n| a | b |\n| - | -: |\n| 1 | **2** |',
    );
    expect(blocks[0]).toMatchObject({
      type: 'list',
      items: [
        { checked: true, blocks: [{ type: 'paragraph', inlines: [{ text: 'done' }] }] },
        {
          checked: false,
          blocks: [{ type: 'paragraph' }, { type: 'list', ordered: true, start: 1 }],
        },
      ],
    });
    expect(blocks[1]).toEqual({
      type: 'table',
      align: [null, 'right'],
      rows: [
        [[{ text: 'a' }], [{ text: 'b' }]],
        [[{ text: '1' }], [{ text: '2', bold: true }]],
      ],
    });
  });

  it('takes images out of paragraphs as blocks of their own, in order', () => {
    const blocks = markdownBlocks('Before ![one](/a.png) after\n\n> ![two](/b.png)');
    expect(blocks.map((block) => block.type)).toEqual(['paragraph', 'image', 'paragraph', 'quote']);
    expect(firstImage(blocks)).toEqual({ type: 'image', url: '/a.png', alt: 'one' });
    expect(firstImage(blocks.slice(3))).toEqual({ type: 'image', url: '/b.png', alt: 'two' });
    expect(firstImage(withoutImages(blocks))).toBeNull();
  });

  it('keeps a link only to http, https or mailto; any other is plain text, as the card shows it', () => {
    const [paragraph] = markdownBlocks(
      '[web](HTTPS://Example.com/a) [js](< JaVaScRiPt:alert(1)>) [ref][r] [here](/notes/1)\n\n' +
        '[r]: vbscript:msgbox(1)',
    );
    expect(paragraph).toEqual({
      type: 'paragraph',
      inlines: [
        { text: 'web', link: 'https://example.com/a' },
        { text: ' ' },
        { text: 'js' },
        { text: ' ' },
        { text: 'ref' },
        { text: ' ' },
        { text: 'here' },
      ],
    });
  });

  it('prints raw HTML as its text, never as markup', () => {
    expect(markdownBlocks('<b>raw</b> <i>text</i>\n\n<div>\nblock<br>two\n</div>')).toEqual([
      { type: 'paragraph', inlines: [{ text: 'raw' }, { text: ' ' }, { text: 'text' }] },
      { type: 'paragraph', inlines: [{ text: 'block\ntwo' }] },
    ]);
  });
});

describe('mostlyCjk', () => {
  it('counts a Chinese character about as much as an English word', () => {
    expect(mostlyCjk('今天我们讨论了笔记导出的设计')).toBe(true);
    expect(mostlyCjk('Export design notes for the PDF and the image card')).toBe(false);
    expect(mostlyCjk('导出设计 Export design 今天我们讨论了设计')).toBe(true);
  });
});
