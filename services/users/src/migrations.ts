import type { Knex } from 'knex';
import { outboxMigrations, type Migration } from '@noted/db';

export const usersMigrations: Migration[] = [
  ...outboxMigrations,
  {
    name: '20261122_001_users',
    up: async (knex: Knex) => {
      await knex.schema.createTable('users', (t) => {
        t.uuid('id').primary();
        t.text('auth_id').notNullable().unique();
        t.text('email').notNullable();
        t.text('name').notNullable().defaultTo('');
        t.jsonb('entitlements').notNullable().defaultTo('{}');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
    },
    down: async (knex: Knex) => {
      await knex.schema.dropTable('users');
    },
  },
  {
    name: '20261201_001_usage_counters',
    up: async (knex: Knex) => {
      await knex.schema.createTable('usage_counters', (t) => {
        t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
        t.text('feature').notNullable();
        /** The month counted, `YYYY-MM` in UTC. */
        t.text('period').notNullable();
        t.integer('used').notNullable().defaultTo(0);
        t.primary(['user_id', 'feature', 'period']);
      });
    },
    down: async (knex: Knex) => {
      await knex.schema.dropTable('usage_counters');
    },
  },
  {
    name: '20261202_001_users_profile_issued_at',
    up: async (knex: Knex) => {
      await knex.schema.alterTable('users', (t) => {
        /** When the token that gave the stored email and name was issued; null when unknown. */
        t.timestamp('profile_issued_at', { useTz: true }).nullable();
      });
    },
    down: async (knex: Knex) => {
      await knex.schema.alterTable('users', (t) => {
        t.dropColumn('profile_issued_at');
      });
    },
  },
  {
    name: '20261203_001_users_plan',
    up: async (knex: Knex) => {
      await knex.schema.alterTable('users', (t) => {
        /** The plan billing last announced; entitlements follow it. */
        t.text('plan').notNullable().defaultTo('free');
        /** The version of billing's last applied `subscription.changed`; null before any. */
        t.bigInteger('entitlements_version').nullable();
      });
    },
    down: async (knex: Knex) => {
      await knex.schema.alterTable('users', (t) => {
        t.dropColumn('plan');
        t.dropColumn('entitlements_version');
      });
    },
  },
  {
    name: '20261210_001_deleted_users',
    up: async (knex: Knex) => {
      /**
       * The tombstone of a deleted account: tokens of this subject issued before `deleted_at`
       * are refused instead of creating the user again. Ids only; pruned after a week.
       */
      await knex.schema.createTable('deleted_users', (t) => {
        t.uuid('user_id').primary();
        t.text('auth_id').notNullable().index();
        t.timestamp('deleted_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
    },
    down: async (knex: Knex) => {
      await knex.schema.dropTable('deleted_users');
    },
  },
];
