import { hashedEmbedding } from '../local/embeddings.js';
import { chunkNote } from '../local/chunks.js';
import { tokenize } from '../local/text.js';
import { rankNotes, type Ranker } from './hybrid.js';
import { UserIndex } from './user-index.js';

export interface EvaluatedNote {
  id: string;
  title: string;
  body: string;
  tags: string[];
}

export interface EvaluatedQuestion {
  question: string;
  relevant: string[];
}

export interface RetrievalQuality {
  ranker: Ranker;
  /** Share of each question's relevant notes among its first five results, averaged. */
  recallAt5: number;
  /** 1 / rank of the first relevant note (0 beyond the tenth), averaged. */
  mrr: number;
}

/** Vectors for texts, in order: the local model's, or the hashed ones. */
export type EmbedTexts = (texts: string[]) => Float32Array[];

export const hashedEmbeddings: EmbedTexts = (texts) => texts.map((text) => hashedEmbedding(text));

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

/** Recall@5 and MRR of each ranker over the questions. */
export const evaluateRetrieval = (
  index: UserIndex,
  questions: EvaluatedQuestion[],
  rankers: Ranker[] = ['bm25', 'semantic', 'hybrid'],
  embed: EmbedTexts = hashedEmbeddings,
): RetrievalQuality[] => {
  const vectors = embed(questions.map(({ question }) => question));
  return rankers.map((ranker) => {
    let recall = 0;
    let reciprocal = 0;
    for (const [i, { question, relevant }] of questions.entries()) {
      const query = { tokens: tokenize(question), vector: vectors[i] };
      const ranked = rankNotes(index, query, ranker, 10).map((hit) => hit.noteId);
      const wanted = new Set(relevant);
      recall += ranked.slice(0, 5).filter((id) => wanted.has(id)).length / wanted.size;
      const first = ranked.findIndex((id) => wanted.has(id));
      reciprocal += first < 0 ? 0 : 1 / (first + 1);
    }
    return { ranker, recallAt5: recall / questions.length, mrr: reciprocal / questions.length };
  });
};
