import { randomUUID } from 'node:crypto';
import type {
  Chat,
  ChatList,
  NoteRef,
  ChatAnswerRequest,
  ChatIdParams,
  ChatListQuery,
} from '@noted/api';
import { AppError, type Parsed } from '@noted/api';
import type { AiContext } from '../context.js';
import { indexRepository } from '../index/repository.js';
import type { ChatMessageInput, Usage } from '../providers/port.js';
import { chunkNote } from '../local/chunks.js';
import { tokenize } from '../local/text.js';
import { findNotes } from '../search/usecases.js';
import type { Send } from '../sse.js';
import { extractiveAnswer, PASSAGE_NOTES, passageChunks, type Passage } from './extractive.js';
import { chatRepository, type MessageRow } from './repository.js';

export type { Passage } from './extractive.js';

/** Earlier messages of the conversation given to the model. */
const HISTORY = 6;

const titleOf = (question: string) =>
  question.length <= 80 ? question : `${question.slice(0, 79).trimEnd()}…`;

/** The chunk of a note that holds the most of the question's words (the first on a tie). */
const bestChunk = (note: { title: string; body: string }, tokens: readonly string[]) => {
  const asked = new Set(tokens);
  let best: { index: number; text: string } | undefined;
  let bestShared = -1;
  for (const chunk of chunkNote(note)) {
    const shared = tokenize(chunk.text).filter((token) => asked.has(token)).length;
    if (shared > bestShared) [best, bestShared] = [chunk, shared];
  }
  return best;
};

/**
 * The passages of the user's own notes that best answer the question: the chunks of the notes
 * AI search would list first (`findNotes`, so the chat retrieves exactly as search does), read
 * back through the notes service so a note deleted a moment ago is never cited. A note the
 * index does not hold yet (written a moment ago, found by its words) gives the chunk of its
 * current text holding most of the question's words.
 */
export const retrievePassages = async (
  ctx: AiContext,
  userId: string,
  query: string,
  signal?: AbortSignal,
): Promise<Passage[]> => {
  const found = (await findNotes(ctx, userId, query, 'chat', signal)).slice(0, PASSAGE_NOTES);
  const chunks = passageChunks(found);
  const [notes, texts] = await Promise.all([
    ctx.notes.many(
      userId,
      found.map((note) => note.noteId),
    ),
    indexRepository.chunkTexts(ctx.knex, userId, chunks),
  ]);
  const live = new Map(notes.map((note) => [note.id, note]));
  const tokens = tokenize(query);
  return found
    .flatMap(({ noteId, chunks: ranked }): Omit<Passage, 'number'>[] => {
      const note = live.get(noteId);
      if (!note) return [];
      const ref = { id: note.id, title: note.title };
      if (ranked.length === 0) {
        // Not indexed yet: retrieval did not score it (its 0 is a placeholder, not a score).
        const chunk = bestChunk(note, tokens);
        return chunk ? [{ note: ref, text: chunk.text, chunk: chunk.index }] : [];
      }
      return chunks.flatMap((chunk) => {
        const text = chunk.noteId === noteId ? texts.get(`${noteId}:${chunk.index}`) : undefined;
        return text === undefined
          ? []
          : [{ note: ref, text, chunk: chunk.index, score: chunk.score }];
      });
    })
    .map((passage, position) => ({ ...passage, number: position + 1 }));
};

const uniqueNotes = (passages: Passage[]): NoteRef[] => {
  const seen = new Map<string, NoteRef>();
  for (const passage of passages) {
    if (!seen.has(passage.note.id)) seen.set(passage.note.id, passage.note);
  }
  return [...seen.values()];
};

/**
 * What the model answers when the passages do not answer the question: a fixed word rather
 * than its own sentence, so the chat can say so itself and cite nothing (an answer that names
 * no passage otherwise cites them all). Held back while the stream could still be it.
 */
const NOT_IN_NOTES = 'NOT_IN_NOTES';

const systemPrompt = (passages: Passage[]) =>
  "You are the knowledge assistant of Noted, a note-taking app. Answer the user's question " +
  'from their own notes, given below as numbered passages. Use only what the passages say. ' +
  `If they do not answer the question, reply with exactly ${NOT_IN_NOTES} and nothing else. ` +
  'Cite the passages you use as [1], [2] after the sentence they support. Answer in the ' +
  'language of the question, concisely, in Markdown.\n\n' +
  passages
    .map((passage) => `[${passage.number}] ${passage.note.title || '(untitled)'}\n${passage.text}`)
    .join('\n\n');

/** The notes an answer cites by [n]; all passages' notes when it cites none by number. */
const citedBy = (answer: string, passages: Passage[]): NoteRef[] => {
  const numbers = new Set([...answer.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1])));
  const cited = passages.filter((passage) => numbers.has(passage.number));
  return uniqueNotes(cited.length > 0 ? cited : passages);
};

const NOTHING_FOUND = 'Your notes do not seem to say anything about this.';

const historyMessages = (messages: MessageRow[]): ChatMessageInput[] =>
  messages.slice(-HISTORY).map((message) => ({ role: message.role, content: message.content }));

/**
 * Answers a question about the user's own notes, streamed: the conversation's id, the notes
 * it draws on, the answer token by token, then `done`. The question is kept at once; the
 * answer when it is complete (a cancelled answer is not kept).
 */
