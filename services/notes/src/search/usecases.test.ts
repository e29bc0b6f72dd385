import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NoteListQuery, type SearchPage } from '@noted/api';
import { createUnitOfWork, openDatabase, type Database } from '@noted/db';
import { createLogger } from '@noted/kit';
import { notesMigrations } from '../migrations.js';
import { notesRepository } from '../notes/repository.js';
import type { NotesContext } from '../context.js';
import { notePage } from '../test/validated.js';
import { searchTerms } from './query.js';
import { searchRepository, type SearchTuning } from './repository.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'noted-search-'));
let db: Database;
let ctx: NotesContext;

const quota: NotesContext['quota'] = {
  consume: () => Promise.reject(new Error('notes are inserted directly here')),
  recordingLimit: async () => 60,
  close: () => undefined,
};

let clock = Date.parse('2026-01-01T00:00:00Z');

/** Each note a second newer than the one before: PGlite's clock can give two the same time. */
const insert = async (userId: string, note: { title: string; body?: string; tags?: string[] }) => {
  const row = await notesRepository.insert(db.knex, {
    id: randomUUID(),
    user_id: userId,
    title: note.title,
    body: note.body ?? '',
    tags: note.tags ?? [],
  });
  clock += 1000;
  await db
    .knex('notes')
    .where({ id: row.id })
    .update({ created_at: new Date(clock) });
  return row;
};

const search = async (userId: string, query: Record<string, string>) =>
  (await notePage(ctx, userId, query)) as SearchPage;
const titles = (page: SearchPage) => page.items.map((item) => item.title);

beforeAll(async () => {
  db = await openDatabase({
    dataDir,
    schema: 'notes',
    migrations: notesMigrations,
    logger: createLogger({ level: 'silent' }),
  });
  await db.migrate();
  ctx = { knex: db.knex, unitOfWork: createUnitOfWork(db.knex, () => {}), quota };
});

