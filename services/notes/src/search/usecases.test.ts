import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openTestNotesDatabase } from '../test/context.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NoteListQuery, type SearchPage } from '@noted/api';
import { createUnitOfWork, type Database } from '@noted/db';
import { notesRepository } from '../notes/repository.js';
import type { NotesContext } from '../context.js';
import { noteDelete } from '../notes/usecases.js';
import { noteCreate, notePage, noteUpdate } from '../test/validated.js';
import { searchTerms } from './query.js';
import { searchRepository, type SearchTuning } from './repository.js';
import { typoCorrections } from './usecases.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'noted-search-'));
let db: Database;
let ctx: NotesContext;

const quota: NotesContext['quota'] = {
  consume: async () => async () => {},
  refund: async () => {},
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
  db = await openTestNotesDatabase(dataDir);
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

  it('finds the notes with the word a typo stands for, and marks that word', async () => {
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
    // The body as a reader sees it: an HTML tag in Markdown is not shown, its text is.
    expect(note).toBe(
      'Before alert(&quot;<mark>meeting</mark>&quot;) after, and a <mark>meeting</mark> later.',
    );
    expect(note.replaceAll('<mark>', '').replaceAll('</mark>', '')).not.toMatch(/[<>]/);
    expect(hit?.note).toBe('Before <script>alert("meeting")</script> after, and a meeting later.');
  });

  it('shows the body as plain text from the sentence with the first match', async () => {
    const user = randomUUID();
    await insert(user, {
      title: 'Weekend',
      body:
        '# Saturday\n\nWe slept in. Then the **farmers market** for [[Groceries]].\n\n' +
        '- [ ] buy `oat milk` at the [market](https://example.com/market)\n- [x] bread',
    });
    const [hit] = (await search(user, { search: 'market' })).items;
    expect(hit?.highlights?.note).toBe(
      'Then the farmers <mark>market</mark> for Groceries. buy oat milk at the <mark>market</mark> · bread',
    );
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

  describe('with typos', () => {
    const hits = async (user: string, text: string) => titles(await search(user, { search: text }));

    it('finds an elephant by elephnat, and receive by recieve', async () => {
      const user = randomUUID();
      await insert(user, { title: 'Zoo', body: 'We saw an elephant and its calf' });
      await insert(user, { title: 'Post', body: 'I did not receive the parcel' });
      await insert(user, { title: 'Other', body: 'nothing alike' });
      expect(await hits(user, 'elephnat')).toEqual(['Zoo']);
      expect(await hits(user, 'recieve')).toEqual(['Post']);
      expect(await hits(user, 'recieve parcel')).toEqual(['Post']);
      // Upper case, and in the middle of a search.
      expect(await hits(user, 'Elephnat calf')).toEqual(['Zoo']);
      const [zoo] = (await search(user, { search: 'elephnat' })).items;
      expect(zoo?.highlights?.note).toContain('<mark>elephant</mark>');
    });

    it('allows no typo in a word under 5 letters, one in 5 to 8, two from 9', async () => {
      const user = randomUUID();
      await insert(user, { title: 'Fruit', body: 'kiwi and mango' });
      await insert(user, { title: 'Food', body: 'a restaurant by the elephant house' });
      expect(await hits(user, 'kiwu')).toEqual([]);
      expect(await hits(user, 'kiwi')).toEqual(['Fruit']);
      expect(await hits(user, 'mangp')).toEqual(['Fruit']);
      // Two swaps in a 10-letter word, and in an 8-letter one.
      expect(await hits(user, 'restuarnat')).toEqual(['Food']);
      expect(await hits(user, 'elpehnat')).toEqual([]);
      // Three typos are too many for any word.
      expect(await hits(user, 'resturnat')).toEqual(['Food']);
      expect(await hits(user, 'rsturnat')).toEqual([]);
    });

    it('ranks notes with the word as searched above notes found through a typo', async () => {
      // A word is corrected only when no note has it, so notes with the word as searched and
      // notes found through a typo meet with "or". The note found through a typo is newer and
      // has the word in its title, which alone would rank it first.
      const user = randomUUID();
      await insert(user, { title: 'Zoo', body: 'a giraffe' });
      await insert(user, { title: 'Elephant', body: 'grey' });
      expect(await hits(user, 'elephnat or giraffe')).toEqual(['Zoo', 'Elephant']);
      expect(await hits(user, 'giraffe or elephnat')).toEqual(['Zoo', 'Elephant']);
      // Fewer typos first: "elephants" is one typo away, the newer "elephant" two.
      const herd = randomUUID();
      await insert(herd, { title: 'Elephants', body: 'a herd' });
      await insert(herd, { title: 'Elephant', body: 'one' });
      expect(await hits(herd, 'elephnats')).toEqual(['Elephants', 'Elephant']);
      expect(await hits(herd, 'elephnat')).toEqual(['Elephant']);
    });

    it('does not correct a word the user has, or one being typed that begins a word of theirs', async () => {
      const user = randomUUID();
      await insert(user, { title: 'Typo', body: 'the elephnat in the room' });
      await insert(user, { title: 'Animal', body: 'an elephant' });
      expect(await hits(user, 'elephnat')).toEqual(['Typo']);
      expect(await hits(user, 'eleph')).toEqual(['Animal', 'Typo']);
      // "meeti" begins "meetings": it is not taken for a typo of "meets".
      await insert(user, { title: 'Meetings', body: 'meetings' });
      await insert(user, { title: 'Meets', body: 'meets' });
      expect(await hits(user, 'meeti')).toEqual(['Meetings']);
      expect(await hits(user, 'meetz')).toEqual(['Meets']);
    });

    it('corrects inside phrases, but never an excluded word', async () => {
      const user = randomUUID();
      await insert(user, { title: 'Circus', body: 'the big elephant show' });
      await insert(user, { title: 'Safari', body: 'an elephant herd' });
      expect(await hits(user, '"big elephnat"')).toEqual(['Circus']);
      expect(await hits(user, 'elephnat -show')).toEqual(['Safari']);
      expect(await hits(user, 'elephant -elephnat')).toEqual(['Safari', 'Circus']);
    });

    it("never suggests another user's words", async () => {
      const ada = randomUUID();
      const bob = randomUUID();
      await insert(ada, { title: 'Ada', body: 'elephant' });
      await insert(bob, { title: 'Bob', body: 'giraffe' });
      expect(await hits(bob, 'elephnat')).toEqual([]);
      expect(await typoCorrections(ctx, bob, searchTerms('elephnat'))).toEqual([]);
      expect(await typoCorrections(ctx, ada, searchTerms('elephnat'))).toEqual([
        { word: 'elephnat', prefix: true, alike: [{ word: 'elephant', typos: 1 }] },
      ]);
    });

    it('leaves Chinese and numbers as they are', async () => {
      const user = randomUUID();
      await insert(user, { title: '会议记录', body: '项目会议 20261125' });
      expect(await hits(user, '会议')).toEqual(['会议记录']);
      expect(await typoCorrections(ctx, user, searchTerms('会议记灵'))).toEqual([]);
      expect(await hits(user, '会议记灵')).toEqual([]);
      expect(await hits(user, '20261126')).toEqual([]);
    });

    it('follows the notes as they are edited and deleted', async () => {
      const user = randomUUID();
      const note = await noteCreate(ctx, user, { title: 'Animals', note: 'an elephant' });
      expect(await hits(user, 'elephnat')).toEqual(['Animals']);
      await noteUpdate(ctx, user, note.id, { note: 'a giraffe' });
      expect(await hits(user, 'elephnat')).toEqual([]);
      expect(await hits(user, 'girafe')).toEqual(['Animals']);
      await noteDelete(ctx, user, note.id);
      expect(await typoCorrections(ctx, user, searchTerms('girafe'))).toEqual([]);
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
