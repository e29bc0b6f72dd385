import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { AiHit, AiHitList, AiSearchQuery, RelatedQuery } from '@noted/api';
import { type Parsed } from '@noted/api';
import type { notesV1 } from '@noted/proto';
import { excludedTagsOf, isExcluded, noteForAi, type AiContext } from '../context.js';
import { indexRepository } from '../index/repository.js';
import { keywords } from '../local/keywords.js';
import { queryTokens, tokenize } from '../local/text.js';
import { normalize } from '../local/embeddings.js';
import { chatText } from '../providers/port.js';
import { plainText } from '@noted/kit';
import { CANDIDATES, rankNotes, retrieveNotes, type NoteHit } from '../retrieval/hybrid.js';
import type { UserIndex } from '../retrieval/user-index.js';

const SNIPPET_CHARS = 240;

const snippetOf = (text: string) => {
  const plain = plainText(text).replace(/\s+/g, ' ').trim();
  return plain.length <= SNIPPET_CHARS ? plain : `${plain.slice(0, SNIPPET_CHARS).trimEnd()}…`;
};

/** A chunk's text without the title line each chunk begins with (the hit shows the title). */
const withoutTitle = (chunk: string, title: string) => {
  const newline = chunk.indexOf('\n');
  const first = newline < 0 ? chunk : chunk.slice(0, newline);
  return title.trim() !== '' && first.trim() === title.replace(/\s+/g, ' ').trim()
    ? chunk.slice(first.length).trimStart()
    : chunk;
};

/**
 * A text's vector by the retrieval encoder, as a query, when the provider has one and
 * `wanted`; undefined otherwise or when it fails (search then ranks by the first model alone).
 */
const retrievalVectorOf = async (
  ctx: AiContext,
  userId: string,
  texts: string[],
  purpose: string,
  wanted: boolean,
): Promise<Float32Array | undefined> => {
  if (!wanted || !ctx.provider.models.retrieval) return undefined;
  try {
    const { vectors } = await ctx.provider.embedForRetrieval(texts, 'query', { userId, purpose });
    return meanOf(vectors);
  } catch (error) {
    ctx.logger.warn(
      { err: error },
      'searched by the first model alone: the retrieval encoder failed',
    );
    return undefined;
  }
};

/** The mean of unit vectors, unit length; the one vector when there is one. */
const meanOf = (vectors: Float32Array[]): Float32Array | undefined => {
  const [first, ...rest] = vectors;
  if (!first || rest.length === 0) return first;
  return normalize(first.map((value, i) => rest.reduce((sum, v) => sum + v[i]!, value)));
};

/**
 * The query's vectors (the embedding model's, and the retrieval encoder's unless `retrieval`
 * is false), with its words (`queryTokens`); usage is counted against the user.
 */
export const queryOf = async (
  ctx: AiContext,
  userId: string,
  text: string,
  purpose: string,
  retrieval = true,
  index?: Promise<UserIndex>,
) => {
  const embedded = ctx.provider.embed([text], { userId, purpose });
  const wanted = retrieval && ctx.provider.models.retrieval !== null;
  // The first model answers in a third of the retrieval encoder's time: its scan of the
  // index (7 ms at 10,000 notes) is done meanwhile, on this process's core.
  const scanned =
    index && wanted
      ? Promise.all([index, embedded]).then(([loaded, { vectors }]) =>
          vectors[0] ? loaded.vectorScores(vectors[0]) : undefined,
        )
      : undefined;
  const [{ vectors, model }, retrievalVector, vectorScores] = await Promise.all([
    embedded,
    retrievalVectorOf(ctx, userId, [text], purpose, retrieval),
    scanned,
  ]);
  return {
    tokens: queryTokens(text),
    vector: vectors[0],
    model,
    retrievalVector,
    vectorScores,
    retrievalModel: ctx.provider.models.retrieval ?? undefined,
  };
};

/** How long the chat model may take to reword a question before it is searched as asked. */
const REWRITE_TIMEOUT_MS = 8_000;

const REWRITE_PROMPT =
  "Rewrite the user's question about their own notes as a note answering it would be " +
  'worded: one to three short sentences in the words such a note would likely use (everyday ' +
  'synonyms, the names of the things meant, related terms), in the language of the question. ' +
  'Do not answer from your own knowledge and do not explain; write only the sentences.';

