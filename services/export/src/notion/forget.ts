import type { Database } from '@noted/db';
import { notionRepository } from './repository.js';

/**
 * Forgets a user's Notion connection: its token, its state and its map of pages (for a deleted
 * account, on `user.deleted`). The notes it made are the notes service's to delete. Safe to call
 * again, or for a user who never connected.
 */
export const forgetNotionUser = async (db: Pick<Database, 'knex'>, userId: string) =>
  notionRepository(db.knex).forget(userId);
