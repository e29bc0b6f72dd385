import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { AiHit, AiHitList, AiSearchQuery, RelatedQuery } from '@noted/api';
import { type Parsed } from '@noted/api';
import type { notesV1 } from '@noted/proto';
import { excludedTagsOf, isExcluded, noteForAi, type AiContext } from '../context.js';
import { indexRepository } from '../index/repository.js';
import { keywords } from '../local/keywords.js';
import { tokenize } from '../local/text.js';
import { plainText } from '@noted/kit';
import { CANDIDATES, rankNotes, relevantHits, type FusedHit } from '../retrieval/hybrid.js';

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

/** The query's vector, with its tokens; usage is counted against the user. */
export const queryOf = async (ctx: AiContext, userId: string, text: string, purpose: string) => {
  const { vectors, model } = await ctx.provider.embed([text], { userId, purpose });
  return { tokens: tokenize(text), vector: vectors[0], model };
};

/**
 * Hits for the notes of a fused ranking, read back from the notes service: a note deleted a
 * moment ago is gone from the answer even before the index has heard of it.
 */
const hitsFor = async (
  ctx: AiContext,
  userId: string,
  ranked: { noteId: string; score: number; sources: AiHit['sources']; chunk?: number }[],
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
      },
    ];
  });
  return { items, total: items.length, page: 1, limit };
};

type RankedNote = Parameters<typeof hitsFor>[2][number];

/** A ranking's notes, each saying which rankings found it (words, or the notes service's). */
const rankedNotes = (ranked: FusedHit[], foundByWords: Set<string> = new Set()): RankedNote[] =>
  ranked.map((hit) => {
    const sources: AiHit['sources'] = [];
    if (hit.lexical || foundByWords.has(hit.noteId)) sources.push('fulltext');
    if (hit.semantic) sources.push('semantic');
    return { noteId: hit.noteId, score: hit.score, sources, chunk: hit.index };
  });

/**
 * Search by meaning with the words as evidence (retrieval/hybrid.ts): a note that says what
 * was asked in other words is found, and one holding the query's rare words rises; a note
 * neither close in meaning nor holding the words is not listed (`relevantHits`). The notes
 * service's full-text hits mark the notes it also found, and bring in, at their own rank, notes
 * written a moment ago that the index does not hold yet.
 */
export const aiSearch = async (
  ctx: AiContext,
  userId: string,
  input: Parsed<typeof AiSearchQuery>,
): Promise<AiHitList> => {
  const { query, limit } = input;
  const [fullText, index, excluded, vectorQuery] = await Promise.all([
    ctx.notes.search(userId, query, CANDIDATES),
    ctx.indexes.get(userId),
    excludedTagsOf(ctx, userId),
    queryOf(ctx, userId, query, 'search'),
  ]);
  const byWords = fullText.flatMap((hit) =>
    hit.note && !isExcluded(hit.note, excluded) ? [hit.note.id] : [],
  );
  const foundByWords = new Set(byWords);
  const ranked = rankedNotes(
    relevantHits(rankNotes(index, vectorQuery, 'hybrid', CANDIDATES), vectorQuery.model, (id) =>
      foundByWords.has(id),
    ),
    foundByWords,
  );
  byWords.forEach((noteId, rank) => {
    if (index.hasNote(noteId)) return;
    ranked.splice(Math.min(rank, ranked.length), 0, { noteId, score: 0, sources: ['fulltext'] });
  });
  return hitsFor(ctx, userId, ranked, limit);
};

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