/**
 * A question reworded by the chat model as the note that answers it might say it (a
 * hypothetical passage): meaning search then also looks near the words a note would use,
 * which a sentence encoder misses when the question shares none of them ("what do I need at
 * the shop" for a list headed "Groceries"). Undefined without a chat model, or when it fails
 * or is slow: the question is then searched as asked, never refused.
 */
const reworded = async (
  ctx: AiContext,
  userId: string,
  question: string,
  signal?: AbortSignal,
): Promise<string | undefined> => {
  if (!ctx.provider.models.chat) return undefined;
  const timeout = AbortSignal.timeout(REWRITE_TIMEOUT_MS);
  try {
    const { text } = await chatText(
      ctx.provider.chat(
        [
          { role: 'system', content: REWRITE_PROMPT },
          { role: 'user', content: question },
        ],
        { maxTokens: 160, temperature: 0 },
        {
          userId,
          purpose: 'rewrite',
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        },
      ),
    );
    return text.trim().slice(0, 1_000) || undefined;
  } catch (error) {
    if (signal?.aborted) throw error;
    ctx.logger.warn({ err: error }, 'the question is searched as asked: rewording it failed');
    return undefined;
  }
};

/**
 * A question's query for the chat: with a chat model, its vector is the mean of the question's
 * and its rewording's (`reworded`); its words stay the question's own.
 */
const questionOf = async (
  ctx: AiContext,
  userId: string,
  question: string,
  signal?: AbortSignal,
) => {
  const rewording = await reworded(ctx, userId, question, signal);
  if (rewording === undefined) return queryOf(ctx, userId, question, 'chat');
  const texts = [question, rewording];
  const [{ vectors, model }, retrievalVector] = await Promise.all([
    ctx.provider.embed(texts, { userId, purpose: 'chat' }),
    retrievalVectorOf(ctx, userId, texts, 'chat', true),
  ]);
  return {
    tokens: queryTokens(question),
    vector: meanOf(vectors),
    model,
    retrievalVector,
    retrievalModel: ctx.provider.models.retrieval ?? undefined,
  };
};

/** How many notes a search that finds none lists as the nearest in meaning. */
const NEAREST = 3;

/**
 * Hits for the notes of a fused ranking, read back from the notes service: a note deleted a
 * moment ago is gone from the answer even before the index has heard of it.
 */
const hitsFor = async (
  ctx: AiContext,
  userId: string,
  ranked: {
    noteId: string;
    score: number;
    sources: AiHit['sources'];
    chunk?: number;
    nearest?: boolean;
  }[],
  limit: number,
): Promise<AiHitList> => {
  const top = ranked.slice(0, limit);
  const [notes, texts] = await Promise.all([
    ctx.notes.many(
      userId,
      top.map((hit) => hit.noteId),
    ),
    indexRepository.chunkTexts(
      ctx.knex,
      userId,
      top.flatMap((hit) =>
        hit.chunk === undefined ? [] : [{ noteId: hit.noteId, index: hit.chunk }],
      ),
    ),
  ]);
  const byId = new Map<string, notesV1.Note>(notes.map((note) => [note.id, note]));
  const items = top.flatMap((hit): AiHit[] => {
    const note = byId.get(hit.noteId);
    if (!note) return [];
    const passage = hit.chunk === undefined ? undefined : texts.get(`${hit.noteId}:${hit.chunk}`);
    return [
      {
        note: {
          id: note.id,
          title: note.title,
          snippet: snippetOf(passage === undefined ? note.body : withoutTitle(passage, note.title)),
          tags: note.tags,
          updatedAt: (note.updatedAt ? timestampDate(note.updatedAt) : new Date(0)).toISOString(),
        },
        score: hit.score,
        sources: hit.sources,
        nearest: hit.nearest ?? false,
      },
    ];
  });
  return { items, total: items.length, page: 1, limit };
};

type RankedNote = Parameters<typeof hitsFor>[2][number];

/** A note a query found: where it ranks, which rankings found it, its best chunks first. */
export interface FoundNote extends RankedNote {
  chunks: number[];
}

/** A ranking's notes, each saying which rankings found it (words, or the notes service's). */
const rankedNotes = (ranked: NoteHit[], foundByWords: Set<string> = new Set()): FoundNote[] =>
  ranked.map((hit) => {
    const sources: AiHit['sources'] = [];
    if (hit.lexical || foundByWords.has(hit.noteId)) sources.push('fulltext');
    if (hit.semantic) sources.push('semantic');
    return { noteId: hit.noteId, score: hit.score, sources, chunk: hit.index, chunks: hit.chunks };
  });

