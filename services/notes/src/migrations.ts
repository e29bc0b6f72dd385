import type { Knex } from 'knex';
import { outboxMigrations, type Migration } from '@noted/db';

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
];
