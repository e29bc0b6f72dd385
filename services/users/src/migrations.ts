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
  {
    name: '20261215_001_feedback',
    up: async (knex: Knex) => {
      await knex.schema.createTable('feedback', (t) => {
        t.uuid('id').primary();
        t.text('kind').notNullable();
        t.text('message').notNullable();
        /** The account's email when signed in, else the one given (if any). */
        t.text('email').nullable();
        /** The sender, when signed in; the row goes with the account (see deletion). */
        t.uuid('user_id').nullable();
        t.text('page').nullable();
        t.text('user_agent').nullable();
        /** HMAC of the sender's address (IPv6: its /56) with the internal secret, never the address. */
        t.text('address_hash').notNullable();
        // Milliseconds, as a page's cursor carries it (JavaScript's Date holds no microseconds).
        t.timestamp('created_at', { useTz: true })
          .notNullable()
          .defaultTo(knex.raw("date_trunc('milliseconds', now())"));
        t.index(['created_at', 'id']);
        t.index(['user_id', 'created_at']);
        t.index(['address_hash', 'created_at']);
      });
      /**
       * Screenshots in the database, not an object store: this service has none, they are few
       * (rate-limited, 2 MB at most) and read by operators only, and a row and its image are
       * written and erased together. A table apart keeps them out of the list's reads.
       */
      await knex.schema.createTable('feedback_screenshots', (t) => {
        t.uuid('feedback_id').primary().references('id').inTable('feedback').onDelete('CASCADE');
        t.text('content_type').notNullable();
        t.binary('bytes').notNullable();
      });
    },
    down: async (knex: Knex) => {
      await knex.schema.dropTable('feedback_screenshots');
      await knex.schema.dropTable('feedback');
    },
  },
  {
    name: '20261216_001_quota_reservations',
    up: async (knex: Knex) => {
      /**
       * The charges taken for one thing each (a note id): pending (counted as used) until the
       * thing is known to exist (settled) or not to (released). The key makes a second
       * consumption for the same ref charge nothing.
       */
      await knex.schema.createTable('quota_reservations', (t) => {
        t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
        t.text('feature').notNullable();
        t.text('ref').notNullable();
        /** The month the unit was taken in, `YYYY-MM` in UTC: it is given back or kept there. */
        t.text('period').notNullable();
        t.text('state').notNullable().defaultTo('pending');
        t.timestamp('reserved_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.primary(['user_id', 'feature', 'ref']);
      });
      await knex.raw(
        `alter table quota_reservations add constraint quota_reservations_state
           check (state in ('pending', 'settled', 'released'))`,
      );
      await knex.raw(
        `create index quota_reservations_pending on quota_reservations (feature, reserved_at)
           where state = 'pending'`,
      );
      await knex.raw(
        `create index quota_reservations_done on quota_reservations (updated_at)
           where state <> 'pending'`,
      );
    },
    down: async (knex: Knex) => {
      await knex.schema.dropTable('quota_reservations');
    },
  },
];
