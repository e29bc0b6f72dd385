import type { Knex } from 'knex';
import type { Migration } from './database.js';

/** Include in a service's migrations to use `processOnce`. */
export const processedEventsMigrations: Migration[] = [
  {
    name: '0000_noted_processed_events',
    async up(knex) {
      await knex.schema.createTable('processed_events', (table) => {
        table.text('consumer').notNullable();
        table.text('event_id').notNullable();
        table.timestamp('processed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        table.primary(['consumer', 'event_id']);
      });
    },
    async down(knex) {
      await knex.schema.dropTable('processed_events');
    },
  },
];

/**
 * Records that `consumer` handled `eventId`, in the transaction doing the handler's work.
 * True the first time; false when it was already recorded, so the handler skips its effects.
 */
export const processOnce = async (
  trx: Knex.Transaction,
  consumer: string,
  eventId: string,
): Promise<boolean> => {
  const inserted = await trx('processed_events')
    .insert({ consumer, event_id: eventId })
    .onConflict(['consumer', 'event_id'])
    .ignore()
    .returning('event_id');
  return inserted.length > 0;
};
