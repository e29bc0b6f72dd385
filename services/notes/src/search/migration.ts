import type { Knex } from 'knex';
import type { Migration } from '@noted/db';

/**
 * How much of a body is searched. A tsvector is at most 1 MB, and a body of up to a million
 * characters of distinct words would exceed it and make saving the note fail.
 */
export const SEARCHED_BODY_CHARS = 100_000;

/**
 * Full-text search over title (weight A), tags (B) and body (C), with the 'simple'
 * configuration: notes are in any language, and without stemming a prefix such as `meetin:*`
 * still finds "meeting" (English stems it to "meet", which that prefix would miss).
 * As first built: the document as an expression index, and trigram indexes for typos; the
 * migrations below store the document in a column and drop the trigram indexes. pg_trgm
 * stayed for similarity() in a typo fallback, which the vocabulary (below) has replaced.
 */
export const searchMigration: Migration = {
  name: '20261122_101_search',
  extensions: ['pg_trgm'],
  up: async (knex: Knex) => {
    // In public, so that one installation serves every schema of a shared database.
    await knex.raw('create extension if not exists pg_trgm with schema public');
    // array_to_string is only stable (element output functions in general may not be), but
    // for text[] it is immutable, which an index expression requires.
    await knex.raw(`
      create function notes_search_document(title text, tags text[], body text)
      returns tsvector language sql immutable parallel safe as $$
        select setweight(to_tsvector('simple', title), 'A')
          || setweight(to_tsvector('simple', array_to_string(tags, ' ')), 'B')
          || setweight(to_tsvector('simple', left(body, ${SEARCHED_BODY_CHARS})), 'C')
      $$`);
    await knex.raw(
      'create index notes_search on notes using gin (notes_search_document(title, tags, body))',
    );
    await knex.raw('create index notes_title_trgm on notes using gin (title gin_trgm_ops)');
    await knex.raw(
      `create index notes_body_trgm on notes using gin ((left(body, ${SEARCHED_BODY_CHARS})) gin_trgm_ops)`,
    );
  },
  down: async (knex: Knex) => {
    await knex.raw('drop index notes_body_trgm');
    await knex.raw('drop index notes_title_trgm');
    await knex.raw('drop index notes_search');
    await knex.raw('drop function notes_search_document(text, text[], text)');
  },
};

/**
 * The search document as a stored column instead of an expression index: a query that walks
 * the newest notes and tests each (see searchRepository) then reads the vector instead of
 * parsing the body again, and the planner has statistics of its words. Pinned-first pages are
 * read in index order.
 */
export const searchColumnMigration: Migration = {
  name: '20261122_105_search_column',
  up: async (knex: Knex) => {
    await knex.raw(
      'alter table notes add column search tsvector not null ' +
        'generated always as (notes_search_document(title, tags, body)) stored',
    );
    await knex.raw('create index notes_search_vector on notes using gin (search)');
    await knex.raw('drop index notes_search');
    await knex.raw(
      'create index notes_user_pinned_newest on notes (user_id, is_pinned, created_at, id)',
    );
    await knex.raw('drop index notes_user_pinned');
  },
  down: async (knex: Knex) => {
    await knex.raw('create index notes_user_pinned on notes (user_id, is_pinned)');
    await knex.raw('drop index notes_user_pinned_newest');
    await knex.raw(
      'create index notes_search on notes using gin (notes_search_document(title, tags, body))',
    );
    await knex.raw('alter table notes drop column search');
  },
};

/**
 * The typo fallback of the time looked words up in the vocabulary of the newest notes and wiki
 * references have their own table, so nothing reads the trigram indexes any more; the one on
 * bodies was the costliest index to keep up on a write.
 */
export const dropTrigramIndexesMigration: Migration = {
  name: '20261122_107_drop_trigram_indexes',
  up: async (knex: Knex) => {
    await knex.raw('drop index notes_body_trgm');
    await knex.raw('drop index notes_title_trgm');
  },
  down: async (knex: Knex) => {
    await knex.raw('create index notes_title_trgm on notes using gin (title gin_trgm_ops)');
    await knex.raw(
      `create index notes_body_trgm on notes using gin ((left(body, ${SEARCHED_BODY_CHARS})) gin_trgm_ops)`,
    );
  },
};

