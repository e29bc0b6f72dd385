import { describe, expect, it, vi } from 'vitest';
import { hashedEmbedding } from '../local/embeddings.js';
import { USE_MODEL } from '../local/use/model-dir.js';
import { tokenize } from '../local/text.js';
import { retrieveNotes } from '../retrieval/hybrid.js';
import { UserIndex } from '../retrieval/user-index.js';
import {
  extractiveAnswer,
  PASSAGE_NOTES,
  passageChunks,
  quotables,
  QUOTED,
  quotedNotes,
  type EmbedTexts,
  type Passage,
} from './extractive.js';

const passage = (number: number, id: string, title: string, body: string, chunk = 0): Passage => ({
  number,
  note: { id, title },
  text: `${title}\n${body}`,
  chunk,
});

/** A passage as retrieval gives it, with its note's score in the ranking. */
const scored = (at: Passage, score: number): Passage => ({ ...at, score });

/** The hashed vectors, as a provider without a model would give them. */
const hashed: EmbedTexts = (texts) => Promise.resolve(texts.map((text) => hashedEmbedding(text)));

const groceries = passage(
  1,
  'groceries',
  'Groceries',
  '- Oat milk\n- Bread flour, 1 kg\n- Coffee beans\n- Eggs',
);
const sourdough = passage(
  2,
  'sourdough',
  'Sourdough',
  [
    'My current recipe after a dozen loaves.',
    '',
    '## Bake',
    'Preheat the Dutch oven at 250 °C for 45 minutes. Bake the sourdough at 250 °C with the lid on for 20 minutes.',
    'Then 25 more minutes without the lid until deep brown.',
  ].join('\n'),
);
const holiday = passage(
  3,
  'holiday',
  'Holiday plans',
  'We fly to Lisbon on the 3rd of May and stay in Alfama for a week.',
);

