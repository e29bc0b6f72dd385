import type { Knex } from 'knex';
import { filteredNotes, noteColumns, type NoteFilter, type NoteRow } from '../notes/repository.js';
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
  tuning?: SearchTuning;
  /** The tsquery to use instead of the one `terms` makes (the typo fallback's). */
  query?: Knex.Raw;
}

/**
 * How a search stays fast when a word is in most notes. A word is "common" when at least
 * `commonShare` of the `sample` newest notes have it; then only the newest `ranked` matches
 * are ranked (read newest first, which stops after `ranked` matches), and older matches
 * follow newest first. A rarer word is looked up in the index and all its matches ranked.
 */
export interface SearchTuning {
  ranked: number;
  sample: number;
  commonShare: number;
}

export const SEARCH_TUNING: SearchTuning = { ranked: 200, sample: 500, commonShare: 0.05 };

/** A ranked row: how many candidates there were and, from the first query, the probe's verdict. */
type RankedRow = SearchRow & { matched: string | number; common?: boolean };

export interface FullTextResult {
  rows: SearchRow[];
  total: number;
  /** False when `total` is a lower bound: the word is common, and matches were not counted. */
  totalExact: boolean;
}

const SEARCHED_BODY = `left(notes.body, ${SEARCHED_BODY_CHARS})`;
/** ts_rank_cd weights of D, C, B, A: body 0.2, tags 0.4, title 1. */
const WEIGHTS = '{0.1, 0.2, 0.4, 1.0}';
/** Trigram similarity a word of the vocabulary needs to stand in for a typed word. */
const SIMILARITY_THRESHOLD = 0.4;
/** The newest notes whose words make the vocabulary of the typo fallback. */
const VOCABULARY_NOTES = 2000;
/** Words of one search that the typo fallback looks up. */
const MAX_TYPED_WORDS = 8;

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
  fullText: async (db: Db, userId: string, options: SearchOptions): Promise<FullTextResult> => {
    const { ranked, sample, commonShare } = options.tuning ?? SEARCH_TUNING;
    const { filter, pinnedFirst, limit } = options;
    const offset = (options.page - 1) * limit;
    const query = options.query ?? tsquery(db, options.terms);
    /**
     * The user's notes newest first, read in index order: the LIMIT inside keeps the planner
     * from collecting every match first, so a query over it stops at the matches it needs.
     */
    const newest = (count: number) =>
      filteredNotes(db, userId, filter)
        .clearSelect()
        .select('notes.id', 'notes.is_pinned', 'notes.created_at', 'notes.search')
        .orderBy([
          { column: 'notes.created_at', order: 'desc' },
          { column: 'notes.id', order: 'desc' },
        ])
        .limit(count)
        .as('recent');
    const newestMatches = (scan: number) =>
      db.from(newest(scan)).whereRaw('recent.search @@ ?', [query]);
    /** Whether the word is common: at least `commonShare` of the `sample` newest notes have it. */
    const probe = db
      .from(newest(sample))
      .select(
        db.raw(
          'count(*) >= ? and count(*) filter (where recent.search @@ ?) >= ?::float8 * count(*) as common',
          [sample, query, commonShare],
        ),
      );
    // Enough to find `ranked` matches when at least half the share the sample showed match.
    const scanFor = (matches: number) => Math.ceil(matches / commonShare) * 2;

    const allMatches = () =>
      filteredNotes(db, userId, filter)
        .clearSelect()
        .select('notes.id', 'notes.is_pinned', 'notes.created_at', 'notes.search')
        .whereRaw('notes.search @@ ?', [query]);
    const headlines = () => [
      db.raw(
        `ts_headline('simple', ${escapeHtml('notes.title')}, ?, 'HighlightAll=true, ${MARKS}') as title_highlight`,
        [query],
      ),
      db.raw(
        `ts_headline('simple', ${escapeHtml(SEARCHED_BODY)}, ?, ` +
          `'MaxFragments=2, MaxWords=20, MinWords=8, FragmentDelimiter=" … ", ${MARKS}') as note_highlight`,
        [query],
      ),
    ];
    /**
     * One page of the candidates, best first, with their headlines (made for the page only);
     * each row carries how many candidates there are.
     */
    const rank = (candidates: Knex.QueryBuilder) => {
      const scored = db
        .from(candidates.as('c'))
        .select(
          'c.id',
          'c.is_pinned',
          'c.created_at',
          db.raw('ts_rank_cd(?, c.search, ?) as score', [WEIGHTS, query]),
          db.raw('count(*) over () as matched'),
        )
        .as('s');
      const page = db
        .from(scored)
        .select('s.*')
        .orderBy(ordered(pinnedFirst, 's', 's.score'))
        .limit(limit)
        .offset(offset)
        .as('p');
      return db
        .from(page)
        .join('notes', 'notes.id', 'p.id')
        .where('notes.user_id', userId)
        .select<RankedRow[]>(...noteColumns(), ...headlines(), 'p.matched')
        .orderBy(ordered(pinnedFirst, 'p', 'p.score'));
    };

    // The probe, the ranking and the headlines in one statement: each candidate set is gated
    // by the probe, which Postgres evaluates once, so only the set it chose is read.
    let best = await rank(
      db
        .select('*')
        .from(
          db.raw('((?) union all (?)) as candidates', [
            newestMatches(scanFor(ranked))
              .select('recent.*')
              .whereRaw('(select common from probe)')
              .limit(ranked),
            allMatches().whereRaw('not (select common from probe)'),
          ]),
        ),
    )
      .with('probe', probe)
      .select(db.raw('(select common from probe) as common'));
    // No row of a first page: nothing matches (a common word would have matches to rank).
    if (best.length === 0 && offset === 0) return { rows: [], total: 0, totalExact: true };
    const common =
      best[0] === undefined ? Boolean((await probe.first())?.common) : Boolean(best[0].common);

    let exact = !common;
    /** How many candidates there are, also for a page past the last one. */
    const countOf = async (candidates: Knex.QueryBuilder) => {
      if (best.length > 0 || offset === 0) return Number(best[0]?.matched ?? 0);
      const [counted] = await db
        .from(candidates.as('c'))
        .count<{ count: string | number }[]>({ count: '*' });
      return Number(counted?.count ?? 0);
    };
    const found = () => countOf(newestMatches(scanFor(ranked)).select('recent.id').limit(ranked));
    if (common && (await found()) < ranked) {
      // Sparser further back than the sample showed: rank all the matches after all.
      exact = true;
      best = await rank(allMatches());
    }
    const rows: SearchRow[] = best.map(({ matched: _, common: __, ...row }) => row);
    let total = exact ? await countOf(allMatches()) : ranked;
    if (!exact && rows.length < limit) {
      // Past the ranked matches: the older ones, newest first.
      const from = Math.max(offset, ranked);
      const older = await newestMatches(scanFor(from + limit))
        .select<{ id: string }[]>('recent.id')
        .offset(from)
        .limit(limit - rows.length);
      total = Math.max(ranked, from + older.length);
      if (older.length > 0) {
        const olderRows = await db('notes')
          .select<SearchRow[]>(...noteColumns(), ...headlines())
          .where('notes.user_id', userId)
          .whereIn(
            'notes.id',
            older.map((row) => row.id),
          );
        const byId = new Map(olderRows.map((row) => [row.id, row]));
        rows.push(...older.flatMap((row) => byId.get(row.id) ?? []));
      }
    }
    return { rows, total, totalExact: exact };
  },

  /**
   * For typos: each searched word is replaced by the (at most 3) most alike words of the
   * user's vocabulary, and the notes are searched again with those. The vocabulary is the
   * words of the user's newest VOCABULARY_NOTES notes (ts_stat over their search vectors), so
   * the cost does not grow with the account; a word only older notes have is not suggested.
   */
  similar: async (db: Knex, userId: string, options: SearchOptions): Promise<FullTextResult> => {
    const none = { rows: [], total: 0, totalExact: true };
    const typed = [
      ...new Set(options.terms.similar.toLowerCase().split(/\s+/).filter(Boolean)),
    ].slice(0, MAX_TYPED_WORDS);
    if (typed.length === 0) return none;
    const { rows } = await db.raw<{ rows: { position: string | number; found: string }[] }>(
      `with vocabulary as materialized (
         select word from ts_stat(format(
           'select search from notes where user_id = %L order by created_at desc limit ${VOCABULARY_NOTES}',
           ?::text))
       )
       select typed.position, alike.word as found
         from unnest(?::text[]) with ordinality as typed(word, position)
         cross join lateral (
           select word from vocabulary
            where similarity(vocabulary.word, typed.word) >= ?
            order by similarity(vocabulary.word, typed.word) desc, word
            limit 3
         ) as alike
        order by typed.position`,
      [userId, typed, SIMILARITY_THRESHOLD],
    );
    const alike = new Map<number, string[]>();
    for (const row of rows) {
      const position = Number(row.position);
      alike.set(position, [...(alike.get(position) ?? []), row.found]);
    }
    if (alike.size === 0) return none;
    // Every typed word that has alike words must match one of them.
    const groups = [...alike.values()];
    const sql = groups
      .map((words) => `(${words.map(() => "plainto_tsquery('simple', ?)").join(' || ')})`)
      .join(' && ');
    const excluded = options.terms.excluded;
    const query = db.raw(
      excluded ? `(${sql} && !!websearch_to_tsquery('simple', ?))` : `(${sql})`,
      [...groups.flat(), ...(excluded ? [excluded] : [])],
    );
    return searchRepository.fullText(db, userId, { ...options, query });
  },
};