export const chatAnswer = async (
  ctx: AiContext,
  userId: string,
  input: Parsed<typeof ChatAnswerRequest>,
): Promise<(send: Send, signal: AbortSignal) => Promise<void>> => {
  const { question, chatId: givenChatId } = input;
  const existing = givenChatId
    ? await chatRepository.find(ctx.knex, userId, givenChatId)
    : undefined;
  if (givenChatId && !existing) throw new AppError('NOT_FOUND', 'No such conversation');
  const earlier = existing ? await chatRepository.messages(ctx.knex, userId, existing.id) : [];

  return async (send, signal) => {
    const chatId = existing?.id ?? randomUUID();
    await ctx.knex.transaction(async (trx) => {
      if (!existing) {
        await chatRepository.create(trx, { id: chatId, user_id: userId, title: titleOf(question) });
      }
      await chatRepository.addMessage(trx, {
        id: randomUUID(),
        chat_id: chatId,
        user_id: userId,
        role: 'user',
        content: question,
        citations: [],
        method: null,
      });
      await chatRepository.touch(trx, userId, chatId);
    });
    send({ type: 'chat', chatId });

    // A follow-up ("and when was that?") is searched with the question before it.
    const previousQuestion = [...earlier].reverse().find((message) => message.role === 'user');
    const query = previousQuestion ? `${question}\n${previousQuestion.content}` : question;
    const passages = await retrievePassages(ctx, userId, query, signal);
    send({ type: 'citations', notes: uniqueNotes(passages) });

    const model = ctx.provider.models.chat;
    let answer = '';
    let citations: NoteRef[] = [];
    let usage: Usage | undefined;
    if (passages.length === 0) {
      answer = NOTHING_FOUND;
      send({ type: 'token', text: answer });
    } else if (model) {
      // Nothing is sent while the answer could still be NOT_IN_NOTES.
      let holding = true;
      for await (const chunk of ctx.provider.chat(
        [
          { role: 'system', content: systemPrompt(passages) },
          ...historyMessages(earlier),
          { role: 'user', content: question },
        ],
        { maxTokens: 1200, temperature: 0.2 },
        { userId, signal, purpose: 'chat' },
      )) {
        if (chunk.type === 'text') {
          answer += chunk.text;
          if (!holding) send({ type: 'token', text: chunk.text });
          else if (!NOT_IN_NOTES.startsWith(answer.trim().replace(/[.!。]+$/u, ''))) {
            holding = false;
            send({ type: 'token', text: answer });
          }
        } else usage = chunk.usage;
      }
      if (holding) {
        // The model said the passages do not answer (or said nothing): nothing is cited.
        answer = NOTHING_FOUND;
        send({ type: 'token', text: answer });
      } else citations = citedBy(answer, passages);
    } else {
      const extractive = await extractiveAnswer(
        question,
        passages,
        async (texts) =>
          (await ctx.provider.embed(texts, { userId, purpose: 'chat', signal })).vectors,
        {
          signal,
          onEmbedError: (error) =>
            ctx.logger.warn(
              { err: error },
              'the answer is judged by hashed vectors: embedding failed',
            ),
        },
      );
      answer = extractive.text || NOTHING_FOUND;
      citations = extractive.citations;
      for (const line of answer.split(/(?<=\n)/)) send({ type: 'token', text: line });
    }
    signal.throwIfAborted();
    const method = model && passages.length > 0 ? ('model' as const) : ('extractive' as const);
    const messageId = randomUUID();
    await ctx.knex.transaction(async (trx) => {
      await chatRepository.addMessage(trx, {
        id: messageId,
        chat_id: chatId,
        user_id: userId,
        role: 'assistant',
        content: answer,
        citations,
        method,
      });
      await chatRepository.touch(trx, userId, chatId);
    });
    send({ type: 'citations', notes: citations });
    send({
      type: 'done',
      method,
      messageId,
      ...(method === 'model' && model ? { model } : {}),
      ...(usage ? { usage } : {}),
    });
  };
};

export const chatList = async (
  ctx: AiContext,
  userId: string,
  input: Parsed<typeof ChatListQuery>,
): Promise<ChatList> => {
  const { page, limit } = input;
  const { rows, total } = await chatRepository.page(ctx.knex, userId, page, limit);
  return {
    items: rows.map((row) => ({
      id: row.id,
      title: row.title,
      messageCount: Number(row.message_count),
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
    })),
    total,
    page,
    limit,
  };
};

export const chatGet = async (
  ctx: AiContext,
  userId: string,
  params: Parsed<typeof ChatIdParams>,
): Promise<Chat> => {
  const { chatId } = params;
  const chat = await chatRepository.find(ctx.knex, userId, chatId);
  if (!chat) throw new AppError('NOT_FOUND', 'No such conversation');
  const messages = await chatRepository.messages(ctx.knex, userId, chatId);
  return {
    id: chat.id,
    title: chat.title,
    messageCount: messages.length,
    createdAt: chat.created_at.toISOString(),
    updatedAt: chat.updated_at.toISOString(),
    messages: messages.map((message) => ({
      id: message.id,
      role: message.role,
      content: message.content,
      citations: message.citations,
      ...(message.method ? { method: message.method } : {}),
      createdAt: message.created_at.toISOString(),
    })),
  };
};

export const chatRemove = async (
  ctx: AiContext,
  userId: string,
  params: Parsed<typeof ChatIdParams>,
) => {
  const { chatId } = params;
  if (!(await chatRepository.remove(ctx.knex, userId, chatId))) {
    throw new AppError('NOT_FOUND', 'No such conversation');
  }
};
