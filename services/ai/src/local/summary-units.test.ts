import { describe, expect, it } from 'vitest';
import { markdownBlocks } from './structure.js';
import { summarySentences } from './summary-units.js';
import { summarizeDocuments, summarizeExtractive } from './textrank.js';

const meeting = {
  title: 'Atlas weekly sync',
  body: `# Atlas weekly sync

Attendees: Dana, Sam, Priya

## Notes
- Launch moves to March 9 because the payment provider needs another review.
- Analytics: we switch from Mixpanel to PostHog to save money.
- Beta feedback is mostly about slow sync on Android.

## Action items
- [ ] Dana: send the revised timeline to the board by Friday
- [ ] Sam: ask legal about the new data processing agreement
- [x] Priya: book the retro room`,
};

const todo = {
  title: 'Saturday errands',
  body: `- [ ] Pick up dry cleaning
- [ ] Buy milk
- [ ] Call the plumber
- [x] Renew passport
- [ ] Return library books`,
};

const recipe = {
  title: 'Roasted garlic soup',
  body: `# Roasted garlic soup

Serves 4. A winter favourite from the café on Pine Street.

## Ingredients
- 3 heads of garlic
- 2 onions
- 1 l chicken stock
- 200 ml cream
- thyme

## Steps
1. Roast the garlic heads at 200 °C for 40 minutes, wrapped in foil.
2. Soften the onions in butter, then squeeze in the garlic.
3. Add the stock and thyme and simmer for 20 minutes.
4. Blend, stir in the cream and season to taste.`,
};

const journal = {
  title: 'Sunday, March 2',
  body: `# Sunday, March 2

Slept in until nine, which felt great after the long week.
Went for a 10 km run along the lake with Sam; my knee held up fine.
Afternoon: meal prep for the week (chili and rice)
Called Mom. She is planning the trip to Vancouver in May and wants us to join.

Feeling calmer than last Sunday.`,
};

const chinese = {
  title: '周末计划',
  body: `# 周末计划

周六上午去超市买菜，下午打扫房间。

## 待办
- [ ] 给妈妈打电话
- [ ] 交水电费
- [x] 预约理发

周日和朋友去西湖散步，晚上在家做红烧肉。`,
};

const notes = { meeting, todo, recipe, journal, chinese };

/** The summary of a note as the service makes it without a model. */
const summaryOf = (note: { title: string; body: string }) =>
  summarizeExtractive(note.body, { maxSentences: 3, title: note.title }).join(' ');

/** The items of every list of a note, as a reader sees them. */
const itemsOf = (body: string) =>
  markdownBlocks(body).flatMap((block) =>
    block.kind === 'list' ? block.items.map((item) => item.text) : [],
  );

