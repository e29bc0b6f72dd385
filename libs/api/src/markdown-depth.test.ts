import { describe, expect, it } from 'vitest';
import { MARKDOWN_MAX_DEPTH, markdownDepth } from './markdown-depth.js';

describe('markdownDepth', () => {
  it('counts how deeply quotes and lists nest at the start of a line', () => {
    expect(markdownDepth('plain text\n\nmore')).toBe(0);
    expect(markdownDepth('- a\n  - b\n    - c')).toBe(3);
    expect(markdownDepth('> quote\n> > nested\n> > > deeper')).toBe(3);
    expect(markdownDepth('1. one\n   2) two')).toBe(2);
    expect(markdownDepth('> - [ ] a todo in a quote')).toBe(2);
  });

  it('takes emphasis, rules and numbers that are not markers for what they are', () => {
    expect(markdownDepth('*emphasis* and **strong**')).toBe(0);
    expect(markdownDepth('---\n***\nyear 2024. was good')).toBe(0);
    expect(markdownDepth('-not a list')).toBe(0);
  });

  it('skips fenced code, however indented its lines', () => {
    const code = [
      '```',
      ...Array.from({ length: 50 }, (_, i) => `${' '.repeat(i * 2)}- ${i}`),
      '```',
    ];
    expect(markdownDepth(code.join('\n'))).toBe(0);
    expect(markdownDepth(`~~~\n${'> '.repeat(100)}\n~~~\n- after`)).toBe(1);
  });

  it('finds the shapes built to cost a reader its time, and stops counting past the limit', () => {
    expect(markdownDepth(`${'- '.repeat(100_000)}x`)).toBe(MARKDOWN_MAX_DEPTH + 1);
    expect(markdownDepth('>'.repeat(100_000))).toBe(MARKDOWN_MAX_DEPTH + 1);
    const stairs = Array.from({ length: 400 }, (_, i) => `${' '.repeat(i * 2)}- x`).join('\n');
    expect(markdownDepth(stairs)).toBeGreaterThan(MARKDOWN_MAX_DEPTH);
    expect(markdownDepth('#'.repeat(100_000))).toBe(0);
  });
});
