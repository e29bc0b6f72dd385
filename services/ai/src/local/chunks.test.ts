import { describe, expect, it } from 'vitest';
import { chunkNote } from './chunks.js';

const paragraph = (topic: string, sentences: number): string =>
  Array.from(
    { length: sentences },
    (_, i) => `Sentence ${i + 1} about ${topic} explains one more detail of the ${topic} plan.`,
  ).join(' ');

const body = [
  '# Garden',
  paragraph('tomatoes', 6),
  '## Tools',
  paragraph('shovels', 9),
  '- a list item\n- another list item',
  paragraph('compost', 3),
].join('\n\n');

const wordsOf = (text: string): string[] => text.split(/\s+/).filter(Boolean);

describe('chunkNote', () => {
  it('keeps every chunk within maxChars, the title line included', () => {
    const chunks = chunkNote({ title: 'Allotment', body }, { maxChars: 300, overlapChars: 60 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(300);
  });

  it('covers all the text, in order, without cutting words', () => {
    const chunks = chunkNote({ title: '', body }, { maxChars: 250, overlapChars: 0 });
    expect(chunks.flatMap((chunk) => wordsOf(chunk.text))).toEqual(wordsOf(body));
  });

  it('numbers chunks from 0 and puts the title on its own first line of each', () => {
    const chunks = chunkNote({ title: 'Allotment', body }, { maxChars: 300 });
    expect(chunks.map((chunk) => chunk.index)).toEqual(chunks.map((_, i) => i));
    for (const chunk of chunks) expect(chunk.text.startsWith('Allotment\n')).toBe(true);
  });

  it('repeats the tail of the previous chunk, from a word start', () => {
    const text = paragraph('beans', 20);
    const chunks = chunkNote({ title: '', body: text }, { maxChars: 200, overlapChars: 50 });
    expect(chunks.length).toBeGreaterThan(2);
    for (let i = 1; i < chunks.length; i++) {
      const previous = chunks[i - 1]!.text;
      const overlap = wordsOf(chunks[i]!.text).slice(0, 3).join(' ');
      expect(previous).toContain(overlap);
      expect(previous.slice(-60)).toContain(overlap);
    }
    const words = new Set(wordsOf(text));
    for (const chunk of chunks)
      for (const word of wordsOf(chunk.text)) expect(words).toContain(word);
  });

  it('starts a new chunk at a heading once the current one is half full', () => {
    // "# Garden" and its paragraph take about 470 of 800 characters; "## Tools" would fit too.
    const chunks = chunkNote({ title: '', body }, { maxChars: 800 });
    expect(chunks[0]!.text).toMatch(/^# Garden/);
    expect(chunks[1]!.text).toMatch(/^## Tools/);
  });

  it('keeps a short note whole in one chunk', () => {
    expect(chunkNote({ title: 'Groceries', body: 'Milk, eggs and bread.' })).toEqual([
      { index: 0, text: 'Groceries\nMilk, eggs and bread.' },
    ]);
  });

  it('gives the title alone for an empty body, and nothing for an empty note', () => {
    expect(chunkNote({ title: 'Just a title', body: '  \n ' })).toEqual([
      { index: 0, text: 'Just a title' },
    ]);
    expect(chunkNote({ title: '', body: '' })).toEqual([]);
  });

  it('cuts only a single word longer than a chunk', () => {
    const url = `https://example.com/${'a'.repeat(400)}`;
    const chunks = chunkNote(
      { title: '', body: `See ${url} now` },
      { maxChars: 100, overlapChars: 0 },
    );
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(100);
    const withoutSpaces = (text: string): string => text.replace(/\s+/g, '');
    expect(withoutSpaces(chunks.map((chunk) => chunk.text).join(''))).toBe(`See${url}now`);
  });

  it('is deterministic', () => {
    const options = { maxChars: 280, overlapChars: 40 };
    expect(chunkNote({ title: 'T', body }, options)).toEqual(
      chunkNote({ title: 'T', body }, options),
    );
  });
});
