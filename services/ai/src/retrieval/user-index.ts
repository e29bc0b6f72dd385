import { Bm25Index } from '../local/bm25.js';
import { VectorRows } from './vector-rows.js';

/** One chunk of a note as searched: its tokens (BM25) and its vectors (meaning). */
export interface IndexedChunk {
  noteId: string;
  index: number;
  tokens: string[];
  /** Its vector by the embedding model; null when of another model than the query's (mid re-index). */
  vector: Float32Array | null;
  /**
   * Its vector by the retrieval encoder, as a passage (see `QueryVectors`); null or absent
   * until it is embedded, or when there is none.
   */
  retrievalVector?: Float32Array | null;
}

/**
 * A query's meaning: its vector by the embedding model, and by the retrieval encoder (the
 * local provider's e5, which embeds a query unlike a passage) when there is one.
 */
export interface QueryVectors {
  vector: Float32Array | undefined;
  retrievalVector?: Float32Array | undefined;
  /**
   * `vector`'s cosines with an index's chunks (`UserIndex.vectorScores`), scanned while the
   * retrieval vector was still being embedded; used by that index while it is unchanged.
   */
  vectorScores?: VectorScores | undefined;
}

/** A query vector's cosines with every chunk of one index as it stood (`UserIndex.vectorScores`). */
export interface VectorScores {
  readonly index: UserIndex;
  readonly revision: number;
  readonly scores: Float32Array;
}

export interface ChunkHit {
  /** `noteId:index` */
  key: string;
  noteId: string;
  index: number;
  score: number;
  /** Found by words: the share of the query's information it holds (see Bm25Hit). */
  coverage?: number;
}

export const chunkKey = (noteId: string, index: number) => `${noteId}:${index}`;

/**
 * A chunk as the index holds it: its tokens live on only in the BM25 postings (holding them
 * here too, as strings, took most of the heap of a user with 10,000 notes), its vectors only
 * in the spaces' rows, at `row`.
 */
interface HeldChunk {
  noteId: string;
  index: number;
  tokenCount: number;
  row: number;
}

/**
 * Bytes of a chunk held beyond its vectors and postings (its maps' entries, its key and
 * object), as measured: 18,610 chunks of 10,000 notes took 17 MB of heap.
 */
const CHUNK_BYTES = 1_000;

/**
 * The retrieval encoder's share of a chunk's meaning when both vectors are there: each
 * space's cosines are taken as z-scores over the user's chunks (each model has its own scale:
 * e5's cosines crowd between 0.7 and 0.9, the sentence encoder's spread from 0 to 0.7), and
 * summed with these weights. On the evaluation (`npm run eval:ai`, 357 notes, 122 reworded
 * questions), recall@5 overall and on reworded questions: 0.846 and 0.721 at 0.5, 0.858 and
 * 0.746 at 0.55, 0.849 and 0.738 at 0.6, 0.834 and 0.721 at 0.7; the sentence encoder alone
 * 0.769 and 0.590, e5 alone 0.718 and 0.598.
 */
const RETRIEVAL_WEIGHT = 0.55;

/** A query's meaning scored against every chunk of an index (`UserIndex.meaning`). */
export interface Meaning {
  /** The chunks nearest the query, best first; `skip` leaves notes out. */
  nearest(limit: number, skip?: (noteId: string) => boolean): ChunkHit[];
  /** One chunk's score; undefined when it has no vector to score. */
  of(key: string): number | undefined;
}

/** Mean and standard deviation of `scores` at the rows `held` says. */
const spreadOf = (scores: Float32Array, held: (row: number) => boolean) => {
  let count = 0;
  let sum = 0;
  let squares = 0;
  scores.forEach((score, row) => {
    if (!held(row)) return;
    count += 1;
    sum += score;
    squares += score * score;
  });
  const mean = count === 0 ? 0 : sum / count;
  const deviation = Math.sqrt(Math.max(0, count === 0 ? 0 : squares / count - mean * mean));
  return { mean, deviation: deviation || 1 };
};

