import type { Knex } from 'knex';
import { filteredNotes, noteColumns, type NoteFilter, type NoteRow } from '../notes/repository.js';
import { SEARCHED_BODY_CHARS } from './migration.js';
import type { SearchTerms } from './query.js';
import { afterPrefix, lettersOf, lexemeQuery, type NearWords } from './typos.js';

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
  /** Searched words the user's vocabulary lacks, with the words they may be typos of. */
  corrections?: Correction[];
}

/**
 * A searched word (a lexeme, as the 'simple' configuration makes it) that no note of the user
 * has, and the words of their vocabulary within its allowed typos: a note with one of those
 * matches it too, ranked below the notes that have the word itself (see `typosOf`).
 */
export interface Correction {
  word: string;
  /** The word being typed: it also matches as a prefix, which counts as no typo. */
  prefix: boolean;
  alike: { word: string; typos: number }[];
}

/** A vocabulary word that may be within the typos of probe number `probe`. */
export interface VocabularyRow {
  probe: number;
  word: string;
  notes: number;
}

/** A searched word the vocabulary lacks, for `vocabulary` to read the candidates of. */
export interface VocabularyProbe {
  word: string;
  /** The word being typed (a prefix). */
  prefix: boolean;
  near: NearWords;
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

const escapeHtml = (sql: string) =>
  `replace(replace(replace(replace(replace(${sql}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;')`;
const MARKS = 'StartSel="<mark>", StopSel="</mark>"';

/** The word or any of its corrections, as one tsquery operand. */
const eitherOf = (correction: Correction, typos?: number) =>
  correction.alike
    .filter((alike) => typos === undefined || alike.typos === typos)
    .map((alike) => lexemeQuery(alike.word))
    .join(' | ');

/**
 * The search's tsquery. A corrected word becomes "the word or its corrections": ts_rewrite
 * replaces it wherever websearch_to_tsquery put it (in a phrase too), and the word being typed,
 * a prefix, gets its corrections as whole words beside it.
 */
const tsquery = (db: Db, { words, prefix }: SearchTerms, corrections: Correction[] = []) => {
  let sql = `websearch_to_tsquery('simple', ?)`;
  const bindings: string[] = [words];
  for (const correction of corrections) {
    sql = `ts_rewrite(${sql}, ?::tsquery, ?::tsquery)`;
    bindings.push(
      lexemeQuery(correction.word),
      `${lexemeQuery(correction.word)} | ${eitherOf(correction)}`,
    );
  }
  if (!prefix) return db.raw(sql, bindings);
  const typed = corrections.find((correction) => correction.prefix);
  const last = typed ? `(to_tsquery('simple', ?) || ?::tsquery)` : `to_tsquery('simple', ?)`;
  return db.raw(`(${sql} ${prefix.join === 'or' ? '||' : '&&'} ${last})`, [
    ...bindings,
    prefix.term,
    ...(typed ? [eitherOf(typed)] : []),
  ]);
};

/**
 * How many typos a note's match has (the `vector` column's): for each corrected word, none
 * when the note has the word itself (or, being typed, a word it begins), else the fewest
 * typos of a correction it has. Notes rank by this before anything else, so a note with the
 * words as searched comes before one found through a correction.
 */
const typosOf = (db: Db, vector: string, corrections: Correction[] = []) => {
  if (corrections.length === 0) return db.raw('0 as typos');
  const bindings: string[] = [];
  const cases = corrections.map((correction) => {
    bindings.push(`${lexemeQuery(correction.word)}${correction.prefix ? ':*' : ''}`);
    const steps = [1, 2]
      .filter((typos) => correction.alike.some((alike) => alike.typos === typos))
      .map((typos) => {
        bindings.push(eitherOf(correction, typos));
        return `when ${vector} @@ ?::tsquery then ${typos}`;
      });
    return `case when ${vector} @@ ?::tsquery then 0 ${steps.join(' ')} else 0 end`;
  });
  return db.raw(`(${cases.join(' + ')}) as typos`, bindings);
};

/**
 * Fewest typos, best, then newest; `typos` and `score` are columns of the select, not of the
 * table.
 */
const ordered = (pinnedFirst: boolean, table: string, score: string) => [
  ...(pinnedFirst ? [{ column: `${table}.is_pinned`, order: 'desc' as const }] : []),
  { column: `${table}.typos`, order: 'asc' as const },
  { column: score, order: 'desc' as const },
  { column: `${table}.created_at`, order: 'desc' as const },
  { column: `${table}.id`, order: 'desc' as const },
];

/** `column` begins with `prefix`: a range of an index of `column` (its collation is "C"). */
const beginsWith = (column: string, prefix: string): [string, string[]] => {
  const after = afterPrefix(prefix);
  return after === undefined
    ? [`${column} >= ? and starts_with(${column}, ?)`, [prefix, prefix]]
    : [`${column} >= ? and ${column} < ?`, [prefix, after]];
};

/**
 * The statement searchRepository.vocabulary runs: the candidates of each probe, read by ranges
 * of the vocabulary's indexes (see the migration), all of them the user's.
 */
export const vocabularyQuery = (db: Db, userId: string, probes: VocabularyProbe[]) => {
  const keys = { word: 'word', reversed: 'reverse(word)', fromFifth: 'substr(word, 5)' };
  const parts: string[] = [];
  const bindings: (string | number)[] = [];
  probes.forEach(({ near }, index) => {
    for (const { key, begins, middle } of near.ranges) {
      const [range, rangeBindings] = beginsWith(keys[key], begins);
      parts.push(
        `(select ?::integer as probe, word, notes from note_words
           where user_id = ? and ${range} and char_length(word) between ? and ?
             ${middle ? 'and substr(word, ?, ?) = ?' : ''})`,
      );
      bindings.push(index, userId, ...rangeBindings, near.minLetters, near.maxLetters);
      if (middle) bindings.push(middle.at, lettersOf(middle.letters), middle.letters);
    }
  });
  return db.raw<{ rows: VocabularyRow[] }>(parts.join(' union all '), bindings);
};

/**
 * Every query names the owner. Headlines are made for the page only, on HTML-escaped text:
 * then the text has no `<` left, and the only tags in a headline are its own <mark>s.
 */
export const searchRepository = {
  fullText: async (db: Db, userId: string, options: SearchOptions): Promise<FullTextResult> => {
    const { ranked, sample, commonShare } = options.tuning ?? SEARCH_TUNING;
    const { filter, pinnedFirst, limit } = options;
    const offset = (options.page - 1) * limit;
    const query = tsquery(db, options.terms, options.corrections);
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
          typosOf(db, 'c.search', options.corrections),
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
   * The lexemes the 'simple' configuration makes of the searched words, of the excluded words
   * and of the word being typed (what the tsquery holds, so what a correction replaces), and
   * whether the user's vocabulary has each searched word (the word being typed: a word it
   * begins; U+10FFFF, the last code point, sorts after any letter that can follow it).
   */
  searchedWords: async (
    db: Db,
    userId: string,
    texts: { included: string; excluded: string; typed: string },
  ): Promise<{ part: 'included' | 'excluded' | 'typed'; word: string; known: boolean }[]> => {
    const lexemes = (part: string) =>
      `select '${part}' as part, word from unnest(tsvector_to_array(to_tsvector('simple', ?))) as word`;
    const { rows } = await db.raw<{
      rows: { part: 'included' | 'excluded' | 'typed'; word: string; known: boolean }[];
    }>(
      `select part, word, case part
         when 'included' then exists (select 1 from note_words as v
           where v.user_id = ? and v.word = searched.word)
         when 'typed' then exists (select 1 from note_words as v
           where v.user_id = ? and v.word >= searched.word collate "C"
             and v.word < searched.word || chr(1114111) collate "C")
         else false end as known
       from (${lexemes('included')} union all ${lexemes('excluded')} union all ${lexemes('typed')})
         as searched`,
      [userId, userId, texts.included, texts.excluded, texts.typed],
    );
    return rows;
  },

  /**
   * For each probe, the user's vocabulary words that may be within its typos (the distance is
   * computed after: see typos.ts). No other user's word is ever read.
   */
  vocabulary: async (
    db: Db,
    userId: string,
    probes: VocabularyProbe[],
  ): Promise<VocabularyRow[]> => {
    if (probes.length === 0) return [];
    const { rows } = await vocabularyQuery(db, userId, probes);
    return rows.map((row) => ({ ...row, probe: Number(row.probe), notes: Number(row.notes) }));
  },
};
