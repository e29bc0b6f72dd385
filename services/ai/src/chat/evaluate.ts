import type { NoteRef } from '@noted/api';
import { chunkNote } from '../local/chunks.js';
import { cosine, hashedEmbedding } from '../local/embeddings.js';
import { queryTokens, tokenize } from '../local/text.js';
import { sentences } from '@noted/kit';
import type {
  EmbedTexts as EmbedTextsSync,
  EvaluatedNote,
  EvaluatedQuestion,
  RetrievalEncoder,
} from '../retrieval/evaluate.js';
import type { UserIndex } from '../retrieval/user-index.js';
import { retrieveNotes } from '../retrieval/hybrid.js';
import { extractiveAnswer, passageChunks, QUOTED, type Passage } from './extractive.js';

/** Answers a question from passages (extractively) and says which notes the answer cites. */
export type Answerer = (
  question: string,
  passages: Passage[],
) => Promise<{ citations: NoteRef[] }> | { citations: NoteRef[] };

export interface ChatCitationQuality {
  /** Questions evaluated that notes answer. */
  questions: number;
  /**
   * Share of each question's answering notes among the notes of the passages the answer reads,
   * averaged: the chat's retrieval, comparable with search's recall@5.
   */
  recallAt5: number;
  /** Share of questions whose passages hold at least one answering note: the ceiling. */
  retrieved: number;
  /** Share of questions whose citations include at least one answering note. */
  answered: number;
  /** Share of questions whose citations are all answering notes (and there is at least one). */
  precise: number;
  /** Notes cited per answer, on average. */
  citedNotes: number;
  /** Questions evaluated that no note answers. */
  unanswerable: number;
  /** Share of those answered with no citation: the notes do not say. */
  honest: number;
}

/** The text of every chunk of the notes, by chunk key: what the index was built from. */
export const chunkTextsOf = (
  notes: EvaluatedNote[],
): Map<string, { note: NoteRef; text: string; index: number }> =>
  new Map(
    notes.flatMap((note) =>
      chunkNote({ title: note.title, body: note.body }).map(
        (chunk) =>
          [
            `${note.id}:${chunk.index}`,
            { note: { id: note.id, title: note.title }, text: chunk.text, index: chunk.index },
          ] as const,
      ),
    ),
  );

/** The passages the chat would give the answerer: the chunks of the notes search finds first. */
export const passagesFor = (
  index: UserIndex,
  texts: ReturnType<typeof chunkTextsOf>,
  question: string,
  vectors: { vector: Float32Array | undefined; retrievalVector?: Float32Array | undefined },
  model: string,
  retrievalModel?: string,
): Passage[] =>
  passageChunks(
    retrieveNotes(index, { tokens: queryTokens(question), ...vectors }, model, { retrievalModel }),
  )
    .flatMap((hit) => {
      const chunk = texts.get(`${hit.noteId}:${hit.index}`);
      return chunk
        ? [{ note: chunk.note, text: chunk.text, chunk: chunk.index, score: hit.score }]
        : [];
    })
    .map((passage, position) => ({ ...passage, number: position + 1 }));

/**
 * How well the notes a chat answer cites answer the question, over questions whose answering
 * notes are known (and how often it says the notes do not say, over those no note answers):
 * retrieval as the chat does it (`passagesFor`) over an index built like `indexOfNotes`, then
 * `answer`.
 */
export const evaluateChatCitations = async (
  index: UserIndex,
  notes: EvaluatedNote[],
  questions: EvaluatedQuestion[],
  embed: EmbedTextsSync,
  model: string,
  answer: Answerer,
  retrieval?: RetrievalEncoder,
): Promise<ChatCitationQuality> => {
  const texts = chunkTextsOf(notes);
  const asked = questions.map(({ question }) => question);
  const vectors = embed(asked);
  const retrievalVectors = retrieval?.embed(asked, 'query');
  let [answerable, recall, retrieved, answered, precise, cited] = [0, 0, 0, 0, 0, 0];
  let [unanswerable, honest] = [0, 0];
  for (const [i, { question, relevant }] of questions.entries()) {
    const wanted = new Set(relevant);
    const passages = passagesFor(
      index,
      texts,
      question,
      { vector: vectors[i], retrievalVector: retrievalVectors?.[i] },
      model,
      retrieval?.model,
    );
    const { citations } =
      passages.length > 0 ? await answer(question, passages) : { citations: [] };
    if (wanted.size === 0) {
      unanswerable++;
      if (citations.length === 0) honest++;
      continue;
    }
    answerable++;
    const read = new Set(passages.map((passage) => passage.note.id));
    recall += relevant.filter((id) => read.has(id)).length / wanted.size;
    if (relevant.some((id) => read.has(id))) retrieved++;
    const hits = citations.filter((note) => wanted.has(note.id)).length;
    if (hits > 0) answered++;
    if (hits > 0 && hits === citations.length) precise++;
    cited += citations.length;
  }
  const share = (count: number, of: number) => (of === 0 ? 0 : count / of);
  return {
    questions: answerable,
    recallAt5: share(recall, answerable),
    retrieved: share(retrieved, answerable),
    answered: share(answered, answerable),
    precise: share(precise, answerable),
    citedNotes: share(cited, answerable),
    unanswerable,
    honest: share(honest, unanswerable),
  };
};

/** The chat's extractive answer, its sentences judged by the vectors `embed` gives. */
export const extractiveAnswerer =
  (embed: EmbedTextsSync): Answerer =>
  (question, passages) =>
    extractiveAnswer(question, passages, (texts) => Promise.resolve(embed(texts)));

/**
 * The extractive answer as it was before it read the passages' structure and used the
 * provider's embeddings (word overlap plus hashed vectors, the best QUOTED sentences of any
 * passage): kept only to measure the change against.
 */
export const wordOverlapAnswerer: Answerer = (question, passages) => {
  const asked = new Set(tokenize(question));
  const questionVector = hashedEmbedding(question);
  const scored = passages.flatMap((passage, position) =>
    sentences(passage.text)
      .filter((sentence) => sentence.trim() !== passage.note.title.trim())
      .map((sentence) => {
        const words = tokenize(sentence);
        const overlap =
          words.filter((word) => asked.has(word)).length / Math.sqrt(words.length || 1);
        const meaning = cosine(hashedEmbedding(sentence), questionVector);
        return { passage, score: overlap + meaning - position * 0.01 };
      }),
  );
  const best = scored
    .filter((candidate) => candidate.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, QUOTED);
  const citations = new Map<string, NoteRef>();
  for (const { passage } of best) {
    if (!citations.has(passage.note.id)) citations.set(passage.note.id, passage.note);
  }
  return { citations: [...citations.values()] };
};