/**
 * One user's chunks in memory, searched by BM25 and by cosine similarity, and brought up to
 * date in place as notes change. A user's index is small next to the whole (the scale path
 * partitions it by user), so exact search over it is fast and needs no vector extension in
 * Postgres. Searches are synchronous, so a change never lands in the middle of one.
 */
export class UserIndex {
  private readonly byKey = new Map<string, HeldChunk>();
  private readonly byNote = new Map<string, HeldChunk[]>();
  private readonly bm25 = new Bm25Index();
  /** The embedding model's vectors, and the retrieval encoder's, a row per chunk. */
  private readonly vectors = new VectorRows();
  private readonly retrievalVectors = new VectorRows();
  /** The chunk of each row; a freed row (its note changed) is undefined and zero. */
  private readonly rows: (HeldChunk | undefined)[] = [];
  private readonly freeRows: number[] = [];
  private capacity = 0;
  /** Moves on with every change to the chunks, so that scores scanned before it are not read. */
  private revision = 0;

  constructor(chunks: IndexedChunk[]) {
    this.addChunks(chunks);
  }

  /** How many chunks it holds. */
  get chunkCount(): number {
    return this.byKey.size;
  }

  /** Bytes this index holds, for the cache's budget. */
  get size(): number {
    return (
      this.byKey.size * CHUNK_BYTES +
      this.bm25.bytes +
      this.vectors.bytes +
      this.retrievalVectors.bytes
    );
  }

  chunk(key: string): HeldChunk | undefined {
    return this.byKey.get(key);
  }

