export interface FusedResult {
  id: string;
  score: number;
  /** 1-based rank of the id in each input ranking, or null where it is absent. */
  ranks: (number | null)[];
}

/**
 * Reciprocal rank fusion (Cormack et al., 2009): score = Σ weight / (k + rank). Best first;
 * ties go to the better single rank, then to the id.
 */
export const reciprocalRankFusion = (
  rankings: string[][],
  options: { k?: number; weights?: number[] } = {},
): FusedResult[] => {
  const k = options.k ?? 60;
  const fused = new Map<string, FusedResult>();
  rankings.forEach((ranking, list) => {
    const weight = options.weights?.[list] ?? 1;
    ranking.forEach((id, position) => {
      let result = fused.get(id);
      if (!result) {
        result = { id, score: 0, ranks: rankings.map(() => null) };
        fused.set(id, result);
      }
      // An id listed twice in one ranking counts once, at its better rank.
      if (result.ranks[list] !== null) return;
      result.ranks[list] = position + 1;
      result.score += weight / (k + position + 1);
    });
  });
  const bestRank = (result: FusedResult): number =>
    Math.min(...result.ranks.map((rank) => rank ?? Infinity));
  // Sums of the same reciprocals in another order can differ in the last bits: still a tie.
  const scoreOrder = (a: FusedResult, b: FusedResult): number =>
    Math.abs(b.score - a.score) < 1e-12 ? 0 : b.score - a.score;
  return [...fused.values()].sort(
    (a, b) =>
      scoreOrder(a, b) || bestRank(a) - bestRank(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
};
