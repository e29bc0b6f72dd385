import type { NoteRef } from '@noted/api';
import { chunkNote } from '../local/chunks.js';
import { cosine, hashedEmbedding } from '../local/embeddings.js';
import { tokenize } from '../local/text.js';
import { sentences } from '@noted/kit';
import type {
  EmbedTexts as EmbedTextsSync,
  EvaluatedNote,
  EvaluatedQuestion,
} from '../retrieval/evaluate.js';
import type { UserIndex } from '../retrieval/user-index.js';
import { extractiveAnswer, passageHits, QUOTED, type Passage } from './extractive.js';

/** Answers a question from passages (extractively) and says which notes the answer cites. */
export type Answerer = (
  question: string,
  passages: Passage[],
) => Promise<{ citations: NoteRef[] }> | { citations: NoteRef[] };

export interface ChatCitationQuality {
  /** Questions evaluated. */
  questions: number;
  /** Share of questions whose retrieved passages hold at least one answering note: the ceiling. */
  retrieved: number;
  /** Share of questions whose citations include at least one answering note. */
  answered: number;
  /** Share of questions whose citations are all answering notes (and there is at least one). */
  precise: number;
  /** Notes cited per answer, on average. */
  citedNotes: number;
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

/** The passages the chat would give the answerer: the hybrid ranking's best chunks. */
export const passagesFor = (
  index: UserIndex,
  texts: ReturnType<typeof chunkTextsOf>,
  question: string,
  vector: Float32Array | undefined,
  model: string,
): Passage[] =>
  passageHits(index, { tokens: tokenize(question), vector }, model).flatMap((hit, position) => {
    const chunk = texts.get(hit.key);
    return chunk
      ? [{ number: position + 1, note: chunk.note, text: chunk.text, chunk: chunk.index }]
      : [];
  });

/**
 * How well the notes a chat answer cites answer the question, over questions whose answering
 * notes are known: retrieval as the chat does it (hybrid, PASSAGES chunks) over an index built
 * like `indexOfNotes`, then `answer`.
 */
export const evaluateChatCitations = async (
  index: UserIndex,
  notes: EvaluatedNote[],
  questions: EvaluatedQuestion[],
  embed: EmbedTextsSync,
  model: string,
  answer: Answerer,
): Promise<ChatCitationQuality> => {
  const texts = chunkTextsOf(notes);
  const vectors = embed(questions.map(({ question }) => question));
  let retrieved = 0;
  let answered = 0;
  let precise = 0;
  let cited = 0;
  for (const [i, { question, relevant }] of questions.entries()) {
    const wanted = new Set(relevant);
    const passages = passagesFor(index, texts, question, vectors[i], model);
    if (passages.some((passage) => wanted.has(passage.note.id))) retrieved++;
    const { citations } = await answer(question, passages);
    const hits = citations.filter((note) => wanted.has(note.id)).length;
    if (hits > 0) answered++;
    if (hits > 0 && hits === citations.length) precise++;
    cited += citations.length;
  }
  const share = (count: number) => (questions.length === 0 ? 0 : count / questions.length);
  return {
    questions: questions.length,
    retrieved: share(retrieved),
    answered: share(answered),
    precise: share(precise),
    citedNotes: share(cited),
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
