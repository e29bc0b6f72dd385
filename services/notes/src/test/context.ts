import { createUnitOfWork, openDatabase, type Database } from '@noted/db';
import { createLogger } from '@noted/kit';
import type { Knex } from 'knex';
import type { NotesContext } from '../context.js';
import { notesMigrations } from '../migrations.js';

/** The notes schema, migrated, in an embedded database under `dataDir`. */
export const openTestNotesDatabase = async (dataDir: string): Promise<Database> => {
  const db = await openDatabase({
    dataDir,
    schema: 'notes',
    migrations: notesMigrations,
    logger: createLogger({ level: 'silent' }),
  });
  await db.migrate();
  return db;
};

/**
 * The notes service's context for a suite on its own database: the outbox relay is `kick`
 * (nothing unless given), and the quota lets every note through (recordings up to a minute).
 */
export const testNotesContext = (knex: Knex, kick: () => void = () => {}): NotesContext => ({
  knex,
  unitOfWork: createUnitOfWork(knex, kick),
  quota: {
    consume: async () => async () => {},
    refund: async () => {},
    recordingLimit: async () => 60,
    close: () => {},
  },
});