afterAll(async () => {
  await db?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('searching notes', () => {
  it('ranks a title match above a tag match above a body match, whatever their age', async () => {
    const user = randomUUID();
    await insert(user, { title: 'Roadmap', body: 'What comes next' });
    await insert(user, { title: 'Plans', tags: ['roadmap'] });
    await insert(user, { title: 'Friday', body: 'We talked about the roadmap at length' });
    const page = await search(user, { search: 'roadmap' });
    expect(titles(page)).toEqual(['Roadmap', 'Plans', 'Friday']);
    expect(page.total).toBe(3);
  });

  it('breaks ties newest first', async () => {
    const user = randomUUID();
    await insert(user, { title: 'Older kiwi' });
    await insert(user, { title: 'Newer kiwi' });
    expect(titles(await search(user, { search: 'kiwi' }))).toEqual(['Newer kiwi', 'Older kiwi']);
  });

  it('matches the last word as a prefix while it is being typed', async () => {
    const user = randomUUID();
    await insert(user, { title: 'Team meeting' });
    await insert(user, { title: 'Meet the new team' });
    await insert(user, { title: 'Lunch' });
    expect(titles(await search(user, { search: 'meet' }))).toHaveLength(2);
    expect(titles(await search(user, { search: 'team meeti' }))).toEqual(['Team meeting']);
    expect(titles(await search(user, { search: 'lunch or meeti' })).sort()).toEqual([
      'Lunch',
      'Team meeting',
    ]);
  });

  it('understands phrases, or and exclusions', async () => {
    const user = randomUUID();
    await insert(user, { title: 'Team meeting', body: 'budget talk' });
    await insert(user, { title: 'Meeting of the team' });
    await insert(user, { title: 'Garden' });
    expect(titles(await search(user, { search: '"team meeting"' }))).toEqual(['Team meeting']);
    expect(titles(await search(user, { search: 'meeting -budget' }))).toEqual([
      'Meeting of the team',
    ]);
    expect(titles(await search(user, { search: '"team meeting" or garden' }))).toEqual(
      expect.arrayContaining(['Team meeting', 'Garden']),
    );
    expect((await search(user, { search: 'meeting -budget -team' })).total).toBe(0);
  });

  it('falls back to notes with a similar word when nothing matches a typo', async () => {
    const user = randomUUID();
    await insert(user, { title: 'Team meeting', body: 'agenda' });
    await insert(user, { title: 'Groceries', body: 'milk and eggs' });
    await insert(user, { title: 'Ideas', body: 'notes from the quarterly meeting' });
    const page = await search(user, { search: 'meetng' });
    expect(titles(page)).toEqual(['Team meeting', 'Ideas']);
    expect(page.total).toBe(2);
    // Found through the word it stands for, which is what is marked.
    expect(page.items[0]?.highlights).toEqual({ title: 'Team <mark>meeting</mark>' });
    expect(titles(await search(user, { search: 'meetng -agenda' }))).toEqual(['Ideas']);
    expect((await search(user, { search: 'xylophone' })).total).toBe(0);
  });

  it('highlights matches in title and body as escaped HTML with only <mark> tags', async () => {
    const user = randomUUID();
    await insert(user, {
      title: 'Alert <b>meeting</b> & "more"',
      body: 'Before <script>alert("meeting")</script> after, and a meeting later.',
    });
    const [hit] = (await search(user, { search: 'meeting' })).items;
    expect(hit?.highlights?.title).toBe(
      'Alert &lt;b&gt;<mark>meeting</mark>&lt;/b&gt; &amp; &quot;more&quot;',
    );
    const note = hit?.highlights?.note ?? '';
    expect(note).toContain('<mark>meeting</mark>');
    expect(note).toContain('&lt;script&gt;');
    expect(note.replaceAll('<mark>', '').replaceAll('</mark>', '')).not.toMatch(/[<>]/);
    expect(hit?.note).toBe('Before <script>alert("meeting")</script> after, and a meeting later.');
  });

  it('leaves out a highlight of a part with no match', async () => {
    const user = randomUUID();
    await insert(user, { title: 'Plans', body: 'Nothing here', tags: ['roadmap'] });
    await insert(user, { title: 'Roadmap', body: 'Nothing here' });
    const page = await search(user, { search: 'roadmap' });
    expect(page.items.map((item) => item.highlights)).toEqual([
      { title: '<mark>Roadmap</mark>' },
      {},
    ]);
  });

  it('applies the list filters and pages through the matches with their total', async () => {
    const user = randomUUID();
    for (let i = 0; i < 5; i++) await insert(user, { title: `Recipe ${i}`, tags: ['food'] });
    await insert(user, { title: 'Recipe for a tool', tags: ['work'] });
    const first = await search(user, { search: 'recipe', tag: 'food', limit: '2' });
    expect(first.total).toBe(5);
    expect(titles(first)).toEqual(['Recipe 4', 'Recipe 3']);
    const last = await search(user, { search: 'recipe', tag: 'food', limit: '2', page: '3' });
    expect(titles(last)).toEqual(['Recipe 0']);
    expect(last.total).toBe(5);
    const past = await search(user, { search: 'recipe', tag: 'food', limit: '2', page: '4' });
    expect(past).toMatchObject({ items: [], total: 5 });
  });

  describe('a word most notes have', () => {
    // Small numbers standing in for 200 ranked matches out of a sample of 500 newest notes.
    const tuning: SearchTuning = { ranked: 3, sample: 5, commonShare: 0.4 };
    const fullText = (userId: string, text: string, page: number, limit = 2, filter = {}) =>
      searchRepository.fullText(db.knex, userId, {
        terms: searchTerms(text),
        page,
        limit,
        pinnedFirst: false,
        filter,
        tuning,
      });
    /** Every page of a search, until an empty one. */
    const allPages = async (userId: string, text: string) => {
      const seen: string[] = [];
      for (let page = 1; page < 20; page++) {
        const { rows } = await fullText(userId, text, page);
        if (rows.length === 0) break;
        seen.push(...rows.map((row) => row.title));
      }
      return seen;
    };

    it('ranks the newest matches, then gives the older ones newest first, each once', async () => {
      const user = randomUUID();
      await insert(user, { title: 'Apple pie', body: 'the oldest, with apple in its title' });
      for (let i = 1; i <= 8; i++) await insert(user, { title: `Note ${i}`, body: `apple ${i}` });
      await insert(user, { title: 'Pear', body: 'no match' });
      await insert(user, { title: 'Apple crumble', body: 'newer, apple in the title' });

      const first = await fullText(user, 'apple', 1);
      expect(first.totalExact).toBe(false);
      expect(first.total).toBe(3);
      // The newest three matches are ranked: the title match first.
      expect(first.rows.map((row) => row.title)).toEqual(['Apple crumble', 'Note 8']);
      expect(first.rows[0]?.title_highlight).toBe('<mark>Apple</mark> crumble');

      const pages = await allPages(user, 'apple');
      expect(pages).toEqual([
        'Apple crumble',
        'Note 8',
        'Note 7',
        'Note 6',
        'Note 5',
        'Note 4',
        'Note 3',
        'Note 2',
        'Note 1',
        'Apple pie',
      ]);
      const last = await fullText(user, 'apple', 5);
      expect(last).toMatchObject({ total: 10, totalExact: false });
    });

    it('ranks every match of a word the newest notes have but older ones lack', async () => {
      const user = randomUUID();
      await insert(user, { title: 'Old plum', body: 'plum' });
      for (let i = 0; i < 30; i++) await insert(user, { title: `Filler ${i}`, body: 'nothing' });
      for (let i = 0; i < 2; i++) await insert(user, { title: `Plum ${i}`, body: 'plum jam' });
      // Two of the five newest have it, but the scan for three ranked matches finds only two.
      const page = await fullText(user, 'plum', 1, 10);
      expect(page).toMatchObject({ total: 3, totalExact: true });
      expect(page.rows.map((row) => row.title)).toEqual(['Plum 1', 'Plum 0', 'Old plum']);
    });

    it('counts a rare word exactly and applies the filters', async () => {
      const user = randomUUID();
      for (let i = 0; i < 8; i++) {
        await insert(user, { title: `Daily ${i}`, body: 'walk', tags: i % 2 ? ['odd'] : [] });
      }
      await insert(user, { title: 'Quince', body: 'walk' });
      expect(await fullText(user, 'quince', 1)).toMatchObject({ total: 1, totalExact: true });
      const odd = await fullText(user, 'walk', 1, 10, { tag: 'odd' });
      // Fewer notes have the tag than the sample holds: all of them are ranked and counted.
      expect(odd.rows.map((row) => row.title)).toEqual([
        'Daily 7',
        'Daily 5',
        'Daily 3',
        'Daily 1',
      ]);
      expect(odd).toMatchObject({ total: 4, totalExact: true });
      expect(await fullText(user, 'walk', 1)).toMatchObject({ total: 3, totalExact: false });
      expect(await allPages(user, 'walk')).toHaveLength(9);
    });
  });

  it("never finds another user's notes, by words or by similarity", async () => {
    const ada = randomUUID();
    const bob = randomUUID();
    await insert(ada, { title: 'Secret meeting', body: 'shared words' });
    await insert(bob, { title: 'Public meeting', body: 'shared words' });
    for (const text of ['meeting', 'shared words', 'meetng', 'secret']) {
      const page = await search(bob, { search: text });
      expect(titles(page), text).not.toContain('Secret meeting');
    }
    expect((await search(bob, { search: 'secret' })).total).toBe(0);
  });

  it('treats an empty or blank search as no search', async () => {
    const user = randomUUID();
    await insert(user, { title: 'One' });
    await insert(user, { title: 'Two' });
    expect(NoteListQuery.parse({ search: '   ' }).search).toBeUndefined();
    for (const text of ['', '   ']) {
      const page = await search(user, { search: text });
      expect(titles(page)).toEqual(['Two', 'One']);
      expect(page.items[0]).not.toHaveProperty('highlights');
    }
  });

  it('saves and searches a note of a million characters of distinct words', async () => {
    const user = randomUUID();
    const words: string[] = [];
    for (let i = 0, size = 0; size < 1_000_000; i++) {
      words.push(`w${i.toString(36)}`);
      size += (words.at(-1)?.length ?? 0) + 1;
    }
    await insert(user, { title: 'Big', body: words.join(' ').slice(0, 1_000_000) });
    expect(titles(await search(user, { search: 'w1a' }))).toEqual(['Big']);
  });

  it('refuses a search longer than 200 characters', async () => {
    await expect(notePage(ctx, randomUUID(), { search: 'a'.repeat(201) })).rejects.toThrow(
      /at most 200/,
    );
  });
});
