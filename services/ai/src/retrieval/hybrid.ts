import { E5_MODEL } from '../local/e5/model-dir.js';
import { USE_MODEL } from '../local/use/model-dir.js';
import type { ChunkHit, Meaning, QueryVectors, UserIndex } from './user-index.js';

/** How many candidates each ranking brings to the fusion. */
export const CANDIDATES = 50;

/**
 * What a chunk holding every word of the query gains, in units of the spread of the query's
 * cosines (the best candidate's minus the last's): enough to rise to the top when its meaning
 * is close too.
 */
const LEXICAL_WEIGHT = 1;
/** The smallest spread used, for a query whose candidates are all alike. */
const MIN_SPREAD = 0.02;

/**
 * The lift for holding `coverage` of the query's information: nothing up to half of it, then
 * growing to the full weight. A chunk that shares one word of a reworded question (most of
 * them share some word with some note) is no evidence of an answer.
 */
const lift = (coverage: number) => Math.max(0, 2 * coverage - 1);

export type Ranker = 'bm25' | 'semantic' | 'hybrid';

/** A query as ranked: its words (for BM25) and its vectors (for meaning). */
export interface SearchQuery extends QueryVectors {
  tokens: string[];
}

export interface FusedHit {
  key: string;
  noteId: string;
  index: number;
  score: number;
  /** Found by words (BM25), by meaning (vectors), or both. */
  lexical: boolean;
  semantic: boolean;
  /** The chunk's cosine with the query; undefined when ranked by words alone. */
  meaning?: number;
  /** What the query words it holds lift it by (`lift`): above 0 when it holds most of them. */
  evidence?: number;
}

const hitOf = (
  hit: ChunkHit,
  found: Pick<FusedHit, 'lexical' | 'semantic' | 'meaning' | 'evidence'>,
): FusedHit => ({
  key: hit.key,
  noteId: hit.noteId,
  index: hit.index,
  score: hit.score,
  ...found,
});

/**
 * Meaning first, words as evidence: each candidate's cosine with the query, plus a lift for
 * the query words it holds, weighed by their rarity (BM25's idf) and how much of the query
 * they cover (`lift`). A chunk that shares a common word or two gains nothing, so a question
 * worded differently from its answer ranks as by meaning alone; one that holds the query's
 * rare words rises. Reciprocal-rank fusion, which this replaces, gave the tenth chunk by BM25
 * as much weight as the tenth by meaning, however little the words it shared: on the
 * evaluation's reworded questions it found the answer in the first five for 15% of them,
 * against 68% by meaning alone (npm run eval:ai).
 */
const fused = (meaningOf: Meaning, lexical: ChunkHit[], semantic: ChunkHit[]): FusedHit[] => {
  const byMeaning = new Map(semantic.map((hit) => [hit.key, hit.score]));
  const best = semantic[0]?.score ?? 0;
  const last = semantic.at(-1)?.score ?? 0;
  const spread = Math.max(best - last, MIN_SPREAD);
  const coverage = new Map(lexical.map((hit) => [hit.key, hit.coverage ?? 0]));
  const candidates = new Map<string, ChunkHit>();
  for (const hit of [...semantic, ...lexical])
    if (!candidates.has(hit.key)) candidates.set(hit.key, hit);
  return [...candidates.values()]
    .map((hit) => {
      // A lexical candidate beyond the semantic list is scored by its own meaning; one without
      // a vector of the query's model (mid re-embedding) as the last semantic candidate.
      const meaning = byMeaning.get(hit.key) ?? meaningOf.of(hit.key) ?? last;
      const evidence = lift(coverage.get(hit.key) ?? 0);
      return hitOf(
        { ...hit, score: meaning + LEXICAL_WEIGHT * spread * evidence },
        { lexical: coverage.has(hit.key), semantic: byMeaning.has(hit.key), meaning, evidence },
      );
    })
    .sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
};

/**
 * The chunks that best answer a query, by one ranker: BM25 over words, cosine over vectors,
 * or meaning with the words as evidence (`fused`). Without a query vector, hybrid is BM25.
 */
export const rankChunks = (
  index: UserIndex,
  query: SearchQuery,
  ranker: Ranker,
  limit: number,
  skip?: (noteId: string) => boolean,
): FusedHit[] => {
  if (ranker === 'semantic') {
    return index
      .meaning(query)
      .nearest(limit, skip)
      .map((hit) => hitOf(hit, { lexical: false, semantic: true, meaning: hit.score }));
  }
  const lexical = index
    .lexical(query.tokens, CANDIDATES + (skip ? CANDIDATES : 0))
    .filter((hit) => !skip?.(hit.noteId))
    .slice(0, CANDIDATES);
  if (ranker === 'bm25' || !query.vector) {
    return lexical.slice(0, limit).map((hit) => hitOf(hit, { lexical: true, semantic: false }));
  }
  const meaning = index.meaning(query);
  return fused(meaning, lexical, meaning.nearest(CANDIDATES, skip)).slice(0, limit);
};

