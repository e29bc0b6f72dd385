import type { AiContext } from '../context.js';
import { indexRepository } from '../index/repository.js';
import { tagsFor } from '../local/keywords.js';
import { retrieveNotes } from '../retrieval/hybrid.js';
import { queryOf } from '../search/usecases.js';

/** Tags suggested for a draft or a capture: three at most, for the user to take or leave. */
export const TAG_SUGGESTIONS = 3;
/** The notes nearest in meaning whose tags are votes. */
const NEIGHBOURS = 5;
/** Votes a tag of the neighbours needs: one note alike is chance, two are a pattern. */
const NEIGHBOUR_VOTES = 2;
/** The start of a long text stands for it: a PDF's first pages say what it is about. */
const QUERY_CHARS = 4000;

export interface TagContext {
  /** The user's tags, most used first. */
  existingTags: string[];
  /** Tags that at least two of the notes nearest in meaning carry, most carried first. */
  neighbourTags: string[];
}

/**
 * What suggestions are chosen from first: the user's own tags, and those the notes most alike in
 * meaning share (a photo of a shopping list near notes tagged #groceries is #groceries, whatever
 * words it holds). `skip` leaves a note out of the neighbours (the capture's own).
 */
export const tagContext = async (
  ctx: AiContext,
  userId: string,
  text: string,
  skip?: string,
): Promise<TagContext> => {
  const existingTags = await indexRepository.tagsOfUser(ctx.knex, userId);
  if (existingTags.length === 0 || !text.trim()) return { existingTags, neighbourTags: [] };
  const [index, query] = await Promise.all([
    ctx.indexes.get(userId),
    // By the first model alone: e5 would take a second or more over a capture's text.
    queryOf(ctx, userId, text.slice(0, QUERY_CHARS), 'tags', false),
  ]);
  const nearest = retrieveNotes(index, query, query.model, {
    limit: NEIGHBOURS,
    skip: (id) => id === skip,
  });
  const rows = await indexRepository.notesByIds(
    ctx.knex,
    nearest.map((hit) => hit.noteId),
  );
  const votes = new Map<string, number>();
  for (const row of rows) {
    if (row.user_id !== userId || row.deleted || row.excluded) continue;
    for (const tag of new Set(row.tags)) votes.set(tag, (votes.get(tag) ?? 0) + 1);
  }
  const neighbourTags = [...votes]
    .filter(([, count]) => count >= NEIGHBOUR_VOTES)
    .sort((a, b) => b[1] - a[1] || existingTags.indexOf(a[0]) - existingTags.indexOf(b[0]))
    .map(([tag]) => tag);
  return { existingTags, neighbourTags };
};

/** Tag suggestions for a text of the user's (`tagsFor` over `tagContext`). */
export const suggestTags = async (
  ctx: AiContext,
  userId: string,
  text: string,
  skip?: string,
): Promise<string[]> =>
  tagsFor(text, { limit: TAG_SUGGESTIONS, ...(await tagContext(ctx, userId, text, skip)) });
