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
 * stays for similarity() in the typo fallback.
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
 * The typo fallback looks words up in the vocabulary of the newest notes (see
 * searchRepository.similar) and wiki references have their own table, so nothing reads the
 * trigram indexes any more; the one on bodies was the costliest index to keep up on a write.
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