/** A note of a ranking: its best chunk's hit, and the note's chunks in the ranking, best first. */
export interface NoteHit extends FusedHit {
  chunks: number[];
}

/** The notes a ranking of chunks points to, best chunk of each first, best note first. */
export const rankNotes = (
  index: UserIndex,
  query: SearchQuery,
  ranker: Ranker,
  limit: number,
  skip?: (noteId: string) => boolean,
): NoteHit[] => {
  const notes = new Map<string, NoteHit>();
  for (const hit of rankChunks(index, query, ranker, CANDIDATES * 2, skip)) {
    const note = notes.get(hit.noteId);
    if (note) note.chunks.push(hit.index);
    else notes.set(hit.noteId, { ...hit, chunks: [hit.index] });
  }
  return [...notes.values()].slice(0, limit);
};

/**
 * Where a ranking by meaning stops being about the query, per vector space: a cosine `floor`
 * below which a chunk is not about it at all, and a `relative` share of the best note's score
 * below which a note found by meaning alone is what is left, not what is relevant.
 *
 * For the sentence encoder, measured on the evaluation corpus (246 notes, 168 questions): the
 * lowest tenth of the answers' cosines starts at 0.16 and the best chunk of an unrelated
 * question is often below 0.15; with the relative share of 0.7 the notes listed fell from 10
 * to 4.8 on average and from 10 to 2.8 for questions the notes do not answer, the answer still
 * among the first five for 83.8% of the questions, against 84.4% with no cut. For the sentence
 * encoder and e5 fused (`UserIndex.meaning`, on the first's scale), 0.12 and 0.6 keep every
 * answer the fused ranking has in its first five (357 notes, 239 answerable questions: 0.7
 * and 0.15 lost five of them). The hashed vectors and a configured model are cut by the
 * relative share alone.
 */
const MEANING_CUTS: Record<string, { floor: number; relative: number }> = {
  [USE_MODEL]: { floor: 0.15, relative: 0.7 },
  [fusedModel(USE_MODEL, E5_MODEL)]: { floor: 0.12, relative: 0.6 },
};
const RELATIVE_MEANING = 0.7;

/**
 * The hits that are relevant to the query: those holding most of its words (`evidence`), and
 * those close enough in meaning (`MEANING_CUTS`). A ranking by words alone is kept as it is,
 * and so is a note `kept` says was found otherwise.
 */
export const relevantHits = <Hit extends FusedHit>(
  hits: Hit[],
  model: string,
  kept: (noteId: string) => boolean = () => false,
): Hit[] => {
  const best = Math.max(0, ...hits.map((hit) => hit.meaning ?? 0));
  const { floor, relative } = MEANING_CUTS[model] ?? { floor: 0, relative: RELATIVE_MEANING };
  const cut = Math.max(floor, relative * best);
  return hits.filter(
    (hit) =>
      hit.meaning === undefined ||
      (hit.evidence ?? 0) > 0 ||
      hit.meaning >= cut ||
      kept(hit.noteId),
  );
};

/** The name of the space two models' vectors are fused in, as `UserIndex.meaning` fuses them. */
export function fusedModel(model: string, retrievalModel: string): string {
  return `${model}+${retrievalModel}`;
}

/**
 * The notes a query finds, as AI search, knowledge chat and tag suggestions all take them: the
 * hybrid ranking's notes, less those that are not relevant (`relevantHits`), best first. One
 * ranking for all of them, so the chat reads the notes search would show. `model` names the
 * query's vectors, `retrievalModel` its retrieval vector's when it has one.
 */
export const retrieveNotes = (
  index: UserIndex,
  query: SearchQuery,
  model: string,
  options: {
    limit?: number;
    skip?: (noteId: string) => boolean;
    kept?: (noteId: string) => boolean;
    retrievalModel?: string | undefined;
  } = {},
): NoteHit[] => {
  const fused = query.retrievalVector && index.hasRetrievalVectors && options.retrievalModel;
  return relevantHits(
    rankNotes(index, query, 'hybrid', CANDIDATES, options.skip),
    fused ? fusedModel(model, fused) : model,
    options.kept,
  ).slice(0, options.limit ?? CANDIDATES);
};
