import type * as z from 'zod';
import type { NoteListQuery, SearchHighlights, SearchHit, SearchPage } from '@noted/api';
import { presentNote } from '../notes/presenter.js';
import type { NotesContext } from '../context.js';
import { searchTerms, type SearchTerms } from './query.js';
import { markedWords, searchSnippet } from './snippet.js';
import { searchRepository, type Correction, type SearchRow } from './repository.js';
import { allowedTypos, lettersOf, nearWords, ONE_TYPO_LETTERS, typoDistance } from './typos.js';

/** A parsed `GET /api/notes` query that has a search. */
export type NoteSearchQuery = z.output<typeof NoteListQuery> & { search: string };

const marked = (text: string | null) => (text?.includes('<mark>') ? text : undefined);

/**
 * The title as Postgres marked it; the body as a reader sees it, from the sentence with the
 * first match, the words Postgres found marked (snippet.ts).
 */
const highlightsOf = (row: SearchRow): SearchHighlights => {
  const title = marked(row.title_highlight);
  const note = searchSnippet(row.body, markedWords(row.title_highlight, row.note_highlight));
  return { ...(title === undefined ? {} : { title }), ...(note === undefined ? {} : { note }) };
};

/** Searched words that get corrections, at most, and corrections of one word, at most. */
const MAX_CORRECTED_WORDS = 8;
const MAX_CORRECTIONS = 10;

/**
 * The searched words the user's vocabulary lacks, each with the vocabulary words within its
 * allowed typos (typos.ts), fewest typos and then most notes first. A word the user has is
 * not corrected, nor an excluded one, nor the word being typed when it begins a word of theirs
 * (it finds that word as a prefix).
 */
export const typoCorrections = async (
  ctx: Pick<NotesContext, 'knex'>,
  userId: string,
  terms: SearchTerms,
): Promise<Correction[]> => {
  // No lexeme is longer than the longest word: a search of short words reads nothing.
  const longest = Math.max(0, ...terms.similar.split(/\s+/).map(lettersOf));
  if (longest < ONE_TYPO_LETTERS) return [];
  const typing = terms.prefix?.term.slice(0, -':*'.length) ?? '';
  const searched = await searchRepository.searchedWords(ctx.knex, userId, {
    included: terms.similar,
    excluded: terms.excluded,
    typed: typing,
  });
  const of = (part: string) => searched.filter((row) => row.part === part);
  const excluded = new Set(of('excluded').map((row) => row.word));
  // The word being typed is one lexeme, as to_tsquery reads the prefix.
  const typedRows = of('typed');
  const typed = typedRows.length === 1 ? typedRows[0] : undefined;
  const known = new Map(of('included').map((row) => [row.word, row.known]));
  if (typed) known.set(typed.word, typed.known);
  const probes = [...known]
    .filter(([word, isKnown]) => !isKnown && !excluded.has(word))
    .flatMap(([word]) => {
      const typos = allowedTypos(word);
      return typos === 0
        ? []
        : [{ word, prefix: word === typed?.word, near: nearWords(word, typos) }];
    })
    .slice(0, MAX_CORRECTED_WORDS);
  if (probes.length === 0) return [];
  const found = await searchRepository.vocabulary(ctx.knex, userId, probes);
  return probes.flatMap((probe, index): Correction[] => {
    const rows = found.filter((row) => row.probe === index);
    const max = allowedTypos(probe.word);
    // A word may be read by more than one range.
    const alike = [...new Map(rows.map((row) => [row.word, row])).values()]
      .map((row) => ({ ...row, typos: typoDistance(probe.word, row.word, max) }))
      .filter((row) => row.typos <= max)
      .sort((a, b) => a.typos - b.typos || b.notes - a.notes || (a.word < b.word ? -1 : 1))
      .slice(0, MAX_CORRECTIONS)
      .map(({ word, typos }) => ({ word, typos }));
    return alike.length === 0 ? [] : [{ word: probe.word, prefix: probe.prefix, alike }];
  });
};

/**
 * The user's notes matching a full-text search, best first. A searched word no note of the
 * user has also matches the words of their notes it may be a typo of, below the notes that
 * match as searched. Other filters of the list apply as well.
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
  const terms = searchTerms(search);
  const corrections = await typoCorrections(ctx, userId, terms);
  const { rows, total, totalExact } = await searchRepository.fullText(ctx.knex, userId, {
    terms,
    page,
    limit,
    pinnedFirst,
    filter,
    corrections,
  });
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