/**
 * Each user's vocabulary for typo tolerance (see typos.ts): the words of their notes' search
 * documents, with how many notes have each, for words typo tolerance can use (the same rule
 * as `allowedTypos`). Triggers keep it in the transaction that writes a note, whatever writes
 * it; an upsert adds a word another save added at the same time, and each statement takes its
 * words' rows in one order (`word` sorts bytewise), so saves of one user wait rather than
 * deadlock. A word goes when its last note loses it or is deleted.
 *
 * The candidates for a searched word are read by ranges of three indexes: of the words (the
 * primary key, for beginnings: `word` sorts bytewise, so a prefix is a range), of the words
 * reversed (for ends), and of their letters from the fifth on (see typos.ts, nearWords).
 */
export const searchVocabularyMigration: Migration = {
  name: '20261125_110_search_vocabulary',
  up: async (knex: Knex) => {
    await knex.raw(`
      create table note_words (
        user_id uuid not null,
        word text collate "C" not null,
        notes integer not null,
        primary key (user_id, word)
      )`);
    await knex.raw('create index note_words_reversed on note_words (user_id, reverse(word))');
    await knex.raw('create index note_words_from_fifth on note_words (user_id, substr(word, 5))');
    // The words typo tolerance can use, as typos.ts says: of 4 to 64 letters, not a number,
    // not in a script written without spaces (its UNSPACED_SCRIPT).
    await knex.raw(`
      create function note_words_of(search tsvector)
      returns setof text language sql immutable parallel safe as $$
        select word from unnest(tsvector_to_array(search)) as word
         where char_length(word) between 4 and 64
           and word !~ '^[0-9]+$'
           and word !~ '[\\u2E80-\\u9FFF\\uF900-\\uFAFF\\U00020000-\\U0003FFFF]'
      $$`);
    // OLD is null on insert and NEW on delete: note_words_of(null) is no words.
    await knex.raw(`
      create function note_words_sync() returns trigger
      language plpgsql set search_path from current as $$
      declare
        emptied text[];
      begin
        with changes as (
          select user_id, word, sum(delta)::integer as delta
            from (select new.user_id as user_id, word, 1 as delta from note_words_of(new.search) as word
                  union all
                  select old.user_id, word, -1 from note_words_of(old.search) as word) as change
           group by user_id, word
          having sum(delta) <> 0
        ), saved as (
          insert into note_words as v (user_id, word, notes)
          select user_id, word, delta from changes order by user_id, word
          on conflict (user_id, word) do update set notes = v.notes + excluded.notes
          returning v.word, v.notes
        )
        select array_agg(word) into emptied from saved where notes <= 0;
        -- Only words the old version had can drop to none, and this statement holds their rows.
        if emptied is not null then
          delete from note_words where user_id = old.user_id and word = any(emptied);
        end if;
        return null;
      end
      $$`);
    await knex.raw(
      'create trigger note_words_insert after insert on notes ' +
        'for each row execute function note_words_sync()',
    );
    await knex.raw(
      'create trigger note_words_update after update of title, tags, body, user_id on notes ' +
        'for each row when (old.search is distinct from new.search or old.user_id <> new.user_id) ' +
        'execute function note_words_sync()',
    );
    await knex.raw(
      'create trigger note_words_delete after delete on notes ' +
        'for each row execute function note_words_sync()',
    );
    // The notes there are: the triggers above hold writers off until this migration commits.
    await knex.raw(`
      insert into note_words (user_id, word, notes)
      select notes.user_id, word, count(*)
        from notes, note_words_of(notes.search) as word
       group by notes.user_id, word`);
  },
  down: async (knex: Knex) => {
    await knex.raw('drop trigger note_words_delete on notes');
    await knex.raw('drop trigger note_words_update on notes');
    await knex.raw('drop trigger note_words_insert on notes');
    await knex.raw('drop function note_words_sync()');
    await knex.raw('drop function note_words_of(tsvector)');
    await knex.raw('drop table note_words');
  },
};