describe('extractiveAnswer', () => {
  it('quotes a sentence two notes share once', async () => {
    const sentence = 'The boiler pressure should stay between 1 and 1.5 bar when cold.';
    const manual = passage(1, 'manual', 'Boiler manual', sentence);
    const copy = passage(2, 'copy', 'Boiler (copy)', sentence);
    const answer = await extractiveAnswer(
      'What pressure should the boiler have?',
      [manual, copy],
      hashed,
    );
    expect(answer.text.split('1.5 bar')).toHaveLength(2);
    expect(answer.citations.map((note) => note.id)).toEqual(['manual']);
  });

  it('quotes a short note whole, though one of its sentences scored below the other', async () => {
    const mechanic = passage(
      1,
      'mechanic',
      'Mechanic',
      'New brake pads and a tyre rotation: $340. Next service at 60,000 km.',
    );
    // A model that finds the service sentence closer to the question than the price.
    const leaning: EmbedTexts = (texts) =>
      Promise.resolve(
        texts.map((text) => {
          const vector = new Float32Array(2);
          vector[0] = 1;
          vector[1] = text.includes('$340') ? 0.8 : 0;
          const length = Math.hypot(vector[0], vector[1]);
          return vector.map((value) => value / length);
        }),
      );
    const answer = await extractiveAnswer('How much did the car cost?', [mechanic], leaning);
    expect(answer.text).toContain('$340');
    expect(answer.text).toContain('Next service');
    expect(answer.text.indexOf('$340')).toBeLessThan(answer.text.indexOf('Next service'));
    expect(answer.citations.map((note) => note.id)).toEqual(['mechanic']);
  });

  it('cites the note that answers, though a passage of another note ranked first', async () => {
    const answer = await extractiveAnswer(
      'At what temperature do I bake the sourdough?',
      [groceries, sourdough, holiday],
      hashed,
    );
    expect(answer.citations.map((note) => note.id)).toEqual(['sourdough']);
    expect(answer.text).toContain('250 °C');
    expect(answer.text).toContain('— *Sourdough*');
    expect(answer.text).not.toContain('Oat milk');
    expect(answer.scoring).toBe('embeddings');
  });

  it('embeds the question and every candidate sentence in one call', async () => {
    const embed = vi.fn(hashed);
    await extractiveAnswer('When do we fly to Lisbon?', [groceries, sourdough, holiday], embed);
    expect(embed).toHaveBeenCalledTimes(1);
    const texts = embed.mock.calls[0]![0];
    expect(texts[0]).toBe('When do we fly to Lisbon?');
    expect(texts.length).toBe(1 + quotables([groceries, sourdough, holiday]).length);
  });

  it('quotes by meaning: the sentence whose vector is closest, not the one sharing words', async () => {
    // A made-up model that only knows what answers the question.
    const embed: EmbedTexts = (texts) =>
      Promise.resolve(
        texts.map((text) => {
          const vector = new Float32Array(3);
          if (text.startsWith('How warm')) vector[0] = 1;
          else if (text.includes('250 °C')) vector.set([0.9, Math.sqrt(1 - 0.81), 0]);
          else vector[2] = 1;
          return vector;
        }),
      );
    const answer = await extractiveAnswer(
      'How warm should the oven be for bread?',
      [holiday, sourdough],
      embed,
    );
    expect(answer.citations.map((note) => note.id)).toEqual(['sourdough']);
    expect(answer.text).toContain('Preheat the Dutch oven at 250 °C');
    expect(answer.text).not.toContain('dozen loaves');
    expect(answer.text).not.toContain('Lisbon');
  });

  it('leaves out sentences far weaker than the best one, and quotes at most QUOTED', async () => {
    const many = passage(
      1,
      'tips',
      'Coffee tips',
      Array.from({ length: 10 }, (_, i) => `Coffee tip number ${i + 1} is about the grinder.`).join(
        '\n',
      ),
    );
    const answer = await extractiveAnswer(
      'Which coffee tip is about the grinder?',
      [many, holiday],
      hashed,
    );
    expect(answer.text.match(/^> /gm)?.length).toBeLessThanOrEqual(QUOTED);
    expect(answer.citations.map((note) => note.id)).toEqual(['tips']);
  });

  it('judges by hashed vectors when embedding fails, and gives up when cancelled', async () => {
    const failing: EmbedTexts = () => Promise.reject(new Error('the model is down'));
    const onEmbedError = vi.fn();
    const answer = await extractiveAnswer(
      'At what temperature do I bake the sourdough?',
      [groceries, sourdough],
      failing,
      { onEmbedError },
    );
    expect(answer.scoring).toBe('hashed');
    expect(answer.citations.map((note) => note.id)).toEqual(['sourdough']);
    expect(onEmbedError).toHaveBeenCalledOnce();

    const controller = new AbortController();
    controller.abort();
    await expect(
      extractiveAnswer('Anything?', [sourdough], () => Promise.reject(controller.signal.reason), {
        signal: controller.signal,
      }),
    ).rejects.toThrow();
  });

  it('quotes and cites each note retrieval scored alike, and no note scored well below', async () => {
    const answer = await extractiveAnswer(
      'At what temperature do I bake the sourdough?',
      [scored(groceries, 0.3), scored(holiday, 0.28), scored(sourdough, 0.2)],
      hashed,
    );
    // Retrieval could not tell the first two apart; the third, far below, is left out however
    // close its sentences are to the question.
    expect(answer.citations.map((note) => note.id).sort()).toEqual(['groceries', 'holiday']);
    expect(answer.text).toContain('Lisbon');
    expect(answer.text).not.toContain('250 °C');
  });

  it('does not cite a note scored alike whose best sentence another note already quotes', async () => {
    const sentence = 'The boiler pressure should stay between 1 and 1.5 bar when cold.';
    const manual = scored(passage(1, 'manual', 'Boiler manual', sentence), 0.4);
    const copy = scored(passage(2, 'copy', 'Boiler (copy)', sentence), 0.4);
    const answer = await extractiveAnswer(
      'What pressure should the boiler have?',
      [manual, copy],
      hashed,
    );
    expect(answer.text.split('1.5 bar')).toHaveLength(2);
    expect(answer.citations).toHaveLength(1);
  });

  it('gives nothing for passages with nothing to quote', async () => {
    const empty = passage(1, 'empty', 'Only a title', '');
    await expect(extractiveAnswer('Anything?', [empty], hashed)).resolves.toMatchObject({
      text: '',
      citations: [],
    });
  });
});

