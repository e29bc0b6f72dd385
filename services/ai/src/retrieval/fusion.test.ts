import { describe, expect, it } from 'vitest';
import { reciprocalRankFusion } from './fusion.js';

describe('reciprocalRankFusion', () => {
  it('adds 1 / (k + rank) over the rankings, best first, with each ranking’s rank', () => {
    const fused = reciprocalRankFusion([
      ['a', 'b', 'c'],
      ['b', 'c', 'd'],
    ]);
    expect(fused).toEqual([
      { id: 'b', score: expect.closeTo(1 / 62 + 1 / 61, 12), ranks: [2, 1] },
      { id: 'c', score: expect.closeTo(1 / 63 + 1 / 62, 12), ranks: [3, 2] },
      { id: 'a', score: expect.closeTo(1 / 61, 12), ranks: [1, null] },
      { id: 'd', score: expect.closeTo(1 / 63, 12), ranks: [null, 3] },
    ]);
  });

  it('breaks equal scores by the best single rank, then by id', () => {
    // k = 1: z = 1/2 (rank 1), a = 1/4 + 1/4 (ranks 3 and 3), n = 1/2 (rank 1).
    const fused = reciprocalRankFusion(
      [
        ['z', 'm', 'a'],
        ['n', 'o', 'a'],
      ],
      { k: 1 },
    );
    expect(fused.map(({ id }) => id)).toEqual(['n', 'z', 'a', 'm', 'o']);
  });

  it('weights rankings', () => {
    const fused = reciprocalRankFusion([['lexical'], ['semantic']], { weights: [1, 2] });
    expect(fused[0]).toEqual({
      id: 'semantic',
      score: expect.closeTo(2 / 61, 12),
      ranks: [null, 1],
    });
  });

  it('counts an id listed twice in one ranking once, at its better rank', () => {
    const fused = reciprocalRankFusion([['a', 'b', 'a']]);
    expect(fused.find(({ id }) => id === 'a')).toEqual({
      id: 'a',
      score: expect.closeTo(1 / 61, 12),
      ranks: [1],
    });
  });

  it('fuses nothing into nothing', () => {
    expect(reciprocalRankFusion([])).toEqual([]);
    expect(reciprocalRankFusion([[], []])).toEqual([]);
  });
});
