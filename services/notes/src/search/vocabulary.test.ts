import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@noted/db';
import { createLogger } from '@noted/kit';
import type { Knex } from 'knex';
import { notesMigrations } from '../migrations.js';
import { notePin } from '../notes/actions.js';
import { notesRepository } from '../notes/repository.js';
import { noteDelete } from '../notes/usecases.js';
import type { NotesContext } from '../context.js';
import { noteCreate, noteUpdate } from '../test/validated.js';
import { searchVocabularyMigration } from './migration.js';
import { testNotesContext } from '../test/context.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'noted-vocabulary-'));
const logger = createLogger({ level: 'silent' });
let db: Database;
let ctx: NotesContext;

const open = async (migrations = notesMigrations) => {
  db = await openDatabase({ dataDir, schema: 'notes', migrations, logger });
  await db.migrate();
  ctx = testNotesContext(db.knex);
};

/** The user's vocabulary, word: notes. */
const vocabularyOf = async (userId: string, knex: Knex = db.knex) => {
  const rows: { word: string; notes: number }[] = await knex('note_words')
    .where({ user_id: userId })
    .select('word', 'notes')
    .orderBy('word');
  return Object.fromEntries(rows.map((row) => [row.word, row.notes]));
};

/** The vocabulary as it would be made from the notes there are now. */
const recountedOf = async (userId: string, knex: Knex = db.knex) => {
  const rows: { word: string; notes: string | number }[] = await knex
    .from(knex.raw('notes, note_words_of(notes.search) as word'))
    .where('notes.user_id', userId)
    .groupBy('word')
    .select('word', knex.raw('count(*) as notes'));
  return Object.fromEntries(
    rows.sort((a, b) => (a.word < b.word ? -1 : 1)).map((row) => [row.word, Number(row.notes)]),
  );
};

beforeAll(async () => {
  // The notes of before typo tolerance, then the migration that makes their vocabulary.
  await open(notesMigrations.filter((migration) => migration !== searchVocabularyMigration));
}, 60_000);

afterAll(async () => {
  await db?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the vocabulary of typo tolerance', () => {
  const ada = randomUUID();
  const bob = randomUUID();

  it('is made for the notes there are when the migration runs', async () => {
    const add = (userId: string, title: string, body: string, tags: string[] = []) =>
      notesRepository.insert(db.knex, { id: randomUUID(), user_id: userId, title, body, tags });
    await add(ada, 'Elephants', 'An elephant and a giraffe', ['animals']);
    await add(ada, 'Zoo', 'The elephant house, 2026, 会议记录');
    await add(bob, 'Garden', 'Roses and tulips');
    await db.close();
    await open();
    expect(await vocabularyOf(ada)).toEqual({
      animals: 1,
      elephant: 2,
      elephants: 1,
      giraffe: 1,
      house: 1,
    });
    expect(await vocabularyOf(bob)).toEqual({ garden: 1, roses: 1, tulips: 1 });
  }, 60_000);

  it('keeps words of 4 to 64 letters that are not numbers or Chinese', async () => {
    const user = randomUUID();
    const long = 'x'.repeat(64);
    await noteCreate(ctx, user, {
      title: 'Four',
      note: `a an the kiwi 12345 v2024 会议记录 naïve ${long} ${long}y e-mail`,
    });
    expect(await vocabularyOf(user)).toEqual({
      'e-mail': 1,
      four: 1,
      kiwi: 1,
      mail: 1,
      naïve: 1,
      v2024: 1,
      [long]: 1,
    });
  });

  it('counts the notes with each word as notes are made, edited, pinned and deleted', async () => {
    const user = randomUUID();
    const first = await noteCreate(ctx, user, {
      title: 'Safari',
      note: 'elephant elephant giraffe',
      tags: ['travel'],
    });
    const second = await noteCreate(ctx, user, { title: 'Circus', note: 'an elephant' });
    expect(await vocabularyOf(user)).toEqual({
      circus: 1,
      elephant: 2,
      giraffe: 1,
      safari: 1,
      travel: 1,
    });

    await noteUpdate(ctx, user, first.id, {
      note: 'giraffe and zebra',
      tags: ['travel', 'africa'],
    });
    expect(await vocabularyOf(user)).toEqual({
      africa: 1,
      circus: 1,
      elephant: 1,
      giraffe: 1,
      safari: 1,
      travel: 1,
      zebra: 1,
    });

    // Pinning changes no word.
    await notePin(ctx, user, { noteId: second.id });
    await noteUpdate(ctx, user, second.id, { title: 'Circus' });
    expect((await vocabularyOf(user)).elephant).toBe(1);

    await noteDelete(ctx, user, second.id);
    expect(await vocabularyOf(user)).toEqual({
      africa: 1,
      giraffe: 1,
      safari: 1,
      travel: 1,
      zebra: 1,
    });
    await noteDelete(ctx, user, first.id);
    expect(await vocabularyOf(user)).toEqual({});
  });

  it('changes only with a write that commits', async () => {
    const user = randomUUID();
    await expect(
      ctx.unitOfWork(async (trx) => {
        await notesRepository.insert(trx, {
          id: randomUUID(),
          user_id: user,
          title: 'Rolled back',
          body: 'elephant',
          tags: [],
        });
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await vocabularyOf(user)).toEqual({});
  });

  it('agrees with a count made from the notes after many changes', async () => {
    const user = randomUUID();
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echoes', 'foxtrot', 'golfer'];
    const pick = (seed: number) => words.filter((_, i) => (seed >> i) & 1).join(' ');
    const ids: string[] = [];
    for (let i = 1; i <= 40; i++) {
      if (i % 5 === 0 && ids.length > 0) {
        await noteDelete(ctx, user, ids.shift() ?? '');
      } else if (i % 3 === 0 && ids.length > 0) {
        await noteUpdate(ctx, user, ids[i % ids.length] ?? '', { note: pick(i * 37) });
      } else {
        ids.push((await noteCreate(ctx, user, { title: pick(i * 11), note: pick(i * 7) })).id);
      }
    }
    expect(await vocabularyOf(user)).toEqual(await recountedOf(user));
  });

  it('goes with its migration and comes back made again', async () => {
    await db.knex.transaction((trx) => searchVocabularyMigration.down?.(trx));
    expect(await db.knex.schema.hasTable('note_words')).toBe(false);
    await db.knex.transaction((trx) => searchVocabularyMigration.up(trx));
    expect(await vocabularyOf(ada)).toEqual(await recountedOf(ada));
    expect(Object.keys(await vocabularyOf(ada))).toContain('elephant');
  });
});