describe('note summaries without a model', () => {
  it.each(Object.entries(notes))('%s: reads as sentences', (_name, note) => {
    const summary = summaryOf(note);
    const sentences = summarizeExtractive(note.body, { maxSentences: 3, title: note.title });
    expect(sentences.length).toBeGreaterThan(0);
    // Every sentence ends as a sentence does.
    for (const sentence of sentences) expect(sentence).toMatch(/[.!?…。！？]$/u);
    // The title is not said again.
    expect(summary.startsWith(note.title)).toBe(false);
    for (const sentence of sentences) expect(sentence.replace(/[.。]$/u, '')).not.toBe(note.title);
    // No Markdown shows through.
    expect(summary).not.toMatch(/(^|\s)#{1,6}\s|\[[ xX]\]|\*\*|__|(^|\s)[-*+]\s|`/);
    // A list item is never run into what follows it without punctuation.
    for (const item of itemsOf(note.body)) {
      const at = summary.indexOf(item);
      if (at < 0 || /[.!?。！？]$/u.test(item)) continue;
      expect(summary.slice(at + item.length)).not.toMatch(/^\s*[\p{L}\p{N}]/u);
    }
  });

  it('says a meeting’s decisions and its open action items, each owner after the task', () => {
    const summary = summaryOf(meeting);
    expect(summary).toContain('Launch moves to March 9 because the payment provider');
    expect(summary).toContain(
      'Action items: send the revised timeline to the board by Friday (Dana); ask legal about the new data processing agreement (Sam).',
    );
  });

  it('names a to-do list’s open items in one sentence and what is done in another', () => {
    expect(summarizeExtractive(todo.body, { maxSentences: 3, title: todo.title })).toEqual([
      'To do: Pick up dry cleaning, Buy milk, Call the plumber, Return library books.',
      'Done: Renew passport.',
    ]);
  });

  it('gives a recipe’s ingredients as a list after their heading and its steps as sentences', () => {
    const sentences = summarizeExtractive(recipe.body, { maxSentences: 3, title: recipe.title });
    expect(sentences).toContain(
      'Ingredients: 3 heads of garlic, 2 onions, 1 l chicken stock, 200 ml cream, thyme.',
    );
    expect(sentences).toContain(
      'Roast the garlic heads at 200 °C for 40 minutes, wrapped in foil.',
    );
  });

  it('ends a journal’s lines without punctuation as sentences, and leaves out the date title', () => {
    const all = summarySentences(journal.body, journal.title);
    expect(all).toContain('Afternoon: meal prep for the week (chili and rice).');
    expect(all.some((sentence) => sentence.includes('March 2'))).toBe(false);
  });

  it('writes a Chinese note’s lists with Chinese punctuation', () => {
    const summary = summaryOf(chinese);
    expect(summary).toContain('待办：给妈妈打电话、交水电费。');
    expect(summary).not.toContain('周末计划');
    expect(summary).not.toMatch(/[A-Za-z]/);
  });
});

describe('summarySentences', () => {
  it('joins lines wrapped mid-sentence and ends a line without punctuation as a sentence', () => {
    expect(
      summarySentences('The report was longer than\nwe expected, so we split it.\nNext steps'),
    ).toEqual(['The report was longer than we expected, so we split it.', 'Next steps.']);
  });

  it('keeps items that are sentences as sentences, and cuts a long list of short items', () => {
    expect(
      summarySentences(
        '## Lessons\n- Book the ferry a week ahead, it sells out in summer.\n- Bring cash for the market stalls.',
      ),
    ).toEqual([
      'Book the ferry a week ahead, it sells out in summer.',
      'Bring cash for the market stalls.',
    ]);
    const packing = `Packing list:\n${['passport', 'charger', 'socks', 'shirts', 'towel', 'sandals', 'hat', 'book'].map((item) => `- ${item}`).join('\n')}`;
    expect(summarySentences(packing)).toEqual([
      'Packing list: passport, charger, socks, shirts, towel, sandals…',
    ]);
  });

  it('separates items holding commas with semicolons', () => {
    expect(summarySentences('## Books\n- Thinking, Fast and Slow\n- Range')).toEqual([
      'Books: Thinking, Fast and Slow; Range.',
    ]);
  });

  it('leaves out code, tables and bare links; a note of headings says its headings', () => {
    const markdown = [
      'Deploy with the script below.',
      '```sh',
      './deploy.sh --prod',
      '```',
      '| Host | Role |',
      '|---|---|',
      '| a1 | web |',
      'https://example.com/runbook',
    ].join('\n');
    expect(summarySentences(markdown)).toEqual(['Deploy with the script below.']);
    expect(summarySentences('# Trip\n## Flights\n## Hotels', 'Trip')).toEqual([
      'Flights.',
      'Hotels.',
    ]);
  });
});

describe('period summaries without a model', () => {
  it('take sentences of each note, never the title again', () => {
    const docs = Object.entries(notes).map(([id, note]) => ({
      id,
      title: note.title,
      text: note.body,
    }));
    const picked = summarizeDocuments(docs, { maxSentences: 8 });
    expect(new Set(picked.map(({ id }) => id)).size).toBe(docs.length);
    for (const { id, sentence } of picked) {
      expect(sentence).not.toBe(notes[id as keyof typeof notes].title);
      expect(sentence).toMatch(/[.!?…。！？]$/u);
    }
  });
});
