import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { AiHit, AiHitList, AiSearchQuery, RelatedQuery } from '@noted/api';
import { type Parsed } from '@noted/api';
import type { notesV1 } from '@noted/proto';
import { excludedTagsOf, isExcluded, noteForAi, type AiContext } from '../context.js';
import { indexRepository } from '../index/repository.js';
import { keywords } from '../local/keywords.js';
import { plainText, tokenize } from '../local/text.js';
import { reciprocalRankFusion } from '../retrieval/fusion.js';
import { CANDIDATES, rankNotes } from '../retrieval/hybrid.js';
import type { UserIndex } from '../retrieval/user-index.js';

const SNIPPET_CHARS = 240;

const snippetOf = (text: string) => {
  const plain = plainText(text).replace(/\s+/g, ' ').trim();
  return plain.length <= SNIPPET_CHARS ? plain : `${plain.slice(0, SNIPPET_CHARS).trimEnd()}…`;
};

/** The query's vector, with its tokens; usage is counted against the user. */
export const queryOf = async (ctx: AiContext, userId: string, text: string, purpose: string) => {
  const { vectors } = await ctx.provider.embed([text], { userId, purpose });
  return { tokens: tokenize(text), vector: vectors[0] };
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
          snippet: snippetOf(passage ?? note.body),
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

/** Notes ranked by words and by meaning, fused; each says which rankings found it. */
const fuseNotes = (byWords: string[], byMeaning: string[], chunkOf: Map<string, number>) =>
  reciprocalRankFusion([byWords, byMeaning]).map(({ id, score, ranks }) => {
    const sources: AiHit['sources'] = [];
    if (ranks[0] !== null) sources.push('fulltext');
    if (ranks[1] !== null) sources.push('semantic');
    const chunk = chunkOf.get(id);
    return { noteId: id, score, sources, ...(chunk === undefined ? {} : { chunk }) };
  });

/**
 * Search by words and by meaning: the notes service's full-text ranking fused with the
 * nearest chunks by embedding (reciprocal-rank fusion), so a note found both ways ranks first
 * and one that shares no word with the query can still be found.
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
  const lexical = fullText.flatMap((hit) =>
    hit.note && !isExcluded(hit.note, excluded) ? [hit.note.id] : [],
  );
  const semantic = rankNotes(index, vectorQuery, 'semantic', CANDIDATES);
  const chunkOf = new Map(semantic.map((hit) => [hit.noteId, hit.index]));
  const fused = fuseNotes(
    lexical,
    semantic.map((hit) => hit.noteId),
    chunkOf,
  );
  return hitsFor(ctx, userId, fused, limit);
};

const relatedRanking = (
  index: UserIndex,
  noteId: string,
  text: string,
  vector: Float32Array | undefined,
) => {
  const skip = (id: string) => id === noteId;
  const tokens = tokenize(keywords(text, { limit: 12 }).join(' '));
  const byWords = rankNotes(index, { tokens, vector: undefined }, 'bm25', CANDIDATES, skip);
  const byMeaning = rankNotes(index, { tokens: [], vector }, 'semantic', CANDIDATES, skip);
  return { byWords, byMeaning };
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
  const { byWords, byMeaning } = relatedRanking(index, noteId, text, vector);
  const chunkOf = new Map([...byWords, ...byMeaning].map((hit) => [hit.noteId, hit.index]));
  const fused = fuseNotes(
    byWords.map((hit) => hit.noteId),
    byMeaning.map((hit) => hit.noteId),
    chunkOf,
  );
  return hitsFor(ctx, userId, fused, limit);
};
