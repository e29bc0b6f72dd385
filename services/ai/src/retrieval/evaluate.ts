import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadE5Encoder, type E5Encoder } from '../local/e5/encoder.js';
import { DEFAULT_E5_MODEL_DIR, E5_MODEL, E5_MODEL_FILE } from '../local/e5/model-dir.js';
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

/** A retrieval encoder, which embeds a query unlike a passage (e5), by name. */
export interface RetrievalEncoder {
  model: string;
  embed: (texts: string[], kind: 'query' | 'passage') => Float32Array[];
}

export const hashedEmbeddings: EmbedTexts = (texts) => texts.map((text) => hashedEmbedding(text));

/**
 * e5 as the local provider runs it (loaded here on first use), its vectors kept in a file
 * under `cacheDir` by model, kind and text: a vector is a function of them, and the corpus
 * takes e5 two minutes on one core, which each evaluation would otherwise spend again.
 */
export const e5Encoder = (cacheDir: string): RetrievalEncoder => {
  const file = join(
    cacheDir,
    'eval',
    `${E5_MODEL}-${statSync(join(DEFAULT_E5_MODEL_DIR, E5_MODEL_FILE)).size}.json`,
  );
  const known = new Map<string, number[]>(
    existsSync(file) ? Object.entries(JSON.parse(readFileSync(file, 'utf8')) as object) : [],
  );
  let encoder: E5Encoder | undefined;
  const keyOf = (kind: string, text: string) =>
    createHash('sha256').update(`${kind}\0${text}`).digest('base64url');
  return {
    model: E5_MODEL,
    embed: (texts, kind) => {
      const missing = [...new Set(texts.filter((text) => !known.has(keyOf(kind, text))))];
      if (missing.length > 0) {
        encoder ??= loadE5Encoder(DEFAULT_E5_MODEL_DIR);
        const vectors = encoder.embed(missing, kind);
        missing.forEach((text, at) => known.set(keyOf(kind, text), Array.from(vectors[at]!)));
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, JSON.stringify(Object.fromEntries(known)));
      }
      return texts.map((text) => Float32Array.from(known.get(keyOf(kind, text))!));
    },
  };
};

/** One of the local provider's embeddings: a model's name, its vectors, and e5's beside them. */
export type LocalEmbeddings = [model: string, embed: EmbedTexts, retrieval?: RetrievalEncoder];

/**
 * The local provider's embeddings by name: the sentence encoder (loaded here) with e5, as the
 * default fuses them (e5's vectors kept under `cacheDir`, see `e5Encoder`); the sentence
 * encoder alone; and the hashed vectors.
 */
export const localEmbeddings = (cacheDir: string): LocalEmbeddings[] => {
  const encoder = loadSentenceEncoder(DEFAULT_USE_MODEL_DIR);
  const embed: EmbedTexts = (texts) => encoder.embed(texts);
  return [
    [USE_MODEL, embed, e5Encoder(cacheDir)],
    [USE_MODEL, embed],
    [HASHED_EMBEDDING_MODEL, hashedEmbeddings],
  ];
};

/** A user's index built as the service builds it, with the embeddings given (hashed unless said). */
export const indexOfNotes = (
  notes: EvaluatedNote[],
  embed: EmbedTexts = hashedEmbeddings,
  retrieval?: RetrievalEncoder,
): UserIndex => {
  const chunks = notes.flatMap((note) =>
    chunkNote({ title: note.title, body: note.body }).map((chunk) => ({ note, chunk })),
  );
  const texts = chunks.map(({ chunk }) => chunk.text);
  const vectors = embed(texts);
  const retrievalVectors = retrieval?.embed(texts, 'passage');
  return new UserIndex(
    chunks.map(({ note, chunk }, i) => ({
      noteId: note.id,
      index: chunk.index,
      tokens: tokenize(chunk.text),
      vector: vectors[i]!,
      retrievalVector: retrievalVectors?.[i] ?? null,
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
  retrieval?: RetrievalEncoder,
): RetrievalQuality[] => {
  const vectors = embed(questions.map(({ question }) => question));
  const retrievalVectors = retrieval?.embed(
    questions.map(({ question }) => question),
    'query',
  );
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
      const query = {
        tokens: queryTokens(question),
        vector: vectors[i],
        retrievalVector: retrievalVectors?.[i],
      };
      const ranked = (
        ranker === 'retrieved'
          ? retrieveNotes(index, query, model, { limit: 10, retrievalModel: retrieval?.model })
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
