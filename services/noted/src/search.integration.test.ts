import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, Note, SearchPage } from '@noted/api';
import { getTestApp, json, type TestApp, infraLabel } from './test/app.js';

describe(`notes: search (${infraLabel})`, () => {
  let app: TestApp;
  let ada: string;
  let bob: string;
  // Words unique to this run, so a shared Postgres database from earlier runs cannot interfere.
  const run = randomUUID().replaceAll('-', '').slice(0, 8);
  const word = (name: string) => `${name}${run}`;
  const create = async (token: string, note: { title: string; note?: string; tags?: string[] }) =>
    json<Note>(app.api(token, 'POST', '/api/note/create/direct', note));
  const search = async (token: string, query: Record<string, string>) =>
    json<SearchPage>(app.api(token, 'GET', `/api/notes?${new URLSearchParams(query)}`));
  const titles = (page: SearchPage) => page.items.map((item) => item.title);

  beforeAll(async () => {
    app = await getTestApp();
    ada = await app.tokenFor(`ada-${randomUUID()}@example.com`);
    bob = await app.tokenFor(`bob-${randomUUID()}@example.com`);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  it('ranks title above tag above body, completes the last word, and highlights safely', async () => {
    const topic = word('roadmap');
    await create(ada, { title: `The ${topic}`, note: 'What comes next' });
    await create(ada, { title: 'Plans', tags: [topic] });
    await create(ada, {
      title: 'Friday',
      note: `Before <script>alert(1)</script> we went through the ${topic} together: 2 < 3 & "so on".`,
    });
    const page = await search(ada, { search: topic.slice(0, -2) });
    expect(page.total).toBe(3);
    expect(titles(page)).toEqual([`The ${topic}`, 'Plans', 'Friday']);
    expect(page.items[0]?.highlights).toEqual({ title: `The <mark>${topic}</mark>` });
    expect(page.items[1]?.highlights).toEqual({});
    const note = page.items[2]?.highlights?.note ?? '';
    expect(note).toContain(`<mark>${topic}</mark>`);
    // The snippet is the note as a reader sees it: no tags, and its text HTML-escaped.
    expect(note).not.toContain('script');
    expect(note).toContain('2 &lt; 3 &amp; &quot;so on&quot;');
    expect(note.replaceAll('<mark>', '').replaceAll('</mark>', '')).not.toMatch(/[<>]/);
  });

  it('understands phrases and exclusions', async () => {
    const a = word('alpha');
    const b = word('beta');
    await create(ada, { title: `${a} ${b}` });
    await create(ada, { title: `${b} ${a}`, note: 'draft' });
    expect(titles(await search(ada, { search: `"${a} ${b}"` }))).toEqual([`${a} ${b}`]);
    expect(titles(await search(ada, { search: `${a} -draft` }))).toEqual([`${a} ${b}`]);
  });

  it('finds a note despite a typo when nothing matches exactly', async () => {
    await create(ada, { title: `Quarterly meeting ${run}` });
    const page = await search(ada, { search: `meetng ${run}` });
    expect(titles(page)).toContain(`Quarterly meeting ${run}`);
    expect(page.items.every((item) => item.highlights !== undefined)).toBe(true);
  });

  it('combines with the tag filter and pages with the total of matches', async () => {
    const dish = word('recipe');
    for (let i = 0; i < 3; i++) await create(ada, { title: `${dish} ${i}`, tags: ['food'] });
    await create(ada, { title: `${dish} for glue`, tags: ['work'] });
    const first = await search(ada, { search: dish, tag: 'food', limit: '2' });
    expect(first).toMatchObject({ total: 3, page: 1, limit: 2 });
    const second = await search(ada, { search: dish, tag: 'food', limit: '2', page: '2' });
    expect(second).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect([...titles(first), ...titles(second)].sort()).toEqual(
      [0, 1, 2].map((i) => `${dish} ${i}`),
    );
  });

  it("never answers with another user's notes, though they share words", async () => {
    const shared = word('project');
    const adas = await create(ada, { title: `Ada's ${shared}`, note: 'secret plans' });
    const bobs = await create(bob, { title: `Bob's ${shared}`, note: 'open plans' });
    for (const text of [shared, `"${shared}"`, `${shared} plans`, `${shared.slice(0, -1)}x`]) {
      const page = await search(bob, { search: text });
      expect(
        page.items.map((item) => item.id),
        text,
      ).not.toContain(adas.id);
      expect(
        page.items.map((item) => item.id),
        text,
      ).toContain(bobs.id);
    }
    const secret = await search(bob, { search: `secret ${shared}` });
    expect(secret.items.map((item) => item.id)).not.toContain(adas.id);
  });

  it('treats a blank search as no search, and refuses one over 200 characters', async () => {
    const carol = await app.tokenFor(`carol-${randomUUID()}@example.com`);
    await create(carol, { title: 'First' });
    await create(carol, { title: 'Second' });
    const blank = await search(carol, { search: '   ' });
    expect(titles(blank)).toEqual(['Second', 'First']);
    expect(blank.items[0]).not.toHaveProperty('highlights');
    const tooLong = await app.api(carol, 'GET', `/api/notes?search=${'a'.repeat(201)}`);
    expect(tooLong.status).toBe(400);
    expect((await json<ErrorBody>(tooLong)).error.code).toBe('VALIDATION_FAILED');
  });
});
