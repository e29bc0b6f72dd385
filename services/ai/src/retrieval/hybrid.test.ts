import { describe, expect, it } from 'vitest';
import { tokenize } from '../local/text.js';
import { USE_MODEL } from '../local/use/model-dir.js';
import { rankChunks, rankNotes, relevantHits } from './hybrid.js';
import { UserIndex } from './user-index.js';

/** A unit vector in 4 dimensions, near `axis`. */
const near = (axis: number, lean = 0): Float32Array => {
  const vector = new Float32Array(4);
  vector[axis] = 1;
  vector[(axis + 1) % 4] = lean;
  const length = Math.hypot(...vector);
  return vector.map((value) => value / length);
};

const indexOf = (notes: { id: string; text: string; vector: Float32Array }[]) =>
  new UserIndex(
    notes.map(({ id, text, vector }) => ({ noteId: id, index: 0, tokens: tokenize(text), vector })),
  );

/** Notes whose meaning is a little like a query near `axis`. */
const filler = (axis: number) =>
  Array.from({ length: 8 }, (_, n) => ({
    id: `filler${n}`,
    text: `weekly project notes ${n} about the team`,
    vector: near((axis + 3) % 4, 0.1 + n / 20),
  }));

describe('hybrid ranking: meaning first, words as evidence', () => {
  it('ranks a reworded question as by meaning alone: one shared common word lifts nothing', () => {
    const index = indexOf([
      { id: 'answer', text: 'Mechanic: new brake pads, $340', vector: near(0, 0.1) },
      { id: 'car-wash', text: 'car wash on Saturday with the kids', vector: near(0, 0.5) },
      ...filler(0),
    ]);
    const query = { tokens: tokenize('How much did fixing the car cost?'), vector: near(0) };
    const semantic = rankNotes(index, query, 'semantic', 3).map((hit) => hit.noteId);
    const hybrid = rankNotes(index, query, 'hybrid', 3).map((hit) => hit.noteId);
    expect(semantic[0]).toBe('answer');
    expect(hybrid).toEqual(semantic);
    expect(rankNotes(index, query, 'bm25', 3)[0]?.noteId).toBe('car-wash');
  });

  it('lifts the chunk holding the query’s rare words above a slightly closer meaning', () => {
    const index = indexOf([
      { id: 'close', text: 'vendor meeting about the renewal', vector: near(1, 0.05) },
      { id: 'exact', text: 'Zeppelin vendor renewal: signed for two years', vector: near(1, 0.3) },
      ...filler(1),
    ]);
    const query = { tokens: tokenize('zeppelin renewal'), vector: near(1) };
    expect(rankNotes(index, query, 'semantic', 2)[0]?.noteId).toBe('close');
    const [first] = rankNotes(index, query, 'hybrid', 2);
    expect(first).toMatchObject({ noteId: 'exact', lexical: true, semantic: true });
  });

  it('finds by words a chunk that meaning ranks beyond its candidates, and scores it by its own cosine', () => {
    const far = Array.from({ length: 60 }, (_, n) => ({
      id: `near${n}`,
      text: `something else entirely ${n}`,
      vector: near(2, 0.2 + n / 100),
    }));
    const index = indexOf([...far, { id: 'words', text: 'quokka sightings log', vector: near(0) }]);
    const query = { tokens: tokenize('quokka sightings'), vector: near(2) };
    const hits = rankChunks(index, query, 'hybrid', 100);
    const words = hits.find((hit) => hit.noteId === 'words');
    expect(words).toMatchObject({ lexical: true, semantic: false });
    expect(words!.score).toBeGreaterThan(index.meaning(query).of('words:0')!);
  });

  it('is BM25 when the query has no vector (the provider is down)', () => {
    const index = indexOf([
      { id: 'a', text: 'zeppelin renewal', vector: near(0) },
      { id: 'b', text: 'renewal', vector: near(1) },
    ]);
    const query = { tokens: tokenize('zeppelin renewal'), vector: undefined };
    expect(rankNotes(index, query, 'hybrid', 2).map((hit) => hit.noteId)).toEqual(['a', 'b']);
  });

  it('lists a note found by meaning alone only when it is close to the best one', () => {
    const index = indexOf([
      { id: 'groceries', text: 'milk, eggs, bread', vector: near(0, 0.2) },
      { id: 'errands', text: 'pharmacy, post office', vector: near(0, 0.6) },
      { id: 'hello', text: 'my first note', vector: near(0, 3) },
      ...filler(0),
    ]);
    const query = { tokens: tokenize('what do I need to buy at the shop'), vector: near(0) };
    const hits = rankNotes(index, query, 'hybrid', 20);
    expect(hits.map((hit) => hit.noteId)).toContain('hello');
    expect(relevantHits(hits, 'some-model').map((hit) => hit.noteId)).toEqual([
      'groceries',
      'errands',
    ]);
    // A note the notes service found by its words stays, however far its meaning.
    expect(
      relevantHits(hits, 'some-model', (id) => id === 'hello').map((hit) => hit.noteId),
    ).toContain('hello');
  });

  it('lists nothing by meaning below the model’s floor, and keeps a note holding the words', () => {
    const hit = (noteId: string, meaning: number | undefined, evidence = 0) => ({
      key: `${noteId}:0`,
      noteId,
      index: 0,
      score: meaning ?? 1,
      lexical: evidence > 0,
      semantic: meaning !== undefined,
      meaning,
      evidence,
    });
    const unrelated = [hit('a', 0.12), hit('b', 0.1)];
    expect(relevantHits(unrelated, USE_MODEL)).toEqual([]);
    expect(relevantHits(unrelated, 'some-model')).toHaveLength(2);
    expect(relevantHits([...unrelated, hit('words', 0.05, 0.5)], USE_MODEL)).toHaveLength(1);
    // Ranked by words alone (no query vector): as it is.
    expect(relevantHits([hit('x', undefined), hit('y', undefined)], USE_MODEL)).toHaveLength(2);
  });
});
