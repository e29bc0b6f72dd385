/**
 * The typo tolerance benchmark: 10,000 notes of one user (paragraphs of the retrieval corpus,
 * plus a few made-up names and codes per note, as real notes have, for a vocabulary of tens of
 * thousands of words), written through the notes repository so the triggers keep the
 * vocabulary; then searches with and without a typo, through the search use-case, and the plan
 * of the vocabulary lookup.
 *
 *   npm run bench:typos                                   # PGlite, the embedded default
 *   BENCH_DATABASE_URL=postgres://... npm run bench:typos # real Postgres (a fresh schema)
 *
 * BENCH_NOTES sets the number of notes (10000), BENCH_RUNS the runs of each search (40).
 * Figures, not assertions. The baseline of writing is notes written with the vocabulary's
 * triggers disabled; of searching, a search with no word long enough to look up.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NoteListQuery } from '@noted/api';
import { createUnitOfWork, openDatabase } from '@noted/db';
import { createLogger } from '@noted/kit';
import { corpusNotes } from '../../services/ai/src/test/retrieval-corpus.js';
import type { NotesContext } from '../../services/notes/src/context.js';
import { notesMigrations } from '../../services/notes/src/migrations.js';
import { notesRepository } from '../../services/notes/src/notes/repository.js';
import { searchTerms } from '../../services/notes/src/search/query.js';
import { vocabularyQuery } from '../../services/notes/src/search/repository.js';
import { notesSearch, typoCorrections } from '../../services/notes/src/search/usecases.js';
import { allowedTypos, nearWords } from '../../services/notes/src/search/typos.js';

const noteCount = Number(process.env.BENCH_NOTES ?? 10_000);
const runs = Number(process.env.BENCH_RUNS ?? 40);
const databaseUrl = process.env.BENCH_DATABASE_URL;

/** A small deterministic generator (mulberry32), so every run writes the same notes. */
const random = (() => {
  let seed = 42;
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
})();
const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;

const paragraphs = corpusNotes.flatMap((note) =>
  note.body.split(/\n\s*\n/).filter((part) => part.trim().length > 40),
);
const syllables = (
  'ka lo mi ra ten vos bri dal ek fu gan hol is jor kem lun mar nes or pil ' +
  'sa ti bo rum ve qua zen dor lis cha pe nu gor wil tha bex oon fra lin ust'
).split(' ');
/** Made-up words of 2 to 4 syllables: names, places, codes. */
const madeUp = [
  ...new Set(
    Array.from({ length: 60_000 }, () =>
      Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(syllables)).join(''),
    ),
  ),
];
/** Rank r with a chance of about 1/r: a few made-up words are common, most are rare. */
const zipf = <T>(items: T[]) => items[Math.floor(items.length ** random()) - 1] as T;
/** Other users whose vocabularies share the table (copies of this one's). */
const otherUsers = Number(process.env.BENCH_OTHER_USERS ?? 20);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const ms = (value: number) => value.toFixed(2);

const note = (userId: string, n: number) => {
  const source = pick(corpusNotes);
  const body = [
    ...Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(paragraphs)),
    [
      ...Array.from({ length: 2 + Math.floor(random() * 3) }, () => zipf(madeUp)),
      ...Array.from({ length: 3 }, () => pick(madeUp)),
    ].join(' '),
    // Words the searches look for: rare, fairly common, and in most notes.
    ...(n % 97 === 0 ? ['The elephant at the zoo.'] : []),
    ...(n % 13 === 0 ? ['Booked the restaurant.'] : []),
    ...(n % 2 === 0 ? ['Notes from the meeting.'] : []),
  ].join('\n\n');
  return {
    id: randomUUID(),
    user_id: userId,
    title: `${source.title} ${n}`,
    body,
    tags: source.tags,
  };
};