describe('quotables', () => {
  it('quotes a list item with its heading, a fragment with its neighbour, never the title', () => {
    const home = passage(
      1,
      'home',
      'Home maintenance calendar',
      [
        '# Home maintenance calendar',
        '',
        '## Monthly',
        '- [ ] Clean the dishwasher filter',
        '- [ ] Test smoke alarms',
        '',
        'Replaced the furnace filter with a 16x25x1 MERV 8. Worth it.',
      ].join('\n'),
    );
    const quotes = quotables([home]).map((piece) => piece.quote);
    expect(quotes).toContain('Monthly: Clean the dishwasher filter');
    expect(quotes).toContain('Replaced the furnace filter with a 16x25x1 MERV 8. Worth it.');
    expect(quotes.some((quote) => quote === 'Home maintenance calendar')).toBe(false);
    expect(quotes.join('\n')).not.toMatch(/\[ \]|^#|\*\*/m);
  });

  it('quotes the overlap of two chunks of a note once', () => {
    const first = passage(1, 'trip', 'Trip', 'We land at 9. The hotel is near the station.');
    // A later chunk starts with the tail of the one before, run together on one line.
    const second = passage(
      2,
      'trip',
      'Trip',
      'hotel is near the station. - Day two: the museum\n- Day three: the coast',
      1,
    );
    const quotes = quotables([first, second]).map((piece) => piece.quote);
    expect(quotes.filter((quote) => quote.includes('near the station'))).toHaveLength(1);
    expect(quotes).toContain('Day two: the museum');
  });

  it('reads only the notes of the first passages', () => {
    const passages = ['a', 'b', 'c', 'd', 'e', 'f'].map((id, i) =>
      passage(i + 1, id, `Note ${id}`, `Something about ${id} worth saying here today.`),
    );
    expect(new Set(quotables(passages).map((piece) => piece.passage.note.id))).toEqual(
      new Set(['a', 'b', 'c', 'd']),
    );
  });
});

describe('quotedNotes', () => {
  const notes = ['a', 'b', 'c', 'd', 'e'].map((id, i) =>
    passage(i + 1, id, `Note ${id}`, `Something about ${id}.`),
  );

  it('takes the first note and those scored within a tenth of it, at most three', () => {
    const scores = [0.5, 0.46, 0.44, 0.3, 0.29];
    expect(quotedNotes(notes.map((at, i) => scored(at, scores[i]!)))).toEqual(['a', 'b']);
    expect(quotedNotes(notes.map((at) => scored(at, 0.5)))).toEqual(['a', 'b', 'c']);
  });

  it('counts a note retrieval did not score as close, and leaves the choice to the sentences without any score', () => {
    const [a, b, c] = notes as [Passage, Passage, Passage];
    expect(quotedNotes([scored(a, 0.5), b, scored(c, 0.2)])).toEqual(['a', 'b']);
    expect(quotedNotes([a, b, c])).toBeUndefined();
  });
});

describe('passageChunks', () => {
  it('reads the notes search finds first, at most two chunks of each, with their scores', () => {
    const notes = Array.from({ length: 7 }, (_, n) => ({
      noteId: `n${n}`,
      chunks: n === 0 ? [3, 0, 1] : [n],
      score: n === 0 ? 0.7 : 0.6 - n / 10,
    }));
    expect(passageChunks(notes)).toEqual([
      { noteId: 'n0', index: 3, score: 0.7 },
      { noteId: 'n0', index: 0, score: 0.7 },
      ...[1, 2, 3, 4].map((n) => ({ noteId: `n${n}`, index: n, score: 0.6 - n / 10 })),
    ]);
    expect(new Set(passageChunks(notes).map((chunk) => chunk.noteId)).size).toBe(PASSAGE_NOTES);
  });

  it('gives a question no note is about no passages, not the least unrelated ones', () => {
    const unit = (x: number, y: number) => {
      const length = Math.hypot(x, y);
      return Float32Array.from([x / length, y / length]);
    };
    const index = new UserIndex([
      { noteId: 'brakes', index: 0, tokens: tokenize('New brake pads: $340'), vector: unit(1, 0) },
      {
        noteId: 'tyres',
        index: 0,
        tokens: tokenize('Winter tyres in October'),
        vector: unit(0.9, 0.3),
      },
    ]);
    const passages = (text: string, vector: Float32Array) =>
      passageChunks(retrieveNotes(index, { tokens: tokenize(text), vector }, USE_MODEL));
    // About the car: both notes are close in meaning.
    expect(passages('car upkeep', unit(1, 0.1))).toHaveLength(2);
    // About something else (cosine below the sentence encoder's floor): nothing.
    expect(passages('what is left to do', unit(0.1, -1))).toEqual([]);
    // The words of a note keep it, however far its meaning.
    expect(passages('brake', unit(0.1, -1)).map((hit) => hit.noteId)).toEqual(['brakes']);
  });
});
