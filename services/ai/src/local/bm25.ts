export interface Bm25Hit {
  id: string;
  score: number;
  /**
   * The share of the query's information the document holds: the idf of the query terms it
   * contains over the idf of all the query's terms (a term no document has counts at the
   * highest idf). 1 when it has every term; near 0 when it shares only common ones.
   */
  coverage: number;
}

/** The documents (by slot) containing one term, with the term's frequency in each; unordered. */
interface Posting {
  slots: Int32Array;
  frequencies: Uint16Array;
  length: number;
}

const MAX_FREQUENCY = 0xffff;

/**
 * An incremental in-memory BM25 index. Documents live in numbered slots (reused after removal)
 * and terms get numbers, so postings are typed arrays (6 bytes per term in a document) and a
 * search adds scores into a typed array instead of a map keyed by id.
 */
export class Bm25Index {
  private readonly k1: number;
  private readonly b: number;
  private readonly termIds = new Map<string, number>();
  private readonly postings: Posting[] = [];
  private readonly slotOf = new Map<string, number>();
  private readonly ids: (string | undefined)[] = [];
  private readonly termsOf: (Int32Array | undefined)[] = [];
  private readonly freeSlots: number[] = [];
  private lengths = new Float64Array(64);
  private scratch = new Uint32Array(1024);
  private totalLength = 0;

  constructor(options: { k1?: number; b?: number } = {}) {
    this.k1 = options.k1 ?? 1.2;
    this.b = options.b ?? 0.75;
  }

  get size(): number {
    return this.slotOf.size;
  }

  /**
   * Bytes it holds: its typed arrays' contents, and about 200 bytes for each of them and for
   * each term's entry beside (a typed array's own object and buffer record, the term's string).
   */
  get bytes(): number {
    const overhead = 200;
    let bytes = this.lengths.byteLength + this.scratch.byteLength;
    for (const posting of this.postings) {
      bytes += posting.slots.byteLength + posting.frequencies.byteLength + 3 * overhead;
    }
    for (const terms of this.termsOf) bytes += terms ? terms.byteLength + overhead : 0;
    return bytes;
  }

  /** Adds a document, replacing any earlier one with the same id. */
  add(id: string, tokens: string[]): void {
    this.remove(id);
    // Counts per term in a reused typed array: a Map per document is the slow part of indexing.
    const termIds: number[] = [];
    for (const token of tokens) {
      const termId = this.termId(token);
      if (this.scratch[termId] === 0) termIds.push(termId);
      this.scratch[termId]!++;
    }

    const slot = this.freeSlots.pop() ?? this.ids.length;
    if (slot >= this.lengths.length) {
      const grown = new Float64Array(this.lengths.length * 2);
      grown.set(this.lengths);
      this.lengths = grown;
    }
    this.ids[slot] = id;
    this.lengths[slot] = tokens.length;
    this.termsOf[slot] = Int32Array.from(termIds);
    this.slotOf.set(id, slot);
    this.totalLength += tokens.length;

    for (const termId of termIds) {
      const posting = this.postings[termId]!;
      if (posting.length === posting.slots.length) {
        const slots = new Int32Array(posting.slots.length * 2);
        const grownFrequencies = new Uint16Array(slots.length);
        slots.set(posting.slots);
        grownFrequencies.set(posting.frequencies);
        posting.slots = slots;
        posting.frequencies = grownFrequencies;
      }
      posting.slots[posting.length] = slot;
      posting.frequencies[posting.length] = Math.min(this.scratch[termId]!, MAX_FREQUENCY);
      posting.length++;
      this.scratch[termId] = 0;
    }
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    for (const termId of this.termsOf[slot] ?? []) {
      const posting = this.postings[termId]!;
      const at = posting.slots.subarray(0, posting.length).indexOf(slot);
      if (at < 0) continue;
      const last = posting.length - 1;
      posting.slots[at] = posting.slots[last]!;
      posting.frequencies[at] = posting.frequencies[last]!;
      posting.length = last;
    }
    this.totalLength -= this.lengths[slot]!;
    this.lengths[slot] = 0;
    this.ids[slot] = undefined;
    this.termsOf[slot] = undefined;
    this.slotOf.delete(id);
    this.freeSlots.push(slot);
  }

