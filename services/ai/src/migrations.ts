import type { Knex } from 'knex';
import { erasedUsersMigrations, outboxMigrations, type Migration } from '@noted/db';

export const aiMigrations: Migration[] = [
  // Every service runs the outbox relay; the ai service announces nothing yet, so it idles.
  ...outboxMigrations,
  // The users erased here: a note event published before the erasure indexes nothing after it.
  ...erasedUsersMigrations,
  {
    name: '20261123_001_ai_index',
    up: async (knex: Knex) => {
      // What the index knows of each note: the version indexed, or that it is gone or excluded.
      await knex.schema.createTable('indexed_notes', (t) => {
        t.uuid('note_id').primary();
        t.uuid('user_id').notNullable();
        t.text('title').notNullable().defaultTo('');
        t.specificType('tags', 'text[]').notNullable().defaultTo('{}');
        t.timestamp('note_created_at', { useTz: true }).notNullable();
        t.timestamp('note_updated_at', { useTz: true }).notNullable();
        /** The embedding model of its chunks; null while it has none (excluded, deleted). */
        t.text('model');
        t.boolean('excluded').notNullable().defaultTo(false);
        t.boolean('deleted').notNullable().defaultTo(false);
        t.timestamp('indexed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.index(['user_id'], 'indexed_notes_user');
        t.index(['model'], 'indexed_notes_model');
      });
      await knex.schema.createTable('chunks', (t) => {
        t.uuid('note_id').notNullable();
        t.integer('chunk_index').notNullable();
        t.uuid('user_id').notNullable();
        t.text('model').notNullable();
        t.text('text').notNullable();
        /** The chunk's search tokens, space-separated (BM25 is computed from them). */
        t.text('tokens').notNullable();
        /** Float32 little-endian, unit length. */
        t.binary('embedding').notNullable();
        t.primary(['note_id', 'chunk_index']);
        t.index(['user_id'], 'chunks_user');
      });
      // Bumped with every change of a user's index: caches of it compare versions.
      await knex.schema.createTable('index_versions', (t) => {
        t.uuid('user_id').primary();
        t.bigInteger('version').notNullable().defaultTo(0);
      });
      await knex.schema.createTable('excluded_tags', (t) => {
        t.uuid('user_id').notNullable();
        t.text('tag').notNullable();
        t.primary(['user_id', 'tag']);
      });
    },
    down: async (knex: Knex) => {
      for (const table of ['excluded_tags', 'index_versions', 'chunks', 'indexed_notes']) {
        await knex.schema.dropTable(table);
      }
    },
  },
  {
    name: '20261123_002_ai_chats_summaries_usage',
    up: async (knex: Knex) => {
      await knex.schema.createTable('chats', (t) => {
        t.uuid('id').primary();
        t.uuid('user_id').notNullable();
        t.text('title').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.index(['user_id', 'updated_at'], 'chats_user_recent');
      });
      await knex.schema.createTable('chat_messages', (t) => {
        t.uuid('id').primary();
        t.uuid('chat_id').notNullable().references('chats.id').onDelete('CASCADE');
        t.uuid('user_id').notNullable();
        t.text('role').notNullable();
        t.text('content').notNullable();
        t.jsonb('citations').notNullable().defaultTo('[]');
        t.text('method');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.index(['chat_id', 'created_at'], 'chat_messages_chat');
      });
      // One cached summary per note or per period; dropped when a note it covers changes.
      await knex.schema.createTable('summaries', (t) => {
        t.uuid('user_id').notNullable();
        t.text('kind').notNullable();
        /** The note id, or the period's start and time zone. */
        t.text('key').notNullable();
        t.timestamp('period_from', { useTz: true });
        t.timestamp('period_to', { useTz: true });
        t.jsonb('content').notNullable();
        t.timestamp('generated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.primary(['user_id', 'kind', 'key']);
      });
      await knex.schema.createTable('token_usage', (t) => {
        t.uuid('user_id').notNullable();
        t.text('month').notNullable();
        t.text('model').notNullable();
        t.bigInteger('prompt_tokens').notNullable().defaultTo(0);
        t.bigInteger('completion_tokens').notNullable().defaultTo(0);
        t.primary(['user_id', 'month', 'model']);
      });
    },
    down: async (knex: Knex) => {
      for (const table of ['token_usage', 'summaries', 'chat_messages', 'chats']) {
        await knex.schema.dropTable(table);
      }
    },
  },
  {
    name: '20261123_003_ai_index_change_versions',
    up: async (knex: Knex) => {
      // The user's index version each row was written at: a cache catches up on what is newer.
      await knex.schema.alterTable('indexed_notes', (t) => {
        t.bigInteger('version').notNullable().defaultTo(0);
        t.index(['user_id', 'version'], 'indexed_notes_user_version');
      });
    },
    down: async (knex: Knex) => {
      await knex.schema.alterTable('indexed_notes', (t) => {
        t.dropIndex(['user_id', 'version'], 'indexed_notes_user_version');
        t.dropColumn('version');
      });
    },
  },
  {
    name: '20261204_004_ai_chunk_retrieval_vectors',
    up: async (knex: Knex) => {
      // Each chunk's vector by the retrieval encoder (e5), written in the background after
      // the chunk is indexed (null until then): search fuses it with the embedding's.
      await knex.schema.alterTable('chunks', (t) => {
        t.text('retrieval_model');
        t.binary('retrieval_embedding');
      });
    },
    down: async (knex: Knex) => {
      await knex.schema.alterTable('chunks', (t) => {
        t.dropColumn('retrieval_embedding');
        t.dropColumn('retrieval_model');
      });
    },
  },
];
