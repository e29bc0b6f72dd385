import { summaryUnits } from './summary-units.js';
import { tokenize } from './text.js';
import { sentences } from '@noted/kit';

const DAMPING = 0.85;
const MAX_ITERATIONS = 30;
const CONVERGENCE = 1e-6;
// Bounds the work on enormous inputs; long notes keep their first sentences.
const MAX_SENTENCES_PER_DOCUMENT = 500;
const MAX_SENTENCES = 20_000;
/** A sentence with this many different terms says as much as a sentence can say. */
const FULL_SENTENCE_TERMS = 8;
/** The share of a sentence's score its centrality makes; the rest is how much it says. */
const CENTRALITY_SHARE = 0.6;
// A sentence this similar to one already chosen adds nothing to a summary.
const REDUNDANT_SIMILARITY = 0.8;

interface RankedSentence {
  text: string;
  terms: Set<string>;
  score: number;
}

/** A sentence as a unit-length term-frequency vector over numbered terms. */
interface SentenceVector {
  terms: Int32Array;
  weights: Float64Array;
}

const sentenceVectors = (termLists: string[][]): { vectors: SentenceVector[]; terms: number } => {
  const termIds = new Map<string, number>();
  const vectors = termLists.map((list) => {
    const frequencies = new Map<number, number>();
    for (const term of list) {
      let id = termIds.get(term);
      if (id === undefined) {
        id = termIds.size;
        termIds.set(term, id);
      }
      frequencies.set(id, (frequencies.get(id) ?? 0) + 1);
    }
    const norm = Math.sqrt([...frequencies.values()].reduce((sum, f) => sum + f * f, 0)) || 1;
    return {
      terms: Int32Array.from(frequencies.keys()),
      weights: Float64Array.from(frequencies.values(), (f) => f / norm),
    };
  });
  return { vectors, terms: termIds.size };
};

const dotWith = (vector: SentenceVector, dense: Float64Array): number => {
  let sum = 0;
  for (let k = 0; k < vector.terms.length; k++)
    sum += vector.weights[k]! * dense[vector.terms[k]!]!;
  return sum;
};

/**
 * TextRank (Mihalcea and Tarau, 2004) with cosine similarity of term-frequency vectors as edge
 * weights. The similarity matrix is X·Xᵀ, so each PageRank step multiplies through the terms
 * (X·(Xᵀ·u)) in time linear in the text instead of building all sentence pairs.
 */
const rank = (termLists: string[][]): number[] => {
  const { vectors, terms } = sentenceVectors(termLists);
  const count = vectors.length;
  // A sentence is not its own neighbour: remove x·x (1, or 0 when it has no terms).
  const selfSimilarity = vectors.map((vector) => (vector.terms.length > 0 ? 1 : 0));
  const termTotals = new Float64Array(terms);
  for (const vector of vectors) {
    for (let k = 0; k < vector.terms.length; k++)
      termTotals[vector.terms[k]!]! += vector.weights[k]!;
  }
  const outWeight = vectors.map((vector, i) => dotWith(vector, termTotals) - selfSimilarity[i]!);

  let scores = new Float64Array(count).fill(1);
  const flow = new Float64Array(count);
  const termFlow = new Float64Array(terms);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    termFlow.fill(0);
    for (let i = 0; i < count; i++) {
      flow[i] = outWeight[i]! > 1e-12 ? scores[i]! / outWeight[i]! : 0;
      const vector = vectors[i]!;
      for (let k = 0; k < vector.terms.length; k++) {
        termFlow[vector.terms[k]!]! += flow[i]! * vector.weights[k]!;
      }
    }
    const next = new Float64Array(count);
    let change = 0;
    for (let j = 0; j < count; j++) {
      const incoming = dotWith(vectors[j]!, termFlow) - flow[j]! * selfSimilarity[j]!;
      next[j] = 1 - DAMPING + DAMPING * Math.max(0, incoming);
      change = Math.max(change, Math.abs(next[j]! - scores[j]!));
    }
    scores = next;
    if (change < CONVERGENCE) break;
  }
  return Array.from(scores);
};

/**
 * Sentences scored by centrality (relative to the most central one) and, so that a sentence
 * sharing no word with the others is not worthless in a short note, by how much they say;
 * each score times the sentence's weight (1 unless given).
 */