const main = async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'noted-bench-typos-'));
  const schema = databaseUrl ? `typos_bench_${randomUUID().slice(0, 8)}` : 'notes';
  const db = await openDatabase({
    url: databaseUrl,
    dataDir,
    schema,
    migrations: notesMigrations,
    logger: createLogger({ level: 'silent' }),
  });
  await db.migrate();
  const { knex } = db;
  const ctx: NotesContext = {
    knex,
    unitOfWork: createUnitOfWork(knex, () => {}),
    quota: {
      consume: async () => async () => {},
      refund: async () => {},
      recordingLimit: async () => 60,
      close: () => {},
    },
  };
  const userId = randomUUID();
  console.log(`${noteCount} notes of one user, ${databaseUrl ? 'Postgres' : 'PGlite (embedded)'}`);

  // The notes, one insert each as the app writes them, the triggers keeping the vocabulary.
  const seedStarted = performance.now();
  for (let n = 0; n < noteCount; n++) await notesRepository.insert(knex, note(userId, n));
  const seedMs = (performance.now() - seedStarted) / noteCount;
  // The cost of the triggers, warm: notes of two more users, in turns of 50 notes with the
  // triggers and 50 without (that user's vocabulary is left unmade; nobody searches it).
  const triggers = ['note_words_insert', 'note_words_update', 'note_words_delete'];
  const writeMs = { with: [] as number[], without: [] as number[] };
  const [withUser, withoutUser] = [randomUUID(), randomUUID()];
  for (let turn = 0; turn < 10; turn++) {
    for (const side of ['with', 'without'] as const) {
      const action = side === 'with' ? 'enable' : 'disable';
      for (const name of triggers) await knex.raw(`alter table notes ${action} trigger ${name}`);
      for (let n = 0; n < 50; n++) {
        const started = performance.now();
        await notesRepository.insert(knex, note(side === 'with' ? withUser : withoutUser, n));
        writeMs[side].push(performance.now() - started);
      }
    }
  }
  for (const name of triggers) await knex.raw(`alter table notes enable trigger ${name}`);
  // The table holds every user's words: other users' copies, so the plan is the one of a
  // shared table.
  for (let other = 0; other < otherUsers; other++) {
    await knex.raw(
      `insert into note_words (user_id, word, notes)
       select ?, word, notes from note_words where user_id = ?`,
      [randomUUID(), userId],
    );
  }
  // As autovacuum leaves them: statistics, and pages all-visible for index-only scans.
  await knex.raw('vacuum analyze notes');
  await knex.raw('vacuum analyze note_words');
  const [{ count: words } = { count: 0 }] = await knex('note_words')
    .where({ user_id: userId })
    .count<{ count: string }[]>({ count: '*' });
  console.log(
    `vocabulary: ${words} words (the table: ${otherUsers} other users' as many); ` +
      `seeded at ${ms(seedMs)} ms a note\n` +
      `write a note (p50): ${ms(percentile(writeMs.without, 50))} ms without the vocabulary's ` +
      `triggers, ${ms(percentile(writeMs.with, 50))} ms with them`,
  );

  const searches: [string, string][] = [
    ['short word, no lookup', 'zoo'],
    ['rare word', 'elephant'],
    ['rare word, 1 typo', 'elephnat'],
    ['fairly common word', 'restaurant'],
    ['fairly common word, 2 typos', 'restuarnat'],
    ['word in half the notes', 'meeting'],
    ['word in half the notes, 1 typo', 'meetign'],
    ['two words', 'elephant meeting'],
    ['two words, 2 typos', 'elephnat meetign'],
    ['no match', 'xylophonic'],
  ];
  console.log(
    '\nsearch (first page of 20)                p50 ms   p95 ms   of which typo lookup p50   found',
  );
  // In turns, every search once a turn, so that a slower moment of the machine falls on all.
  const totals = searches.map((): number[] => []);
  const lookups = searches.map((): number[] => []);
  const found = searches.map(() => 0);
  for (let run = 0; run < runs + 3; run++) {
    for (const [index, [, text]] of searches.entries()) {
      const query = { ...NoteListQuery.parse({ search: text }), search: text };
      const started = performance.now();
      const result = await notesSearch(ctx, userId, query);
      const elapsed = performance.now() - started;
      const lookupStarted = performance.now();
      await typoCorrections(ctx, userId, searchTerms(text));
      const lookup = performance.now() - lookupStarted;
      // The first turns warm the caches.
      if (run >= 3) {
        totals[index]?.push(elapsed);
        lookups[index]?.push(lookup);
      }
      found[index] = result.total;
    }
  }
  for (const [index, [label, text]] of searches.entries()) {
    console.log(
      `${`${label} (${text})`.padEnd(41)}${ms(percentile(totals[index] ?? [], 50)).padStart(7)}  ` +
        `${ms(percentile(totals[index] ?? [], 95)).padStart(7)}  ` +
        `${ms(percentile(lookups[index] ?? [], 50)).padStart(25)}  ${String(found[index]).padStart(6)}`,
    );
  }

  console.log('\nplan of the vocabulary lookup:');
  for (const word of ['elephnat', 'restuarnat']) {
    const typos = allowedTypos(word);
    if (typos === 0) continue;
    const plan = await knex.raw<{ rows: Record<string, string>[] }>(
      'explain (analyze, costs off, timing on) ?',
      [vocabularyQuery(knex, userId, [{ word, prefix: true, near: nearWords(word, typos) }])],
    );
    console.log(`-- ${word}`);
    // The scans and the times: which index reads how many rows.
    for (const row of plan.rows) {
      const line = String(Object.values(row)[0]);
      if (/Scan|Planning|Execution/.test(line)) console.log(`   ${line.trim()}`);
    }
  }

  if (databaseUrl) await knex.raw('drop schema ?? cascade', [schema]);
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
};

await main();
