import { reciprocalRankFusion } from './fusion.js';
import { notesOf, type ChunkHit, type UserIndex } from './user-index.js';

/** How many candidates each ranking brings to the fusion. */
export const CANDIDATES = 50;

export type Ranker = 'bm25' | 'semantic' | 'hybrid';

export interface FusedHit {
  key: string;
  noteId: string;
  index: number;
  score: number;
  /** Found by words (BM25), by meaning (vectors), or both. */
  lexical: boolean;
  semantic: boolean;
}

const fused = (index: UserIndex, lexical: ChunkHit[], semantic: ChunkHit[]): FusedHit[] =>
  reciprocalRankFusion([lexical.map((hit) => hit.key), semantic.map((hit) => hit.key)]).flatMap(
    ({ id, score, ranks }) => {
      const chunk = index.chunk(id);
      return chunk
        ? [
            {
              key: id,
              noteId: chunk.noteId,
              index: chunk.index,
              score,
              lexical: ranks[0] !== null,
              semantic: ranks[1] !== null,
            },
          ]
        : [];
    },
  );

/**
 * The chunks that best answer a query, by one ranker: BM25 over words, cosine over vectors,
 * or both fused by reciprocal rank (which needs no score calibration between the two).
 */
export const rankChunks = (
  index: UserIndex,
  query: { tokens: string[]; vector: Float32Array | undefined },
  ranker: Ranker,
  limit: number,
  skip?: (noteId: string) => boolean,
): FusedHit[] => {
  const lexical =
    ranker === 'semantic'
      ? []
      : index
          .lexical(query.tokens, CANDIDATES + (skip ? CANDIDATES : 0))
          .filter((hit) => !skip?.(hit.noteId));
  const semantic =
    ranker === 'bm25' || !query.vector ? [] : index.semantic(query.vector, CANDIDATES, skip);
  return fused(index, lexical.slice(0, CANDIDATES), semantic).slice(0, limit);
};

/** The notes a ranking of chunks points to, best chunk of each, best first. */
export const rankNotes = (
  index: UserIndex,
  query: { tokens: string[]; vector: Float32Array | undefined },
  ranker: Ranker,
  limit: number,
  skip?: (noteId: string) => boolean,
): FusedHit[] => notesOf(rankChunks(index, query, ranker, CANDIDATES * 2, skip)).slice(0, limit);
