import { describe, expect, it } from 'vitest';
import {
  asSentence,
  markdownBlocks,
  paragraphSentences,
  repeatsTitle,
  sameText,
} from './structure.js';

describe('markdownBlocks', () => {
  it('tells headings, paragraphs, lists, tables and code apart, each under its heading', () => {
    const blocks = markdownBlocks(
      [
        '# Trip',
        'We land at **9**.',
        '',
        'Bring:',
        '- [ ] passport',
        '  - the new one',
        '- [x] charger',
        '',
        '| Day | Plan |',
        '|---|---|',
        '| 1 | [Museum](https://example.com) |',
        '',
        '```sh',
        'echo hi',
        '```',
        'Later',
        '-----',
        'Done.',
      ].join('\n'),
    );
    expect(blocks).toEqual([
      { heading: null, kind: 'heading', depth: 1, text: 'Trip' },
      { heading: 'Trip', kind: 'paragraph', lines: ['We land at 9.'] },
      {
        heading: 'Trip',
        kind: 'list',
        lead: 'Bring',
        items: [
          { text: 'passport', depth: 0, task: 'open', parent: null },
          { text: 'the new one', depth: 1, task: null, parent: 'passport' },
          { text: 'charger', depth: 0, task: 'done', parent: null },
        ],
      },
      { heading: 'Trip', kind: 'table', header: ['Day', 'Plan'], rows: [['1', 'Museum']] },
      { heading: 'Trip', kind: 'code', lines: ['echo hi'] },
      { heading: 'Trip', kind: 'heading', depth: 2, text: 'Later' },
      { heading: 'Later', kind: 'paragraph', lines: ['Done.'] },
    ]);
  });

  it('joins an item’s continuation lines to it', () => {
    const [list] = markdownBlocks('- send the deck\nby Friday\n- call Sam\n\n  about the room');
    expect(list).toMatchObject({
      kind: 'list',
      items: [{ text: 'send the deck by Friday' }, { text: 'call Sam about the room' }],
    });
  });
});

describe('sentences for reading', () => {
  it('ends a sentence with the punctuation of its language', () => {
    expect(asSentence('Buy milk')).toBe('Buy milk.');
    expect(asSentence('Is it done?')).toBe('Is it done?');
    expect(asSentence('Next steps:')).toBe('Next steps.');
    expect(asSentence('给妈妈打电话')).toBe('给妈妈打电话。');
  });

  it('joins wrapped lines only', () => {
    expect(paragraphSentences(['It was longer than', 'we thought. Then', 'Lunch'])).toEqual([
      'It was longer than we thought.',
      'Then',
      'Lunch',
    ]);
  });

  it('knows a sentence that only repeats the title', () => {
    expect(sameText('Sunday, March 2', 'sunday march 2')).toBe(true);
    expect(
      repeatsTitle(
        'Meeting with the landlord about the rent.',
        'Meeting with the landlord about the rent',
      ),
    ).toBe(true);
    expect(repeatsTitle('Tidal power is a form of hydropower.', 'Tidal power')).toBe(false);
  });
});
