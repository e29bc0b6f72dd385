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
 * One user's chunks in memory, searched by BM25 and by cosine similarity, and brought up to
 * date in place as notes change. A user's index is small next to the whole (the scale path
 * partitions it by user), so exact search over it is fast and needs no vector extension in
 * Postgres. Searches are synchronous, so a change never lands in the middle of one.
 */
export class UserIndex {
  private readonly byKey = new Map<string, IndexedChunk>();
  private readonly byNote = new Map<string, IndexedChunk[]>();
  private readonly bm25 = new Bm25Index();
  /** The chunks' vectors, row after row, for a scan that stays in cache; grown by doubling. */
  private matrix = new Float32Array(0);
  private dimensions = 0;
  /** The chunk of each row of `matrix`; a freed row (its note changed) is undefined and zero. */
  private readonly rows: (IndexedChunk | undefined)[] = [];
  private readonly rowOf = new Map<string, number>();
  private readonly freeRows: number[] = [];
  private tokenCount = 0;

  constructor(chunks: IndexedChunk[]) {
    this.addChunks(chunks);
  }

  get chunks(): IndexedChunk[] {
    return [...this.byKey.values()];
  }

  /** Bytes this index holds, roughly, for the cache's budget. */
  get size(): number {
    return this.byKey.size * 200 + this.tokenCount * 40 + this.matrix.byteLength;
  }

  chunk(key: string): IndexedChunk | undefined {
    return this.byKey.get(key);
  }

  /** Adds chunks; a chunk already there (same note and index) is replaced. */
  addChunks(chunks: IndexedChunk[]): void {
    for (const chunk of chunks) {
      const key = chunkKey(chunk.noteId, chunk.index);
      if (this.byKey.has(key)) this.removeChunk(key);
      this.byKey.set(key, chunk);
      this.byNote.set(chunk.noteId, [...(this.byNote.get(chunk.noteId) ?? []), chunk]);
      this.bm25.add(key, chunk.tokens);
      this.tokenCount += chunk.tokens.length;
      if (chunk.vector) this.addVector(key, chunk, chunk.vector);
    }
  }

  /** Takes every chunk of these notes out. */
  removeNotes(noteIds: Iterable<string>): void {
    for (const noteId of noteIds) {
      for (const chunk of this.byNote.get(noteId) ?? []) {
        this.removeChunk(chunkKey(chunk.noteId, chunk.index));
      }
    }
  }

  private removeChunk(key: string) {
    const chunk = this.byKey.get(key);
    if (!chunk) return;
    this.byKey.delete(key);
    const siblings = (this.byNote.get(chunk.noteId) ?? []).filter((other) => other !== chunk);
    if (siblings.length > 0) this.byNote.set(chunk.noteId, siblings);
    else this.byNote.delete(chunk.noteId);
    this.bm25.remove(key);
    this.tokenCount -= chunk.tokens.length;
    const row = this.rowOf.get(key);
    if (row === undefined) return;
    this.rowOf.delete(key);
    this.rows[row] = undefined;
    this.matrix.fill(0, row * this.dimensions, (row + 1) * this.dimensions);
    this.freeRows.push(row);
  }

  private addVector(key: string, chunk: IndexedChunk, vector: Float32Array) {
    if (this.dimensions === 0) this.dimensions = vector.length;
    // Vectors of another model (mid re-embedding) cannot be compared with the query's.
    if (vector.length !== this.dimensions) {
      chunk.vector = null;
      return;
    }
    const d = this.dimensions;
    const row = this.freeRows.pop() ?? this.rows.length;
    if ((row + 1) * d > this.matrix.length) {
      const grown = new Float32Array(Math.max(16, (row + 1) * 2) * d);
      grown.set(this.matrix);
      this.matrix = grown;
      // Each vector is a view into the matrix, held once: point them at the new one.
      this.rows.forEach((held, at) => {
        if (held) held.vector = grown.subarray(at * d, (at + 1) * d);
      });
    }
    this.matrix.set(vector, row * d);
    chunk.vector = this.matrix.subarray(row * d, (row + 1) * d);
    this.rows[row] = chunk;
    this.rowOf.set(key, row);
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
      const chunk = this.rows[row];
      if (!chunk || skip?.(chunk.noteId)) return;
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
    const vectors = (this.byNote.get(noteId) ?? []).flatMap((chunk) =>
      chunk.vector ? [chunk.vector] : [],
    );
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
