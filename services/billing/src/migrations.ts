import type { Knex } from 'knex';
import { outboxMigrations, type Migration } from '@noted/db';

export const billingMigrations: Migration[] = [
  ...outboxMigrations,
  {
    name: '20261125_001_billing',
    up: async (knex: Knex) => {
      /** A user's Stripe customer, made at their first checkout. */
      await knex.schema.createTable('customers', (t) => {
        t.uuid('user_id').primary();
        t.text('stripe_customer_id').notNullable().unique();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      /** Checkout sessions started, so a return from Checkout is only its owner's to verify. */
      await knex.schema.createTable('checkout_sessions', (t) => {
        t.text('id').primary();
        t.uuid('user_id').notNullable().index();
        t.text('plan').notNullable();
        t.text('interval').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('completed_at', { useTz: true }).nullable();
      });
      /**
       * Each user's current subscription as Stripe last said. `synced_at` is when the state was
       * read from Stripe: an older read never replaces a newer one.
       */
      await knex.schema.createTable('subscriptions', (t) => {
        t.uuid('user_id').primary();
        t.text('stripe_subscription_id').notNullable().unique();
        t.text('stripe_customer_id').notNullable();
        t.text('plan').notNullable();
        t.text('interval').nullable();
        t.text('price_id').notNullable();
        t.text('status').notNullable();
        t.timestamp('current_period_end', { useTz: true }).nullable();
        t.boolean('cancel_at_period_end').notNullable().defaultTo(false);
        t.timestamp('trial_end', { useTz: true }).nullable();
        t.timestamp('synced_at', { useTz: true }).notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      /** Stripe events applied, in the transaction of their effect: each is applied once. */
      await knex.schema.createTable('stripe_events', (t) => {
        t.text('id').primary();
        t.text('type').notNullable();
        t.timestamp('processed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
    },
    down: async (knex: Knex) => {
      for (const table of ['stripe_events', 'subscriptions', 'checkout_sessions', 'customers']) {
        await knex.schema.dropTable(table);
      }
    },
  },
];
