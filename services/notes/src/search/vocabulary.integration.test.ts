import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SearchPage } from '@noted/api';
import { openDatabase, type Database } from '@noted/db';
import { createLogger } from '@noted/kit';
import { infraUrl } from '@noted/testing';
import { notesMigrations } from '../migrations.js';
import { notesRepository } from '../notes/repository.js';
import { noteDelete } from '../notes/usecases.js';
import type { NotesContext } from '../context.js';
import { noteCreate, notePage, noteUpdate } from '../test/validated.js';
import { vocabularyQuery } from './repository.js';
import { nearWords } from './typos.js';
import { testNotesContext } from '../test/context.js';

const databaseUrl = infraUrl('PostgreSQL', 'TEST_DATABASE_URL');

/** The vocabulary's triggers with many connections at once: what PGlite's one cannot show. */
describe.runIf(databaseUrl)('the vocabulary of typo tolerance on Postgres', () => {
  let db: Database;
  let ctx: NotesContext;

  beforeAll(async () => {
    db = await openDatabase({
      url: databaseUrl,
      dataDir: mkdtempSync(path.join(tmpdir(), 'noted-vocabulary-')),
      schema: 'notes_vocabulary_test',
      migrations: notesMigrations,
      logger: createLogger({ level: 'silent' }),
      poolMax: 12,
    });
    await db.migrate();
    ctx = testNotesContext(db.knex);
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  const vocabularyOf = async (userId: string) => {
    const rows: { word: string; notes: number }[] = await db
      .knex('note_words')
      .where({ user_id: userId })
      .select('word', 'notes')
      .orderBy('word');
    return Object.fromEntries(rows.map((row) => [row.word, row.notes]));
  };
  const recountedOf = async (userId: string) => {
    const rows: { word: string; notes: string }[] = await db.knex
      .from(db.knex.raw('notes, note_words_of(notes.search) as word'))
      .where('notes.user_id', userId)
      .groupBy('word')
      .orderBy('word')
      .select('word', db.knex.raw('count(*) as notes'));
    return Object.fromEntries(rows.map((row) => [row.word, Number(row.notes)]));
  };
  const hits = async (userId: string, search: string) =>
    ((await notePage(ctx, userId, { search })) as SearchPage).items.map((item) => item.title);

  it('finds a note despite a typo, on Postgres too', async () => {
    const user = randomUUID();
    await noteCreate(ctx, user, { title: 'Zoo', note: 'We saw an elephant' });
    await noteCreate(ctx, user, { title: 'Post', note: 'I did not receive it' });
    expect(await hits(user, 'elephnat')).toEqual(['Zoo']);
    expect(await hits(user, 'recieve')).toEqual(['Post']);
    expect(await hits(user, 'elephnat -zoo')).toEqual([]);
  });

  it('counts right when notes of one user are written at once, and never deadlocks', async () => {
    const user = randomUUID();
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echoes', 'foxtrot', 'golfer', 'hotel'];
    // Every note shares most words with the others.
    const text = (seed: number) =>
      words.filter((_, i) => (seed >> i) & 1 || i === seed % words.length).join(' ');
    const created = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        noteCreate(ctx, user, { title: 'Note', note: text(i * 7 + 3) }),
      ),
    );
    expect(await vocabularyOf(user)).toEqual(await recountedOf(user));
    await Promise.all(
      created.map((note, i) =>
        i % 3 === 0
          ? noteDelete(ctx, user, note.id)
          : noteUpdate(ctx, user, note.id, { note: text(i * 13 + 5) }),
      ),
    );
    expect(await vocabularyOf(user)).toEqual(await recountedOf(user));
    await Promise.all(
      created.filter((_, i) => i % 3 !== 0).map((note) => noteDelete(ctx, user, note.id)),
    );
    expect(await vocabularyOf(user)).toEqual({});
  });

  it('keeps a word that a note adds while another note, its last, is deleted', async () => {
    const user = randomUUID();
    const last = await noteCreate(ctx, user, { title: 'Walrus', note: 'one walrus' });
    // The delete takes the word's row (dropping it to no notes) and holds it...
    const deleting = await db.knex.transaction();
    await notesRepository.remove(deleting, user, last.id);
    // ...while another save adds the word: it waits for the delete to end.
    const adding = noteCreate(ctx, user, { title: 'Again', note: 'another walrus' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await deleting.commit();
    await adding;
    expect(await vocabularyOf(user)).toEqual({ again: 1, another: 1, walrus: 1 });
  });

  it('reads the candidates through the indexes of the vocabulary', async () => {
    const user = randomUUID();
    // A vocabulary large enough for the planner to prefer its indexes, beside other users'.
    for (const owner of [user, randomUUID(), randomUUID()]) {
      await db.knex.raw(
        `insert into note_words (user_id, word, notes)
         select ?, md5(n::text || ?), 1 from generate_series(1, 5000) as n`,
        [owner, owner],
      );
    }
    await db.knex.raw('analyze note_words');
    for (const word of ['elephnat', 'restuarnat']) {
      const typos = word.length >= 9 ? 2 : 1;
      const probes = [{ word, prefix: true, near: nearWords(word, typos) }];
      const { rows } = await db.knex.raw<{ rows: { 'QUERY PLAN': string }[] }>('explain ?', [
        vocabularyQuery(db.knex, user, probes),
      ]);
      const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(plan, plan).not.toMatch(/Seq Scan/);
      expect(plan).toMatch(/note_words_pkey/);
      expect(plan).toMatch(/note_words_reversed/);
      if (typos === 2) expect(plan).toMatch(/note_words_from_fifth/);
    }
  });
});
