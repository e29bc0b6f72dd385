import type { Knex } from 'knex';
import { outboxMigrations, type Migration } from '@noted/db';
import {
  dropTrigramIndexesMigration,
  searchColumnMigration,
  searchMigration,
  searchVocabularyMigration,
} from './search/migration.js';

export const notesMigrations: Migration[] = [
  ...outboxMigrations,
  {
    name: '20261122_001_notes',
    up: async (knex: Knex) => {
      await knex.schema.createTable('notes', (t) => {
        t.uuid('id').primary();
        t.uuid('user_id').notNullable();
        t.text('title').notNullable().defaultTo('');
        t.text('body').notNullable().defaultTo('');
        t.specificType('tags', 'text[]').notNullable().defaultTo('{}');
        t.specificType('images', 'text[]').notNullable().defaultTo('{}');
        t.boolean('is_pinned').notNullable().defaultTo(false);
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.index(['user_id', 'created_at', 'id'], 'notes_user_newest');
      });
    },
    down: async (knex: Knex) => {
      await knex.schema.dropTable('notes');
    },
  },
  {
    name: '20261122_002_notes_pin_share_tags',
    up: async (knex: Knex) => {
      await knex.schema.alterTable('notes', (t) => {
        t.text('public_id').unique();
        t.index(['user_id', 'is_pinned'], 'notes_user_pinned');
      });
      await knex.raw('create index notes_tags on notes using gin (tags)');
      await knex.raw('create index notes_user_updated on notes (user_id, updated_at)');
    },
    down: async (knex: Knex) => {
      await knex.raw('drop index notes_user_updated');
      await knex.raw('drop index notes_tags');
      await knex.schema.alterTable('notes', (t) => {
        t.dropIndex(['user_id', 'is_pinned'], 'notes_user_pinned');
        t.dropColumn('public_id');
      });
    },
  },
  {
    name: '20261122_102_links',
    up: async (knex: Knex) => {
      await knex.schema.createTable('note_links', (t) => {
        t.uuid('user_id').notNullable();
        t.uuid('source_id').notNullable().references('id').inTable('notes').onDelete('CASCADE');
        t.uuid('target_id').notNullable().references('id').inTable('notes').onDelete('CASCADE');
        t.text('kind').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.primary(['source_id', 'target_id', 'kind']);
        t.index(['target_id'], 'note_links_target');
        t.check("?? in ('manual', 'wiki')", ['kind'], 'note_links_kind');
        t.check('?? <> ??', ['source_id', 'target_id'], 'note_links_not_self');
      });
    },
    down: async (knex: Knex) => {
      await knex.schema.dropTable('note_links');
    },
  },
  searchMigration,
  {
    name: '20261122_104_review',
    up: async (knex: Knex) => {
      await knex.schema.createTable('note_reviews', (t) => {
        t.uuid('note_id').primary().references('id').inTable('notes').onDelete('CASCADE');
        t.uuid('user_id').notNullable();
        t.integer('repetitions').notNullable().defaultTo(0);
        t.integer('interval_days').notNullable().defaultTo(0);
        t.decimal('ease', 4, 3).notNullable().defaultTo(2.5);
        t.timestamp('due_at', { useTz: true }).notNullable();
        t.timestamp('last_reviewed_at', { useTz: true }).nullable();
        t.timestamp('notified_at', { useTz: true }).nullable();
        t.index(['due_at'], 'note_reviews_due');
        t.index(['user_id', 'due_at'], 'note_reviews_user_due');
      });
    },
    down: async (knex: Knex) => {
      await knex.schema.dropTable('note_reviews');
    },
  },
  searchColumnMigration,
  {
    // The titles each body names in [[...]], so that the notes naming a title are found by an
    // index lookup when a note gets that title, instead of by searching every body.
    name: '20261122_106_wiki_refs',
    up: async (knex: Knex) => {
      await knex.schema.createTable('note_wiki_refs', (t) => {
        t.uuid('user_id').notNullable();
        t.uuid('source_id').notNullable().references('id').inTable('notes').onDelete('CASCADE');
        t.text('title_key').notNullable();
        t.primary(['source_id', 'title_key']);
        t.index(['user_id', 'title_key'], 'note_wiki_refs_title');
      });
      await knex.raw(
        `insert into note_wiki_refs (user_id, source_id, title_key)
         select distinct user_id, id, lower(trim(m[1]))
           from notes, regexp_matches(body, '\\[\\[([^][|\\n]+)(?:\\|[^][\\n]*)?\\]\\]', 'g') as m
          where trim(m[1]) <> ''`,
      );
    },
    down: async (knex: Knex) => {
      await knex.schema.dropTable('note_wiki_refs');
    },
  },
  dropTrigramIndexesMigration,
  {
    // A list counts up to 1,000 of the user's notes that pass its filters: with the filtered
    // columns in the index, that count reads the index alone instead of each note's row.
    name: '20261123_107_notes_newest_covering',
    up: async (knex: Knex) => {
      await knex.raw('drop index notes_user_newest');
      await knex.raw(
        'create index notes_user_newest on notes (user_id, created_at, id) include (tags, is_pinned, public_id)',
      );
    },
    down: async (knex: Knex) => {
      await knex.raw('drop index notes_user_newest');
      await knex.raw('create index notes_user_newest on notes (user_id, created_at, id)');
    },
  },
  {
    // Notes made from an image, audio, a link or a PDF keep how they came to be and how far
    // their reading is; the sweeper finds the ones still processing or waiting for a model.
    name: '20261125_108_notes_capture',
    up: async (knex: Knex) => {
      await knex.raw('alter table notes add column capture jsonb');
      await knex.raw(
        `create index notes_capture_pending on notes ((capture->>'status'), updated_at)
          where capture is not null and capture->>'status' in ('processing', 'waiting')`,
      );
    },
    down: async (knex: Knex) => {
      await knex.raw('drop index notes_capture_pending');
      await knex.raw('alter table notes drop column capture');
    },
  },
  {
    // Large files come straight to storage through a signed address; this is what each address
    // was given for, until its file is made into a note or the sweeper deletes it.
    name: '20261125_109_capture_uploads',
    up: async (knex: Knex) => {
      await knex.schema.createTable('capture_uploads', (t) => {
        t.uuid('id').primary();
        t.uuid('user_id').notNullable();
        t.text('kind').notNullable();
        t.text('file_name').notNullable();
        t.integer('max_bytes').notNullable();
        t.specificType('token_hash', 'bytea').notNullable().unique();
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.index(['expires_at'], 'capture_uploads_expiry');
      });
    },
    down: async (knex: Knex) => {
      await knex.schema.dropTable('capture_uploads');
    },
  },
  searchVocabularyMigration,
];
