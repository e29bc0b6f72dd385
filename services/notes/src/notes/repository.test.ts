import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@noted/db';
import { openTestNotesDatabase } from '../test/context.js';
import { COUNTED_NOTES, notesRepository } from './repository.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'noted-notes-repository-'));
let db: Database;

beforeAll(async () => {
  db = await openTestNotesDatabase(dataDir);
});

afterAll(async () => {
  await db?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const seed = async (userId: string, count: number, tags: (i: number) => string[]) => {
  const start = Date.parse('2026-01-01T00:00:00Z');
  await db.knex.batchInsert(
    'notes',
    Array.from({ length: count }, (_, i) => ({
      id: randomUUID(),
      user_id: userId,
      title: `Note ${i}`,
      tags: tags(i),
      created_at: new Date(start + i * 1000),
    })),
    500,
  );
};

describe('pages of notes', () => {
  it('counts up to COUNTED_NOTES and then says the total is a lower bound', async () => {
    const userId = randomUUID();
    await seed(userId, COUNTED_NOTES + 5, (i) => (i % 2 ? ['odd'] : []));
    const page = (filter: { tag?: string }) =>
      notesRepository.page(db.knex, userId, { page: 2, limit: 3, pinnedFirst: false, filter });

    const all = await page({});
    expect(all).toMatchObject({ total: COUNTED_NOTES, totalExact: false });
    expect(all.rows.map((row) => row.title)).toEqual(['Note 1001', 'Note 1000', 'Note 999']);

    const odd = await page({ tag: 'odd' });
    expect(odd).toMatchObject({ total: (COUNTED_NOTES + 4) / 2, totalExact: true });
    expect(odd.rows.map((row) => row.title)).toEqual(['Note 997', 'Note 995', 'Note 993']);
  });

  it('answers a page past the last one empty, with the total still counted', async () => {
    const userId = randomUUID();
    await seed(userId, 5, () => ['few']);
    const past = await notesRepository.page(db.knex, userId, {
      page: 3,
      limit: 3,
      pinnedFirst: false,
      filter: { tag: 'few' },
    });
    expect(past).toEqual({ rows: [], total: 5, totalExact: true });
    const none = await notesRepository.page(db.knex, randomUUID(), {
      page: 1,
      limit: 3,
      pinnedFirst: false,
      filter: {},
    });
    expect(none).toEqual({ rows: [], total: 0, totalExact: true });
  });

  it('reads only the columns of a note, never the search document', async () => {
    const userId = randomUUID();
    await seed(userId, 1, () => []);
    const { rows } = await notesRepository.page(db.knex, userId, {
      page: 1,
      limit: 1,
      pinnedFirst: true,
      filter: {},
    });
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(
      [
        'id',
        'user_id',
        'title',
        'body',
        'tags',
        'images',
        'is_pinned',
        'public_id',
        'created_at',
        'updated_at',
        'capture',
      ].sort(),
    );
  });
});
