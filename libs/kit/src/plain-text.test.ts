import { describe, expect, it } from 'vitest';
import { plainText, sentences } from './plain-text.js';

describe('plainText', () => {
  it('keeps what a reader sees and drops the Markdown around it', () => {
    const markdown = [
      '# Weekly *plan* #',
      '- [ ] Buy **milk** and [eggs](https://shop.example/eggs)',
      '- [x] Call [[Mom|mother]] about the trip ![photo](trip.png)',
      '1. Read `the code`',
      '> quoted _text_ keeps snake_case_names',
      '```ts',
      'const answer = 42;',
      '```',
      '---',
      'See [[Project Plan]] and <https://example.com>.',
    ].join('\n');
    expect(plainText(markdown)).toBe(
      [
        'Weekly plan',
        'Buy milk and eggs',
        'Call mother about the trip',
        'Read the code',
        'quoted text keeps snake_case_names',
        'const answer = 42;',
        '',
        'See Project Plan and https://example.com.',
      ].join('\n'),
    );
  });

  it('collapses whitespace within lines', () => {
    expect(plainText('  lots   of\t space  \n\n\n\nnext')).toBe('lots of space\n\nnext');
  });
});

describe('sentences', () => {
  it('splits on sentence ends and line breaks', () => {
    expect(sentences('First one. Second one! Third?\nA list item\n\nLast')).toEqual([
      'First one.',
      'Second one!',
      'Third?',
      'A list item',
      'Last',
    ]);
  });

  it('keeps abbreviations, initials and decimals inside their sentence', () => {
    expect(
      sentences(
        'Bring fruit, e.g. apples. It costs 3.5 euros. Dr. Smith met J. Doe in the U.S. today.',
      ),
    ).toEqual([
      'Bring fruit, e.g. apples.',
      'It costs 3.5 euros.',
      'Dr. Smith met J. Doe in the U.S. today.',
    ]);
  });

  it('splits Chinese and Japanese sentences without spaces', () => {
    expect(sentences('今日は晴れ。明日は雨です！本当？')).toEqual([
      '今日は晴れ。',
      '明日は雨です！',
      '本当？',
    ]);
  });

  it('drops pieces without words', () => {
    expect(sentences('... \n---\n Words here. ')).toEqual(['Words here.']);
  });
});
