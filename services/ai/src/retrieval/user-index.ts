import { Bm25Index } from '../local/bm25.js';

/** One chunk of a note as searched: its tokens (BM25) and its vector (meaning). */
export interface IndexedChunk {
  noteId: string;
  index: number;
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
  /** Found by words: the share of the query's information it holds (see Bm25Hit). */
  coverage?: number;
}

export const chunkKey = (noteId: string, index: number) => `${noteId}:${index}`;

/**
 * A chunk as the index holds it: its tokens live on only in the BM25 postings (holding them
 * here too, as strings, took most of the heap of a user with 10,000 notes), its vector only in
 * the matrix, at `row` (undefined when it has none of the index's model).
 */
interface HeldChunk {
  noteId: string;
  index: number;
  tokenCount: number;
  row: number | undefined;
}

/** The int8 range a vector's components are scaled into. */
const QUANTUM = 127;

/**
 * Bytes of a chunk held beyond its vector and postings (its maps' entries, its key and object),
 * as measured: 18,610 chunks of 10,000 notes took 17 MB of heap.
 */
const CHUNK_BYTES = 1_000;

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
  /**
   * The chunks' vectors, row after row, for a scan that stays in cache. Each is kept as int8,
   * scaled by its largest component (`scales` holds the factor back): a quarter of float32's
   * memory, and cosine scores within about 1% of float32's, which leaves rankings as they were
   * (the retrieval evaluation, `npm run eval:ai`, measures it).
   */
  private matrix = new Int8Array(0);
  private scales = new Float32Array(0);
  private dimensions = 0;
  /** The chunk of each row of `matrix`; a freed row (its note changed) is undefined and zero. */
  private readonly rows: (HeldChunk | undefined)[] = [];
  private readonly freeRows: number[] = [];

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
      this.matrix.byteLength +
      this.scales.byteLength
    );
  }

  chunk(key: string): HeldChunk | undefined {
    return this.byKey.get(key);
  }

  /** Adds chunks; a chunk already there (same note and index) is replaced. */
  addChunks(chunks: IndexedChunk[]): void {
    const vectors = chunks.flatMap((chunk) => (chunk.vector ? [chunk.vector] : []));
    if (this.dimensions === 0) this.dimensions = vectors[0]?.length ?? 0;
    this.reserveRows(vectors.filter((vector) => vector.length === this.dimensions).length);
    for (const { noteId, index, tokens, vector } of chunks) {
      const key = chunkKey(noteId, index);
      if (this.byKey.has(key)) this.removeChunk(key);
      const chunk: HeldChunk = { noteId, index, tokenCount: tokens.length, row: undefined };
      this.byKey.set(key, chunk);
      this.byNote.set(noteId, [...(this.byNote.get(noteId) ?? []), chunk]);
      this.bm25.add(key, tokens);
      if (vector) this.addVector(chunk, vector);
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
    const { row } = chunk;
    if (row === undefined) return;
    this.rows[row] = undefined;
    this.matrix.fill(0, row * this.dimensions, (row + 1) * this.dimensions);
    this.scales[row] = 0;
    this.freeRows.push(row);
  }

  /**
   * Room for `count` more vectors: all of them at once when they come together (a whole index
   * read), an eighth more than needed when one note changes, so growth stays amortised.
   */
  private reserveRows(count: number) {
    const d = this.dimensions;
    const needed = this.rows.length + Math.max(0, count - this.freeRows.length);
    if (d === 0 || needed <= this.scales.length) return;
    const capacity = Math.max(16, count > 1 ? needed : Math.ceil(needed * 1.125));
    const matrix = new Int8Array(capacity * d);
    matrix.set(this.matrix);
    const scales = new Float32Array(capacity);
    scales.set(this.scales);
    this.matrix = matrix;
    this.scales = scales;
  }

  private addVector(chunk: HeldChunk, vector: Float32Array) {
    // Vectors of another model (mid re-embedding) cannot be compared with the query's.
    if (vector.length !== this.dimensions) return;
    const d = this.dimensions;
    const row = this.freeRows.pop() ?? this.rows.length;
    if (row >= this.scales.length) this.reserveRows(1);
    let largest = 0;
    for (const value of vector) largest = Math.max(largest, Math.abs(value));
    const base = row * d;
    if (largest > 0) {
      for (let i = 0; i < d; i += 1) {
        this.matrix[base + i] = Math.round(((vector[i] as number) / largest) * QUANTUM);
      }
    }
    this.scales[row] = largest / QUANTUM;
    this.rows[row] = chunk;
    chunk.row = row;
  }

  lexical(queryTokens: string[], limit: number): ChunkHit[] {
    return this.bm25.search(queryTokens, limit).map(({ id, score, coverage }) => {
      const chunk = this.byKey.get(id) as HeldChunk;
      return { key: id, noteId: chunk.noteId, index: chunk.index, score, coverage };
    });
  }

  /** The cosine of one chunk's vector with `vector` (unit length); undefined without one. */
  similarity(key: string, vector: Float32Array): number | undefined {
    const row = this.byKey.get(key)?.row;
    const d = this.dimensions;
    if (row === undefined || vector.length !== d) return undefined;
    let score = 0;
    for (let i = 0, base = row * d; i < d; i += 1) {
      score += (vector[i] as number) * (this.matrix[base + i] as number);
    }
    return score * (this.scales[row] as number);
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
    const { matrix, scales } = this;
    const scores = new Float32Array(this.rows.length);
    for (let row = 0, base = 0; row < scores.length; row += 1, base += d) {
      let score = 0;
      for (let k = 0; k < dims.length; k += 1) {
        score += (weights[k] as number) * (matrix[base + (dims[k] as number)] as number);
      }
      scores[row] = score * (scales[row] as number);
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

  /** Whether any chunk of the note is held. */
  hasNote(noteId: string): boolean {
    return this.byNote.has(noteId);
  }

  /** The mean of a note's chunk vectors, normalised: the note's meaning as a whole. */
  noteVector(noteId: string): Float32Array | undefined {
    const rows = (this.byNote.get(noteId) ?? []).flatMap((chunk) =>
      chunk.row === undefined ? [] : [chunk.row],
    );
    if (rows.length === 0) return undefined;
    const d = this.dimensions;
    const mean = new Float32Array(d);
    for (const row of rows) {
      const scale = this.scales[row] as number;
      for (let i = 0; i < d; i += 1) {
        mean[i] = (mean[i] as number) + (this.matrix[row * d + i] as number) * scale;
      }
    }
    const norm = Math.hypot(...mean);
    if (norm === 0) return undefined;
    for (let i = 0; i < d; i += 1) mean[i] = (mean[i] as number) / norm;
    return mean;
  }
}