const rankSentences = (texts: string[], weights?: number[]): RankedSentence[] => {
  const termLists = texts.map((text) => tokenize(text));
  const scores = rank(termLists);
  const most = Math.max(...scores, 1e-12);
  return texts.map((text, i) => {
    const terms = new Set(termLists[i]);
    const says = Math.min(1, terms.size / FULL_SENTENCE_TERMS);
    const score = CENTRALITY_SHARE * (scores[i]! / most) + (1 - CENTRALITY_SHARE) * says;
    return { text, terms, score: score * (weights?.[i] ?? 1) };
  });
};

const isRedundant = (candidate: RankedSentence, chosen: RankedSentence[]): boolean =>
  chosen.some((other) => overlapRatio(candidate.terms, other.terms) >= REDUNDANT_SIMILARITY);

/** Shared terms over the smaller set: 1 when one sentence says nothing the other does not. */
const overlapRatio = (a: Set<string>, b: Set<string>): number => {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return 0;
  let shared = 0;
  for (const term of small) if (large.has(term)) shared++;
  return shared / small.size;
};

/** Best first; equal scores keep the earlier sentence first. */
const byScore = <T extends { score: number; position: number }>(a: T, b: T): number =>
  b.score - a.score || a.position - b.position;

/**
 * The `maxSentences` most central sentences of a (Markdown) text, in their original order,
 * as a reader would say them (`summarySentences`: lists as sentences, the title left out).
 */
export const summarizeExtractive = (
  text: string,
  options: { maxSentences: number; title?: string },
): string[] => {
  const units = summaryUnits(text, options.title);
  if (units.length <= options.maxSentences) return units.map((unit) => unit.text);
  if (options.maxSentences <= 0) return [];
  const kept = units.slice(0, MAX_SENTENCES);
  const ranked = rankSentences(
    kept.map((unit) => unit.text),
    kept.map((unit) => unit.weight),
  ).map((sentence, position) => ({
    ...sentence,
    position,
  }));
  const chosen: typeof ranked = [];
  for (const candidate of [...ranked].sort(byScore)) {
    if (chosen.length >= options.maxSentences) break;
    if (!isRedundant(candidate, chosen)) chosen.push(candidate);
  }
  return chosen.sort((a, b) => a.position - b.position).map((sentence) => sentence.text);
};

export interface SummaryDocument {
  id: string;
  title: string;
  text: string;
}

/**
 * TextRank over the sentences (`summarySentences`) of many notes at once (a day, week, month
 * or year): the most central sentences, at most two per note unless there are few notes,
 * grouped in `docs` order. A note without text counts with its title.
 */
export const summarizeDocuments = (
  docs: SummaryDocument[],
  options: { maxSentences: number },
): { id: string; sentence: string }[] => {
  if (options.maxSentences <= 0) return [];
  // A note with a title and no body still says something: its title stands in as its sentence.
  const perDocument = docs.map((doc) => {
    const found = summaryUnits(doc.text, doc.title).slice(0, MAX_SENTENCES_PER_DOCUMENT);
    return found.length > 0
      ? found
      : sentences(doc.title)
          .slice(0, 1)
          .map((text) => ({ text, weight: 1 }));
  });
  const notesWithText = perDocument.filter((found) => found.length > 0).length;
  if (notesWithText === 0) return [];
  const perNoteCap = Math.max(2, Math.ceil(options.maxSentences / notesWithText));
  const sentenceBudget = Math.max(Math.floor(MAX_SENTENCES / notesWithText), 1);

  const entries = perDocument.flatMap((found, document) =>
    found.slice(0, sentenceBudget).map((unit, order) => ({ ...unit, document, order })),
  );
  const ranked = rankSentences(
    entries.map((entry) => entry.text),
    entries.map((entry) => entry.weight),
  ).map((sentence, position) => ({
    ...sentence,
    ...entries[position]!,
    position,
  }));
  const byBest = [...ranked].sort(byScore);

  // Coverage first: every note's best sentence, best notes first; then more up to the cap.
  const chosen: typeof ranked = [];
  const takenPerNote = new Map<number, number>();
  for (const cap of [1, perNoteCap]) {
    for (const candidate of byBest) {
      if (chosen.length >= options.maxSentences) break;
      const taken = takenPerNote.get(candidate.document) ?? 0;
      if (taken >= cap || chosen.includes(candidate) || isRedundant(candidate, chosen)) continue;
      chosen.push(candidate);
      takenPerNote.set(candidate.document, taken + 1);
    }
  }
  return chosen
    .sort((a, b) => a.document - b.document || a.order - b.order)
    .map((sentence) => ({ id: docs[sentence.document]!.id, sentence: sentence.text }));
};
