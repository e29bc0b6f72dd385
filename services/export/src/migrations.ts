import type { Knex } from 'knex';
import type { Migration } from '@noted/db';

/**
 * The export service's schema (`export`): only the Notion connections. Exports and imports are
 * done on request and keep nothing; a connection is the one thing that outlives a request (its
 * schedule, its token, where its last run stopped).
 */
export const exportMigrations: Migration[] = [
  {
    name: '20261201_001_notion_connections',
    up: async (knex: Knex) => {
      /**
       * One Notion connection a user. `token` is the integration token sealed with AES-256-GCM
       * (nonce, tag and ciphertext); sub, email and name are who the sync writes notes as.
       * `claim` names the run under way: only that run records its outcome, so a run whose
       * lease ran out (or a connection made again meanwhile) writes nothing over a newer one.
       */
      await knex.schema.createTable('notion_connections', (t) => {
        t.uuid('user_id').primary();
        t.text('sub').notNullable();
        t.text('email').notNullable();
        t.text('name').notNullable();
        t.binary('token').notNullable();
        t.text('workspace_id').nullable();
        t.text('workspace_name').nullable();
        t.text('bot_id').nullable();
        t.text('status').notNullable().defaultTo('idle');
        /** The newest `last_edited_time` synced: the next run reads pages edited since. */
        t.text('cursor').nullable();
        t.timestamp('last_sync_at', { useTz: true }).nullable();
        t.text('last_error').nullable();
        t.timestamp('next_sync_at', { useTz: true }).nullable().index();
        t.uuid('claim').nullable();
        t.timestamp('claimed_at', { useTz: true }).nullable();
        t.timestamp('connected_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      /** Each Notion page kept as a note, and the edit of it last written. */
      await knex.schema.createTable('notion_pages', (t) => {
        t.uuid('user_id')
          .notNullable()
          .references('user_id')
          .inTable('notion_connections')
          .onDelete('CASCADE');
        t.text('page_id').notNullable();
        t.uuid('note_id').notNullable();
        t.text('last_edited_time').notNullable();
        t.primary(['user_id', 'page_id']);
      });
    },
    down: async (knex: Knex) => {
      await knex.schema.dropTable('notion_pages');
      await knex.schema.dropTable('notion_connections');
    },
  },
];
