import { HASHED_EMBEDDING_MODEL, hashedEmbedding } from '../local/embeddings.js';
import { loadSentenceEncoder } from '../local/use/encoder.js';
import { DEFAULT_USE_MODEL_DIR, USE_MODEL } from '../local/use/model-dir.js';
import { chunkNote } from '../local/chunks.js';
import { queryTokens, tokenize } from '../local/text.js';
import { rankNotes, retrieveNotes, type Ranker } from './hybrid.js';
import { UserIndex } from './user-index.js';

export interface EvaluatedNote {
  id: string;
  title: string;
  body: string;
  tags: string[];
}

export interface EvaluatedQuestion {
  question: string;
  /** The notes that answer it: none for a question the notes do not answer. */
  relevant: string[];
  /** What kind of question it is (keyword, reworded, ...): figures are also given per group. */
  group?: string;
}

/** The group that holds every question. */
export const ALL_QUESTIONS = 'all';

export interface RetrievalScores {
  /** How many questions the figures average over. */
  questions: number;
  /**
   * Share of each question's relevant notes among its first five results, averaged; for a
   * question no note answers, 1 when nothing is found (search says so) and 0 otherwise.
   */
  recallAt5: number;
  /** 1 / rank of the first relevant note (0 beyond the tenth), averaged. */
  mrr: number;
}

/**
 * A ranking evaluated: one of the rankers, or `retrieved`, the hybrid ranking's relevant notes
 * (`retrieveNotes`), which AI search and knowledge chat are given.
 */
export type EvaluatedRanker = Ranker | 'retrieved';

export interface RetrievalQuality extends RetrievalScores {
  ranker: EvaluatedRanker;
  /**
   * The same figures per question group, in the order the groups first appear, then `all`
   * (equal to the figures above). Questions without a group count only in `all`; questions no
   * note answers only in their group.
   */
  groups: Record<string, RetrievalScores>;
}

/** Vectors for texts, in order: the local model's, or the hashed ones. */
export type EmbedTexts = (texts: string[]) => Float32Array[];

export const hashedEmbeddings: EmbedTexts = (texts) => texts.map((text) => hashedEmbedding(text));

/** The local provider's embeddings by name: the sentence encoder (loaded here) and the hashed vectors. */
export const localEmbeddings = (): [model: string, embed: EmbedTexts][] => {
  const encoder = loadSentenceEncoder(DEFAULT_USE_MODEL_DIR);
  return [
    [USE_MODEL, (texts) => encoder.embed(texts)],
    [HASHED_EMBEDDING_MODEL, hashedEmbeddings],
  ];
};

/** A user's index built as the service builds it, with the embeddings given (hashed unless said). */
export const indexOfNotes = (
  notes: EvaluatedNote[],
  embed: EmbedTexts = hashedEmbeddings,
): UserIndex => {
  const chunks = notes.flatMap((note) =>
    chunkNote({ title: note.title, body: note.body }).map((chunk) => ({ note, chunk })),
  );
  const vectors = embed(chunks.map(({ chunk }) => chunk.text));
  return new UserIndex(
    chunks.map(({ note, chunk }, i) => ({
      noteId: note.id,
      index: chunk.index,
      tokens: tokenize(chunk.text),
      vector: vectors[i]!,
    })),
  );
};

/**
 * Recall@5 and MRR of each ranker over the questions, overall and per question group; the
 * relevance cut of `retrieved` is the embedding model's named.
 */
export const evaluateRetrieval = (
  index: UserIndex,
  questions: EvaluatedQuestion[],
  rankers: EvaluatedRanker[] = ['bm25', 'semantic', 'hybrid', 'retrieved'],
  embed: EmbedTexts = hashedEmbeddings,
  model = HASHED_EMBEDDING_MODEL,
): RetrievalQuality[] => {
  const vectors = embed(questions.map(({ question }) => question));
  const groups = [
    ...new Set(questions.flatMap(({ group }) => (group === undefined ? [] : [group]))),
  ].filter((group) => group !== ALL_QUESTIONS);
  return rankers.map((ranker) => {
    const sums = new Map<string, { questions: number; recall: number; reciprocal: number }>(
      [...groups, ALL_QUESTIONS].map((group) => [
        group,
        { questions: 0, recall: 0, reciprocal: 0 },
      ]),
    );
    for (const [i, { question, relevant, group }] of questions.entries()) {
      const query = { tokens: queryTokens(question), vector: vectors[i] };
      const ranked = (
        ranker === 'retrieved'
          ? retrieveNotes(index, query, model, { limit: 10 })
          : rankNotes(index, query, ranker, 10)
      ).map((hit) => hit.noteId);
      const wanted = new Set(relevant);
      const answerable = wanted.size > 0;
      const recall = answerable
        ? ranked.slice(0, 5).filter((id) => wanted.has(id)).length / wanted.size
        : Number(ranked.length === 0);
      const first = ranked.findIndex((id) => wanted.has(id));
      const reciprocal = answerable ? (first < 0 ? 0 : 1 / (first + 1)) : recall;
      const counted = answerable ? [group ?? ALL_QUESTIONS, ALL_QUESTIONS] : group ? [group] : [];
      for (const name of new Set(counted)) {
        const sum = sums.get(name)!;
        sum.questions += 1;
        sum.recall += recall;
        sum.reciprocal += reciprocal;
      }
    }
    const scores = Object.fromEntries(
      [...sums].map(([name, sum]): [string, RetrievalScores] => [
        name,
        {
          questions: sum.questions,
          recallAt5: sum.questions === 0 ? 0 : sum.recall / sum.questions,
          mrr: sum.questions === 0 ? 0 : sum.reciprocal / sum.questions,
        },
      ]),
    );
    return { ranker, ...scores[ALL_QUESTIONS]!, groups: scores };
  });
};
