import { Tag } from '@noted/api';
import { describe, expect, it } from 'vitest';
import { keywords, tagsFor, titleFor, topicsFor } from './keywords.js';

const budgetNote = `# Q3 budget review

The marketing budget for Q3 was cut by 10%. We discussed the budget meetings with finance.
Budget meetings happen every Monday. The finance team wants a new spreadsheet by Friday.
My cat likes the sofa.
Next budget review: finance and marketing together.`;

describe('keywords', () => {
  it('finds what a text is mostly about, as written and in lower case', () => {
    const found = keywords(budgetNote, { limit: 5 });
    expect(found.length).toBeLessThanOrEqual(5);
    expect(found.join(' ')).toContain('budget');
    expect(found).toContain('finance');
    expect(found.join(' ')).not.toContain('sofa');
    for (const keyword of found) expect(keyword).toBe(keyword.toLowerCase());
    expect(new Set(found).size).toBe(found.length);
  });

  it('returns the most frequent written form of a stem, not the stem', () => {
    const found = keywords('Meetings, meetings, meetings. The meeting ran long. Meetings again.', {
      limit: 2,
    });
    expect(found[0]).toBe('meetings');
    expect(found).not.toContain('meet');
    expect(found).not.toContain('meeting');
  });

  it('joins adjacent top words into phrases and drops the words they contain', () => {
    const text =
      'Machine learning models need data. Machine learning is popular. We trained machine learning models on weather data.';
    const found = keywords(text, { limit: 3 });
    expect(found).toContain('machine learning models');
    expect(found).not.toContain('machine');
  });

  it('demotes words every document has when given a corpus', () => {
    const text = 'Project notes: the project uses kubernetes. Kubernetes runs the project.';
    const corpus = {
      documents: 1000,
      documentFrequency: (token: string) => (token === 'project' ? 900 : 2),
    };
    expect(keywords(text, { limit: 1 })).not.toEqual(['kubernetes']);
    expect(keywords(text, { limit: 1, corpus })).toEqual(['kubernetes']);
  });

  it('ignores numbers and finds Japanese words without particles', () => {
    expect(keywords('2024 2024 2024 garden garden', { limit: 2 })).toEqual(['garden']);
    const japanese = keywords('東京の天気は晴れです。東京タワーに行きました。東京は大きい。', {
      limit: 3,
    });
    expect(japanese[0]).toBe('東京');
    expect(japanese).toContain('東京タワー');
    for (const keyword of japanese) expect(keyword).not.toMatch(/\p{Script=Hiragana}/u);
  });

  it('finds nothing in an empty text', () => {
    expect(keywords('', { limit: 5 })).toEqual([]);
    expect(keywords('the and of', { limit: 5 })).toEqual([]);
  });
});

const report = `# Quarterly report

Revenue grew 18 percent in the third quarter, driven by the new subscription plans. Revenue grew
fastest in Europe, where subscription revenue doubled.
We hired two senior engineers and one designer; the two senior engineers join the platform team
in January.
Churn fell to 3 percent after the onboarding changes. Support tickets took 40 minutes to answer
on average, down from 55 minutes.
Next quarter the platform team moves billing to the new subscription system, and marketing spends
on the Europe launch.
Costs rose 4 percent, mostly cloud hosting. The subscription plans now make up 60 percent of
revenue.`;

describe('tagsFor', () => {
  it('suggests topics of a long text as valid tags, multiword ones joined with hyphens', () => {
    const tags = tagsFor(report, { limit: 3 });
    expect(tags).toEqual(['platform-team', 'subscription', 'revenue']);
    for (const tag of tags) expect(Tag.safeParse(tag).success, tag).toBe(true);
  });

  it('never suggests a number, a measure, a verb or a fragment of a sentence', () => {
    const tags = tagsFor(report, { limit: 10 });
    for (const noise of ['percent', 'minutes', 'revenue-grew', 'two-senior-engineers', 'senior']) {
      expect(tags).not.toContain(noise);
    }
    for (const tag of tags) expect(tag.split('-').length, tag).toBeLessThanOrEqual(2);
  });

  it('makes up no tag for a short text: a shopping list has no topic of its own', () => {
    expect(tagsFor('Buy milk, eggs and bread. Call mum.', { limit: 3 })).toEqual([]);
  });

  it('prefers the user’s existing tags that the text mentions, as the user wrote them', () => {
    const tags = tagsFor(budgetNote, {
      limit: 4,
      existingTags: ['travel', 'Finance', 'cats', 'recipes'],
    });
    expect(tags).toEqual(['Finance', 'cats']);
  });

  it('takes the existing tags the nearest notes share, after those the text mentions', () => {
    expect(
      tagsFor('Buy milk, eggs and bread for the weekend', {
        limit: 3,
        existingTags: ['work', 'groceries', 'bread'],
        neighbourTags: ['groceries', 'bread'],
      }),
    ).toEqual(['bread', 'groceries']);
  });

  it('suggests hashtags written in the text after existing tags', () => {
    expect(
      tagsFor('Offsite #planning in #Lisbon: book the venue, book the venue', {
        limit: 3,
        existingTags: ['venue'],
      }),
    ).toEqual(['venue', 'planning', 'lisbon']);
  });

  it('takes an existing tag written as a hashtag in the text', () => {
    expect(
      tagsFor('Remember #q4-goals for the offsite', { limit: 1, existingTags: ['q4-goals'] }),
    ).toEqual(['q4-goals']);
  });

  it('caps tags at 64 characters', () => {
    const word = 'a'.repeat(80);
    expect(tagsFor(`Remember #${word}`, { limit: 3 })).toEqual(['a'.repeat(64)]);
  });
});

describe('topicsFor', () => {
  it('gives the topics of a text, not its numbers and measures', () => {
    const topics = topicsFor(report, { limit: 8 });
    expect(topics).toContain('revenue');
    expect(topics).not.toContain('percent');
    expect(topics).not.toContain('minutes');
  });
});

describe('titleFor', () => {
  it('takes the first heading', () => {
    expect(titleFor('Some intro text.\n\n## The **real** heading\n\nBody.')).toBe(
      'The real heading',
    );
  });

  it('ignores headings inside code', () => {
    expect(titleFor('```sh\n# install it\n```\nInstall the CLI first. Then run it.')).toBe(
      'Install the CLI first',
    );
  });

  it('cuts a long first sentence at a word, to about 60 characters', () => {
    const title = titleFor(
      'Planning the spring garden with tomatoes, beans, courgettes and a lot of patience this year.',
    );
    expect(title).toBe('Planning the spring garden with tomatoes, beans, courgettes');
    expect(title.length).toBeLessThanOrEqual(60);
  });

  it('gives an empty title to an empty text', () => {
    expect(titleFor('')).toBe('');
  });
});
