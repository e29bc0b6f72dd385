import { Bm25Index } from '../local/bm25.js';

/** One chunk of a note as searched: its tokens (BM25) and its vector (meaning). */
export interface IndexedChunk {
  noteId: string;
  index: number;
  title: string;
  tags: string[];
  tokens: string[];
  /** Null when the chunk's vector is of another model than the query's (mid re-index). */
  vector: Float32Array | null;
}

export interface ChunkHit {
  /** `noteId:index` */
  key: string;
  noteId: string;
  index: number;
  score: number;
}

export const chunkKey = (noteId: string, index: number) => `${noteId}:${index}`;

/**
 * One user's chunks in memory, searched by BM25 and by cosine similarity. A user's index is
 * small next to the whole (the scale path partitions it by user), so exact search over it is
 * fast and needs no vector extension in Postgres.
 */
export class UserIndex {
  readonly chunks: IndexedChunk[];
  private readonly byKey = new Map<string, IndexedChunk>();
  private readonly bm25 = new Bm25Index();
  /** The chunks' vectors, row after row, for a scan that stays in cache. */
  private readonly matrix: Float32Array;
  private readonly dimensions: number;
  /** The chunk of each row of `matrix`. */
  private readonly rows: IndexedChunk[] = [];
  /** Bytes this index holds, for the cache's budget. */
  readonly size: number;

  constructor(chunks: IndexedChunk[]) {
    this.chunks = chunks;
    this.dimensions = chunks.find((chunk) => chunk.vector)?.vector?.length ?? 0;
    let size = 0;
    for (const chunk of chunks) {
      const key = chunkKey(chunk.noteId, chunk.index);
      this.byKey.set(key, chunk);
      this.bm25.add(key, chunk.tokens);
      if (chunk.vector?.length === this.dimensions && this.dimensions > 0) this.rows.push(chunk);
      size += 200 + chunk.tokens.length * 40;
    }
    this.matrix = new Float32Array(this.rows.length * this.dimensions);
    this.rows.forEach((chunk, row) => {
      const start = row * this.dimensions;
      this.matrix.set(chunk.vector as Float32Array, start);
      // A view into the matrix: each vector is held once.
      chunk.vector = this.matrix.subarray(start, start + this.dimensions);
    });
    this.size = size + this.matrix.byteLength;
  }

  chunk(key: string): IndexedChunk | undefined {
    return this.byKey.get(key);
  }

  lexical(queryTokens: string[], limit: number): ChunkHit[] {
    return this.bm25.search(queryTokens, limit).map(({ id, score }) => {
      const chunk = this.byKey.get(id) as IndexedChunk;
      return { key: id, noteId: chunk.noteId, index: chunk.index, score };
    });
  }

  /**
   * The chunks nearest `vector` (unit length), best first; `skip` leaves notes out. Only the
   * query's non-zero dimensions are visited: a short query's hashed vector is mostly zeros.
   */
  semantic(vector: Float32Array, limit: number, skip?: (noteId: string) => boolean): ChunkHit[] {
    const d = this.dimensions;
    if (vector.length !== d || limit <= 0) return [];
    const dims: number[] = [];
    const weights: number[] = [];
    vector.forEach((value, dim) => {
      if (value !== 0) {
        dims.push(dim);
        weights.push(value);
      }
    });
    const matrix = this.matrix;
    const scores = new Float32Array(this.rows.length);
    for (let row = 0, base = 0; row < scores.length; row += 1, base += d) {
      let score = 0;
      for (let k = 0; k < dims.length; k += 1) {
        score += (weights[k] as number) * (matrix[base + (dims[k] as number)] as number);
      }
      scores[row] = score;
    }
    const best: ChunkHit[] = [];
    scores.forEach((score, row) => {
      if (score <= 0) return;
      if (best.length === limit && score <= (best[limit - 1] as ChunkHit).score) return;
      const chunk = this.rows[row] as IndexedChunk;
      if (skip?.(chunk.noteId)) return;
      let at = best.length;
      while (at > 0 && (best[at - 1] as ChunkHit).score < score) at -= 1;
      best.splice(at, 0, {
        key: chunkKey(chunk.noteId, chunk.index),
        noteId: chunk.noteId,
        index: chunk.index,
        score,
      });
      if (best.length > limit) best.pop();
    });
    return best;
  }

  /** The mean of a note's chunk vectors, normalised: the note's meaning as a whole. */
  noteVector(noteId: string): Float32Array | undefined {
    const vectors = this.chunks
      .filter((chunk) => chunk.noteId === noteId && chunk.vector)
      .map((chunk) => chunk.vector as Float32Array);
    const first = vectors[0];
    if (!first) return undefined;
    const mean = new Float32Array(first.length);
    for (const vector of vectors) {
      for (let i = 0; i < mean.length; i += 1)
        mean[i] = (mean[i] as number) + (vector[i] as number);
    }
    const norm = Math.hypot(...mean);
    if (norm === 0) return undefined;
    for (let i = 0; i < mean.length; i += 1) mean[i] = (mean[i] as number) / norm;
    return mean;
  }

  noteTokens(noteId: string): string[] {
    return this.chunks.filter((chunk) => chunk.noteId === noteId).flatMap((chunk) => chunk.tokens);
  }
}

/** Best hit per note, in order: the notes a chunk ranking points to. */
export const notesOf = <T extends { noteId: string }>(hits: T[]): T[] => {
  const seen = new Set<string>();
  return hits.filter((hit) => {
    if (seen.has(hit.noteId)) return false;
    seen.add(hit.noteId);
    return true;
  });
};
