import { describe, expect, it } from 'vitest';
import { summarizeDocuments, summarizeExtractive } from './textrank.js';

const solar = [
  'Solar panels turn sunlight into electricity.',
  'My neighbour has a loud dog.',
  'Solar electricity is now cheaper than coal electricity.',
  'I had pasta for lunch.',
  'Panels on the roof make electricity from sunlight all day.',
  'The train was late again.',
  'Solar panels and sunlight give clean electricity for the house.',
].join(' ');

describe('summarizeExtractive', () => {
  it('picks the central sentences and keeps their original order', () => {
    const summary = summarizeExtractive(solar, { maxSentences: 3 });
    expect(summary).toHaveLength(3);
    for (const sentence of summary) expect(sentence).toMatch(/electricity/);
    const positions = summary.map((sentence) => solar.indexOf(sentence));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('returns every sentence of a text no longer than the summary', () => {
    expect(summarizeExtractive('One thing. Another thing!', { maxSentences: 3 })).toEqual([
      'One thing.',
      'Another thing!',
    ]);
    expect(summarizeExtractive('', { maxSentences: 3 })).toEqual([]);
  });

  it('reads Markdown as text: a list under its heading is one sentence', () => {
    const markdown = '# Plan\n- **Buy** [seeds](https://seeds.example)\n- Water the beds';
    expect(summarizeExtractive(markdown, { maxSentences: 5 })).toEqual([
      'Plan: Buy seeds, Water the beds.',
    ]);
  });

  it('leaves the title out', () => {
    const markdown = '# Garden\n\nThe tomatoes need water every morning in July.';
    expect(summarizeExtractive(markdown, { maxSentences: 3, title: 'Garden' })).toEqual([
      'The tomatoes need water every morning in July.',
    ]);
  });

  it('does not repeat a sentence that says the same again', () => {
    const text = [
      'The budget meeting moved to Friday.',
      'The budget meeting moved to Friday!',
      'Budget numbers for Friday look good.',
      'Lunch was fine.',
    ].join(' ');
    const summary = summarizeExtractive(text, { maxSentences: 2 });
    expect(summary.filter((sentence) => sentence.startsWith('The budget meeting'))).toHaveLength(1);
  });
});

describe('summarizeDocuments', () => {
  const note = (id: string, topic: string) => ({
    id,
    title: topic,
    text: [
      `The ${topic} project started this week.`,
      `Work on the ${topic} project went well.`,
      `The ${topic} team met twice about the project.`,
      `Project ${topic} needs more time next week.`,
    ].join(' '),
  });

  it('covers many notes with at most two sentences from each, grouped in the order given', () => {
    const docs = ['alpha', 'beta', 'gamma', 'delta', 'omega'].map((topic) => note(topic, topic));
    const summary = summarizeDocuments(docs, { maxSentences: 6 });
    expect(summary).toHaveLength(6);
    const perNote = new Map<string, number>();
    for (const { id } of summary) perNote.set(id, (perNote.get(id) ?? 0) + 1);
    expect(perNote.size).toBe(5);
    expect(Math.max(...perNote.values())).toBeLessThanOrEqual(2);
    const order = summary.map(({ id }) => docs.findIndex((doc) => doc.id === id));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    for (const { id, sentence } of summary) expect(sentence).toContain(id);
  });

  it('takes more from one note when there are few notes', () => {
    const summary = summarizeDocuments([note('solo', 'solo')], { maxSentences: 3 });
    expect(summary).toHaveLength(3);
    expect(summary.every(({ id }) => id === 'solo')).toBe(true);
  });

  it('counts a note without text by its title and skips a note with neither', () => {
    const docs = [
      { id: 'titled', title: 'Dentist at 3pm', text: '' },
      { id: 'empty', title: '', text: '  ' },
    ];
    expect(summarizeDocuments(docs, { maxSentences: 3 })).toEqual([
      { id: 'titled', sentence: 'Dentist at 3pm' },
    ]);
    expect(summarizeDocuments([docs[1]!], { maxSentences: 3 })).toEqual([]);
  });
});