  /** Adds chunks; a chunk already there (same note and index) is replaced. */
  addChunks(chunks: IndexedChunk[]): void {
    for (const { vector, retrievalVector } of chunks) {
      if (vector) this.vectors.accepts(vector);
      if (retrievalVector) this.retrievalVectors.accepts(retrievalVector);
    }
    this.reserveRows(chunks.length);
    this.revision += 1;
    for (const { noteId, index, tokens, vector, retrievalVector } of chunks) {
      const key = chunkKey(noteId, index);
      if (this.byKey.has(key)) this.removeChunk(key);
      const row = this.freeRows.pop() ?? this.rows.length;
      if (row >= this.capacity) this.reserveRows(1);
      const chunk: HeldChunk = { noteId, index, tokenCount: tokens.length, row };
      this.rows[row] = chunk;
      this.byKey.set(key, chunk);
      this.byNote.set(noteId, [...(this.byNote.get(noteId) ?? []), chunk]);
      this.bm25.add(key, tokens);
      if (vector && this.vectors.accepts(vector)) this.vectors.set(row, vector);
      if (retrievalVector && this.retrievalVectors.accepts(retrievalVector)) {
        this.retrievalVectors.set(row, retrievalVector);
      }
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
    this.revision += 1;
    this.byKey.delete(key);
    const siblings = (this.byNote.get(chunk.noteId) ?? []).filter((other) => other !== chunk);
    if (siblings.length > 0) this.byNote.set(chunk.noteId, siblings);
    else this.byNote.delete(chunk.noteId);
    this.bm25.remove(key);
    this.rows[chunk.row] = undefined;
    this.vectors.clear(chunk.row);
    this.retrievalVectors.clear(chunk.row);
    this.freeRows.push(chunk.row);
  }

  /**
   * Room for `count` more chunks: all of them at once when they come together (a whole index
   * read), an eighth more than needed when one note changes, so growth stays amortised.
   */
  private reserveRows(count: number) {
    const needed = this.rows.length + Math.max(0, count - this.freeRows.length);
    if (needed > this.capacity) {
      this.capacity = Math.max(16, count > 1 ? needed : Math.ceil(needed * 1.125));
    }
    // A space whose first vector comes now (none of its model before) is grown to the rest.
    this.vectors.grow(this.capacity);
    this.retrievalVectors.grow(this.capacity);
  }

  lexical(queryTokens: string[], limit: number): ChunkHit[] {
    return this.bm25.search(queryTokens, limit).map(({ id, score, coverage }) => {
      const chunk = this.byKey.get(id) as HeldChunk;
      return { key: id, noteId: chunk.noteId, index: chunk.index, score, coverage };
    });
  }

  /**
   * The cosines of `vector` (the embedding model's) with every chunk, for `meaning` to take up
   * later: search scans them while the query's retrieval vector is still on its way.
   */
  vectorScores(vector: Float32Array): VectorScores | undefined {
    const scores = this.vectors.scores(vector, this.rows.length);
    return scores && { index: this, revision: this.revision, scores };
  }

  /**
   * The query's meaning against every chunk: the cosine of its vector with the chunk's, or,
   * when both have a vector by the retrieval encoder too, both cosines fused (each as a
   * z-score over the user's chunks, weighed by RETRIEVAL_WEIGHT) and put back on the scale of
   * the embedding model's cosines, so that what is read off them (the relevance floors, the
   * words' lift) means what it did. A chunk still without a retrieval vector (embedded in the
   * background after it is indexed) is scored by the embedding model alone.
   */
  meaning(query: QueryVectors): Meaning {
    const count = this.rows.length;
    const scanned = query.vectorScores;
    const first =
      query.vector &&
      (scanned?.index === this && scanned.revision === this.revision
        ? scanned.scores
        : this.vectors.scores(query.vector, count));
    const second =
      query.retrievalVector && this.retrievalVectors.scores(query.retrievalVector, count);
    let scores: Float32Array;
    let held: (row: number) => boolean;
    if (first && second) {
      const a = spreadOf(first, (row) => this.vectors.has(row));
      const b = spreadOf(second, (row) => this.retrievalVectors.has(row));
      scores = new Float32Array(count);
      for (let row = 0; row < count; row += 1) {
        const z = (first[row]! - a.mean) / a.deviation;
        if (!this.retrievalVectors.has(row)) scores[row] = first[row]!;
        else {
          const fused = this.vectors.has(row)
            ? (1 - RETRIEVAL_WEIGHT) * z +
              (RETRIEVAL_WEIGHT * (second[row]! - b.mean)) / b.deviation
            : (second[row]! - b.mean) / b.deviation;
          scores[row] = a.mean + a.deviation * fused;
        }
      }
      held = (row) => this.vectors.has(row) || this.retrievalVectors.has(row);
    } else if (first) {
      scores = first;
      held = (row) => this.vectors.has(row);
    } else {
      return { nearest: () => [], of: () => undefined };
    }
    return {
      nearest: (limit, skip) => this.nearest(scores, held, limit, skip),
      of: (key) => {
        const row = this.byKey.get(key)?.row;
        return row !== undefined && held(row) ? scores[row] : undefined;
      },
    };
  }

  private nearest(
    scores: Float32Array,
    held: (row: number) => boolean,
    limit: number,
    skip?: (noteId: string) => boolean,
  ): ChunkHit[] {
    const best: ChunkHit[] = [];
    if (limit <= 0) return best;
    scores.forEach((score, row) => {
      if (score <= 0 || !held(row)) return;
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

  /** The chunks nearest `vector` (unit length) by the embedding model alone, best first. */
  semantic(vector: Float32Array, limit: number, skip?: (noteId: string) => boolean): ChunkHit[] {
    return this.meaning({ vector }).nearest(limit, skip);
  }

  /** Whether any chunk of the note is held. */
  hasNote(noteId: string): boolean {
    return this.byNote.has(noteId);
  }

  /** The mean of a note's chunk vectors by the embedding model, unit length: its meaning as a whole. */
  noteVector(noteId: string): Float32Array | undefined {
    return this.vectors.mean((this.byNote.get(noteId) ?? []).map((chunk) => chunk.row));
  }

  /** Whether the index holds retrieval vectors at all (and a query's is worth making). */
  get hasRetrievalVectors(): boolean {
    return this.retrievalVectors.bytes > 0;
  }
}
