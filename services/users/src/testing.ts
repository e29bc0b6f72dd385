import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createUnitOfWork, openDatabase, type Database } from '@noted/db';
import { createLogger } from '@noted/kit';
import { usersMigrations } from './migrations.js';
import type { UsersContext } from './users/usecases.js';

/**
 * The users schema on a fresh PGlite, migrated, and the use cases' context over it (a free plan
 * of 25 notes and 60 s recordings, events dropped), for the service's own tests.
 */
export const openUsersForTest = async <Extra extends object = object>(
  name: string,
  extra?: Extra,
): Promise<{ db: Database; ctx: UsersContext & Extra }> => {
  const db = await openDatabase({
    dataDir: mkdtempSync(path.join(tmpdir(), `noted-users-${name}-`)),
    schema: 'users',
    migrations: usersMigrations,
    logger: createLogger({ level: 'silent' }),
  });
  await db.migrate();
  const ctx = {
    knex: db.knex,
    unitOfWork: createUnitOfWork(db.knex, () => undefined),
    freePlan: { notesPerMonth: 25, recordingTimeLimit: 60 },
    fallbackEmailDomain: 'users.noted.invalid',
    ...(extra ?? ({} as Extra)),
  };
  return { db, ctx };
};
