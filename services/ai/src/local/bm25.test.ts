import { describe, expect, it } from 'vitest';
import { Bm25Index } from './bm25.js';
import { tokenize } from './text.js';

const indexOf = (docs: Record<string, string>): Bm25Index => {
  const index = new Bm25Index();
  for (const [id, text] of Object.entries(docs)) index.add(id, tokenize(text));
  return index;
};

describe('Bm25Index', () => {
  it('scores with BM25 and the idf that adds one inside the log', () => {
    const index = new Bm25Index();
    index.add('a', ['x', 'y']);
    index.add('b', ['y']);
    // N = 2, df(x) = 1, |a| = 2, average length 1.5: norm = 1.2 * (0.25 + 0.75 * 2 / 1.5) = 1.5.
    const idf = Math.log(1 + (2 - 1 + 0.5) / (1 + 0.5));
    expect(index.search(['x'], 10)).toEqual([
      { id: 'a', score: expect.closeTo((idf * 2.2) / 2.5, 10), coverage: 1 },
    ]);
  });

  it('says how much of the query’s information a document holds, rare words weighing most', () => {
    const index = indexOf({
      a: 'the zeppelin project',
      b: 'the project plan',
      c: 'project notes',
      d: 'project budget',
    });
    const idfOf = (df: number) => Math.log(1 + (4 - df + 0.5) / (df + 0.5));
    const [zeppelin, project, unknown] = [idfOf(1), idfOf(4), idfOf(0)];
    const hits = index.search(tokenize('zeppelin project hovercraft'), 10);
    const coverage = Object.fromEntries(hits.map((hit) => [hit.id, hit.coverage]));
    const all = zeppelin + project + unknown;
    expect(coverage.a).toBeCloseTo((zeppelin + project) / all, 10);
    expect(coverage.b).toBeCloseTo(project / all, 10);
    expect(coverage.b!).toBeLessThan(0.1);
  });

  it('ranks the document with the rare query word above those with only common words', () => {
    const index = indexOf({
      common1: 'project meeting notes for the project team',
      common2: 'project meeting with the team about the project plan',
      rare: 'project kickoff with the zeppelin vendor',
      unrelated: 'grocery list milk eggs',
    });
    const hits = index.search(tokenize('project zeppelin'), 10);
    expect(hits[0]?.id).toBe('rare');
    expect(hits.map((hit) => hit.id)).not.toContain('unrelated');
    expect(hits.every((hit) => hit.score > 0)).toBe(true);
  });

  it('keeps idf positive for a word in every document', () => {
    const index = indexOf({ a: 'note one', b: 'note two', c: 'note three' });
    const hits = index.search(['note'], 10);
    expect(hits).toHaveLength(3);
    expect(hits.every((hit) => hit.score > 0)).toBe(true);
  });

  it('prefers the shorter of two documents with the same matches', () => {
    const index = indexOf({
      long: 'budget review with many other words about plans schedules people places',
      short: 'budget review',
    });
    expect(index.search(tokenize('budget'), 10).map((hit) => hit.id)).toEqual(['short', 'long']);
  });

  it('breaks ties by id and respects the limit', () => {
    const index = indexOf({ c: 'paper cup', a: 'paper cup', b: 'paper cup', d: 'glass' });
    expect(index.search(tokenize('paper'), 2).map((hit) => hit.id)).toEqual(['a', 'b']);
    expect(index.search(tokenize('paper'), 0)).toEqual([]);
  });

  it('forgets a removed document: results, document frequency and size', () => {
    const index = indexOf({ a: 'zeppelin ride', b: 'zeppelin museum', c: 'train ride' });
    expect(index.documentFrequency('zeppelin')).toBe(2);
    const before = index.search(['ride'], 10);
    index.remove('a');
    expect(index.size).toBe(2);
    expect(index.documentFrequency('zeppelin')).toBe(1);
    expect(index.search(['zeppelin'], 10).map((hit) => hit.id)).toEqual(['b']);
    // With "a" gone, "ride" is in fewer documents: idf and the average length are recomputed.
    expect(index.search(['ride'], 10)[0]?.score).not.toBeCloseTo(before[0]!.score, 6);
    index.remove('missing');
    expect(index.size).toBe(2);
  });

  it('replaces a document added again under the same id', () => {
    const index = indexOf({ a: 'zeppelin ride', b: 'train' });
    index.add('a', tokenize('bicycle'));
    expect(index.size).toBe(2);
    expect(index.search(['zeppelin'], 10)).toEqual([]);
    expect(index.search(['bicycl'], 10).map((hit) => hit.id)).toEqual(['a']);
  });

  it('scores the same after removals and re-adds as an index built fresh', () => {
    const docs = Array.from(
      { length: 50 },
      (_, i) => `doc ${i} topic${i % 7} word${i % 3} extra${i % 11}`,
    );
    const churned = new Bm25Index();
    docs.forEach((text, i) => churned.add(`d${i}`, tokenize(text)));
    for (let i = 0; i < 50; i += 2) churned.remove(`d${i}`);
    for (let i = 0; i < 50; i += 4) churned.add(`d${i}`, tokenize(docs[i]!));
    const fresh = new Bm25Index();
    docs.forEach((text, i) => {
      if (i % 2 === 1 || i % 4 === 0) fresh.add(`d${i}`, tokenize(text));
    });
    const query = tokenize('topic3 word1 extra5');
    expect(churned.size).toBe(fresh.size);
    const churnedHits = churned.search(query, 20);
    const freshHits = fresh.search(query, 20);
    expect(churnedHits.map((hit) => hit.id)).toEqual(freshHits.map((hit) => hit.id));
    churnedHits.forEach((hit, i) => expect(hit.score).toBeCloseTo(freshHits[i]!.score, 10));
  });

  it('finds nothing in an empty index', () => {
    expect(new Bm25Index().search(['anything'], 5)).toEqual([]);
  });
});
