import type { Knex } from 'knex';
import { filteredNotes, type NoteFilter, type NoteRow } from '../notes/repository.js';
import { SEARCHED_BODY_CHARS } from './migration.js';
import type { SearchTerms } from './query.js';

type Db = Knex | Knex.Transaction;

export interface SearchRow extends NoteRow {
  title_highlight: string | null;
  note_highlight: string | null;
}

export interface SearchOptions {
  terms: SearchTerms;
  page: number;
  limit: number;
  pinnedFirst: boolean;
  filter: NoteFilter;
}

/** The same expression as the index notes_search, or the index is not used. */
const DOCUMENT = 'notes_search_document(notes.title, notes.tags, notes.body)';
const SEARCHED_BODY = `left(notes.body, ${SEARCHED_BODY_CHARS})`;
/** ts_rank_cd weights of D, C, B, A: body 0.2, tags 0.4, title 1. */
const WEIGHTS = '{0.1, 0.2, 0.4, 1.0}';
/** Lower than pg_trgm's 0.6, which misses a dropped letter in a short word ("meetng"). */
const SIMILARITY_THRESHOLD = '0.45';

const escapeHtml = (sql: string) =>
  `replace(replace(replace(replace(replace(${sql}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;')`;
const MARKS = 'StartSel="<mark>", StopSel="</mark>"';

const tsquery = (db: Db, { words, prefix }: SearchTerms) =>
  prefix
    ? db.raw(
        `(websearch_to_tsquery('simple', ?) ${prefix.join === 'or' ? '||' : '&&'} to_tsquery('simple', ?))`,
        [words, prefix.term],
      )
    : db.raw(`websearch_to_tsquery('simple', ?)`, [words]);

/** Best first, then newest; `score` is a column of the select, not of the table. */
const ordered = (pinnedFirst: boolean, table: string, score: string) => [
  ...(pinnedFirst ? [{ column: `${table}.is_pinned`, order: 'desc' as const }] : []),
  { column: score, order: 'desc' as const },
  { column: `${table}.created_at`, order: 'desc' as const },
  { column: `${table}.id`, order: 'desc' as const },
];

/**
 * Every query names the owner. Headlines are made for the page only, on HTML-escaped text:
 * then the text has no `<` left, and the only tags in a headline are its own <mark>s.
 */
export const searchRepository = {
  fullText: async (db: Db, userId: string, options: SearchOptions) => {
    const query = tsquery(db, options.terms);
    const matches = () =>
      filteredNotes(db, userId, options.filter).whereRaw(`${DOCUMENT} @@ ?`, [query]);
    const best = matches()
      .select('notes.*', db.raw(`ts_rank_cd(?, ${DOCUMENT}, ?) as score`, [WEIGHTS, query]))
      .orderBy(ordered(options.pinnedFirst, 'notes', 'score'))
      .limit(options.limit)
      .offset((options.page - 1) * options.limit);
    const [rows, count] = await Promise.all([
      db
        .select(
          'hit.*',
          db.raw(
            `ts_headline('simple', ${escapeHtml('hit.title')}, ?, 'HighlightAll=true, ${MARKS}') as title_highlight`,
            [query],
          ),
          db.raw(
            `ts_headline('simple', ${escapeHtml(`left(hit.body, ${SEARCHED_BODY_CHARS})`)}, ?, ` +
              `'MaxFragments=2, MaxWords=20, MinWords=8, FragmentDelimiter=" … ", ${MARKS}') as note_highlight`,
            [query],
          ),
        )
        .from(best.as('hit'))
        .orderBy(ordered(options.pinnedFirst, 'hit', 'hit.score')),
      matches().count<{ count: string | number }[]>({ count: '*' }),
    ]);
    return { rows: rows as SearchRow[], total: Number(count[0]?.count ?? 0) };
  },

  /** Notes with a word like one searched for, most alike first: for typos. */
  similar: async (db: Knex, userId: string, options: SearchOptions) => {
    const text = options.terms.similar;
    if (!text) return { rows: [], total: 0 };
    return db.transaction(async (trx) => {
      // Local to the transaction: the `<%` operator (and so the trigram index) reads it.
      await trx.raw(`select set_config('pg_trgm.word_similarity_threshold', ?, true)`, [
        SIMILARITY_THRESHOLD,
      ]);
      const { excluded } = options.terms;
      const matches = () => {
        const query = filteredNotes(trx, userId, options.filter).where((similar) =>
          similar.whereRaw('? <% notes.title', [text]).orWhereRaw(`? <% ${SEARCHED_BODY}`, [text]),
        );
        if (excluded) {
          query.whereRaw(`not (${DOCUMENT} @@ websearch_to_tsquery('simple', ?))`, [excluded]);
        }
        return query;
      };
      const [rows, count] = await Promise.all([
        matches()
          .select(
            'notes.*',
            // A title alike is a better sign than a word alike somewhere in a long body.
            trx.raw(
              `greatest(word_similarity(?, notes.title), 0.8 * word_similarity(?, ${SEARCHED_BODY})) as score`,
              [text, text],
            ),
          )
          .orderBy(ordered(options.pinnedFirst, 'notes', 'score'))
          .limit(options.limit)
          .offset((options.page - 1) * options.limit),
        matches().count<{ count: string | number }[]>({ count: '*' }),
      ]);
      return {
        rows: (rows as NoteRow[]).map((row): SearchRow => ({
          ...row,
          title_highlight: null,
          note_highlight: null,
        })),
        total: Number(count[0]?.count ?? 0),
      };
    });
  },
};
