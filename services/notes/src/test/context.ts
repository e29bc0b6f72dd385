import { createUnitOfWork } from '@noted/db';
import type { Knex } from 'knex';
import type { NotesContext } from '../context.js';

/**
 * The notes service's context for a suite on its own database: the outbox relay is `kick`
 * (nothing unless given), and the quota lets every note through (recordings up to a minute).
 */
export const testNotesContext = (knex: Knex, kick: () => void = () => {}): NotesContext => ({
  knex,
  unitOfWork: createUnitOfWork(knex, kick),
  quota: { consume: async () => async () => {}, recordingLimit: async () => 60, close: () => {} },
});