  /** How many documents contain `term`. */
  documentFrequency(term: string): number {
    const termId = this.termIds.get(term);
    return termId === undefined ? 0 : this.postings[termId]!.length;
  }

  /** Documents matching any query term, best first; ties by id so results are stable. */
  search(queryTokens: string[], limit: number): Bm25Hit[] {
    const documents = this.size;
    if (documents === 0 || limit <= 0) return [];
    const averageLength = this.totalLength / documents || 1;
    const scores = new Float64Array(this.ids.length);
    const matched = new Float64Array(this.ids.length);
    const touched: number[] = [];
    const { k1, b, lengths } = this;
    let information = 0;

    for (const term of new Set(queryTokens)) {
      const termId = this.termIds.get(term);
      const posting = termId === undefined ? undefined : this.postings[termId];
      const frequent = posting?.length ?? 0;
      // The "+1" variant (Lucene's): idf stays positive even for terms in most documents.
      const idf = Math.log(1 + (documents - frequent + 0.5) / (frequent + 0.5));
      information += idf;
      if (!posting || frequent === 0) continue;
      const { slots, frequencies } = posting;
      for (let i = 0; i < posting.length; i++) {
        const slot = slots[i]!;
        const frequency = frequencies[i]!;
        const norm = k1 * (1 - b + (b * lengths[slot]!) / averageLength);
        if (scores[slot] === 0) touched.push(slot);
        scores[slot]! += (idf * frequency * (k1 + 1)) / (frequency + norm);
        matched[slot]! += idf;
      }
    }
    return this.topHits(scores, touched, limit).map(({ slot, score }) => ({
      id: this.ids[slot]!,
      score,
      coverage: information > 0 ? matched[slot]! / information : 0,
    }));
  }

  private termId(term: string): number {
    let termId = this.termIds.get(term);
    if (termId === undefined) {
      termId = this.postings.length;
      this.termIds.set(term, termId);
      this.postings.push({ slots: new Int32Array(4), frequencies: new Uint16Array(4), length: 0 });
      if (termId >= this.scratch.length) {
        const grown = new Uint32Array(this.scratch.length * 2);
        grown.set(this.scratch);
        this.scratch = grown;
      }
    }
    return termId;
  }

  private topHits(
    scores: Float64Array,
    slots: number[],
    limit: number,
  ): { slot: number; score: number }[] {
    // A min-heap of the best `limit` slots keeps a common query at O(n log limit).
    const heap: number[] = [];
    const worse = (x: number, y: number): boolean => {
      const scoreX = scores[x]!;
      const scoreY = scores[y]!;
      return scoreX !== scoreY ? scoreX < scoreY : this.ids[x]! > this.ids[y]!;
    };
    const siftDown = (from: number): void => {
      let parent = from;
      for (;;) {
        const left = 2 * parent + 1;
        const right = left + 1;
        let smallest = parent;
        if (left < heap.length && worse(heap[left]!, heap[smallest]!)) smallest = left;
        if (right < heap.length && worse(heap[right]!, heap[smallest]!)) smallest = right;
        if (smallest === parent) return;
        [heap[parent], heap[smallest]] = [heap[smallest]!, heap[parent]!];
        parent = smallest;
      }
    };
    for (const slot of slots) {
      if (!(scores[slot]! > 0)) continue;
      if (heap.length < limit) {
        heap.push(slot);
        for (let child = heap.length - 1; child > 0;) {
          const parent = (child - 1) >> 1;
          if (!worse(heap[child]!, heap[parent]!)) break;
          [heap[parent], heap[child]] = [heap[child]!, heap[parent]!];
          child = parent;
        }
      } else if (worse(heap[0]!, slot)) {
        heap[0] = slot;
        siftDown(0);
      }
    }
    return heap
      .sort((x, y) => (worse(x, y) ? 1 : worse(y, x) ? -1 : 0))
      .map((slot) => ({ slot, score: scores[slot]! }));
  }
}
