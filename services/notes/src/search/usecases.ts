import type * as z from 'zod';
import type { NoteListQuery, SearchHighlights, SearchHit, SearchPage } from '@noted/api';
import { presentNote } from '../notes/presenter.js';
import type { NotesContext } from '../context.js';
import { searchTerms } from './query.js';
import { searchRepository, type SearchRow } from './repository.js';

/** A parsed `GET /api/notes` query that has a search. */
export type NoteSearchQuery = z.output<typeof NoteListQuery> & { search: string };

const marked = (text: string | null) => (text?.includes('<mark>') ? text : undefined);

const highlightsOf = (row: SearchRow): SearchHighlights => {
  const title = marked(row.title_highlight);
  const note = marked(row.note_highlight);
  return { ...(title === undefined ? {} : { title }), ...(note === undefined ? {} : { note }) };
};

/**
 * The user's notes matching a full-text search, best first; when no note matches, the notes
 * with a word alike (a typo), most alike first. Other filters of the list apply as well.
 */
export const notesSearch = async (
  ctx: NotesContext,
  userId: string,
  query: NoteSearchQuery,
): Promise<{
  rows: SearchRow[];
  total: number;
  totalExact: boolean;
  page: number;
  limit: number;
}> => {
  const { page, limit, pinnedFirst, search, ...filter } = query;
  const options = { terms: searchTerms(search), page, limit, pinnedFirst, filter };
  const found = await searchRepository.fullText(ctx.knex, userId, options);
  // Only an empty result falls back: a page past the end of real matches stays empty.
  const { rows, total, totalExact } =
    found.total > 0 ? found : await searchRepository.similar(ctx.knex, userId, options);
  return { rows, total, totalExact, page, limit };
};

export const noteSearchPage = async (
  ctx: NotesContext,
  userId: string,
  query: NoteSearchQuery,
): Promise<SearchPage> => {
  const { rows, ...rest } = await notesSearch(ctx, userId, query);
  return {
    items: rows.map((row): SearchHit => ({ ...presentNote(row), highlights: highlightsOf(row) })),
    ...rest,
  };
};