/**
 * What the notes service is asked for a question: its key words, any of them (a question is not
 * a search, whose words must all be there).
 */
const questionWords = (question: string): string =>
  [...new Set(keywords(question, { limit: 8 }).flatMap((key) => key.split(/\s+/)))].join(' or ');

/**
 * The notes a query finds, for AI search and knowledge chat alike (so the chat reads the notes
 * search shows): by meaning with the words as evidence (retrieval/hybrid.ts), a note that says
 * what was asked in other words is found, and one holding the query's rare words rises; a note
 * neither close in meaning nor holding the words is not listed (`retrieveNotes`). The notes
 * service's full-text hits bring in, at their own rank, notes written a moment ago that the
 * index does not hold yet (never one with a tag excluded from AI): for a search those holding
 * all its words, which also mark and keep the notes found both ways; for a question those
 * holding any of its key words. A search that finds no note so gets the few nearest in
 * meaning, marked `nearest`: a short note such as a bare shopping list sits far from any
 * question in both models' spaces (0.10 to "what do I need to buy at the shop", as far as
 * unrelated questions), yet it is what was asked for, and an empty page is a dead end. A
 * question gets none: the chat says the notes do not say.
 */
export const findNotes = async (
  ctx: AiContext,
  userId: string,
  query: string,
  purpose: 'search' | 'chat',
  signal?: AbortSignal,
): Promise<FoundNote[]> => {
  const words = purpose === 'search' ? query : questionWords(query);
  const loading = ctx.indexes.get(userId);
  const [fullText, index, excluded, vectorQuery] = await Promise.all([
    words === '' ? [] : ctx.notes.search(userId, words, CANDIDATES),
    loading,
    excludedTagsOf(ctx, userId),
    purpose === 'search'
      ? queryOf(ctx, userId, query, purpose, true, loading)
      : questionOf(ctx, userId, query, signal),
  ]);
  const byWords = fullText.flatMap((hit) =>
    hit.note && !isExcluded(hit.note, excluded) ? [hit.note.id] : [],
  );
  const foundByWords = new Set(purpose === 'search' ? byWords : []);
  const ranked = rankedNotes(
    retrieveNotes(index, vectorQuery, vectorQuery.model, {
      kept: (id) => foundByWords.has(id),
      retrievalModel: vectorQuery.retrievalModel,
    }),
    foundByWords,
  );
  byWords.forEach((noteId, rank) => {
    if (index.hasNote(noteId)) return;
    ranked.splice(Math.min(rank, ranked.length), 0, {
      noteId,
      score: 0,
      sources: ['fulltext'],
      chunks: [],
    });
  });
  if (ranked.length > 0 || purpose !== 'search') return ranked;
  return rankedNotes(rankNotes(index, vectorQuery, 'semantic', NEAREST)).map((note) => ({
    ...note,
    nearest: true,
  }));
};

/** AI search: the notes `findNotes` finds, read back from the notes service. */
export const aiSearch = async (
  ctx: AiContext,
  userId: string,
  input: Parsed<typeof AiSearchQuery>,
): Promise<AiHitList> =>
  hitsFor(ctx, userId, await findNotes(ctx, userId, input.query, 'search'), input.limit);

/** The notes most related to one note: alike in meaning and sharing its key words. */
export const aiRelated = async (
  ctx: AiContext,
  userId: string,
  input: Parsed<typeof RelatedQuery>,
): Promise<AiHitList> => {
  const { noteId, limit } = input;
  const note = await noteForAi(ctx, userId, noteId);
  const index = await ctx.indexes.get(userId);
  const text = `${note.title}\n\n${note.body}`;
  // A note written a moment ago may not be indexed yet: its vector is made from its text.
  const vector =
    index.noteVector(noteId) ??
    (await ctx.provider.embed([text], { userId, purpose: 'related' })).vectors[0];
  // The note's key words stand for its text on the words' side; the note itself is left out.
  const tokens = tokenize(keywords(text, { limit: 12 }).join(' '));
  const ranked = rankNotes(index, { tokens, vector }, 'hybrid', CANDIDATES, (id) => id === noteId);
  return hitsFor(ctx, userId, rankedNotes(ranked), limit);
};
