import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApiClient,
  type ImportProgress,
  type Note,
  type NoteLinks,
  type SearchPage,
  type UserUsage,
} from '@noted/api';
import { zipOf } from '@noted/testing';
import { getTestApp, infraLabel, json, type TestApp } from './test/app.js';

/** The month's allowance of every user of this suite. */
const NOTES_PER_MONTH = 10;

describe(`importing Markdown and Notion exports through the gateway (${infraLabel})`, () => {
  let app: TestApp;
  let png: Buffer;

  /** Three Markdown notes linking each other, with front matter, #tags and an image. */
  const vault = () =>
    zipOf([
      {
        name: 'vault/Kyoto trip.md',
        data: [
          '---',
          'title: Kyoto trip',
          'tags: [travel]',
          'created: 2024-03-01T09:30:00Z',
          '---',
          'Temples first, then see [[Packing list]] and [the budget](money/Budget.md). #japan',
          '',
          '![the map](images/map.png)',
          '',
        ].join('\n'),
      },
      { name: 'vault/Packing list.md', data: '# Packing list\n\n- [ ] passport #todo\n' },
      {
        name: 'vault/money/Budget.md',
        data: '---\ntags: money\n---\n# Budget\n\nFor the [[Kyoto trip]].\n',
      },
      { name: 'vault/images/map.png', data: png },
    ]);

  /** A Notion "Markdown & CSV" export of two pages, the second nested in the first. */
  const notionExport = () => {
    const root = 'Export-7f1c0a52-3e1b-4c55-9f0e-2b8f4c1d6e3a';
    const home = 'Home 1f2e3d4c5b6a79880716253443526170';
    const plan = 'Project Plan a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5';
    return zipOf([
      {
        name: `${root}/${home}.md`,
        data: `# Home\n\nThe plan is in [Project Plan](${encodeURIComponent(home)}/${encodeURIComponent(plan)}.md).\n`,
      },
      {
        name: `${root}/${home}/${plan}.md`,
        data: `# Project Plan\n\nBack to [Home](../${encodeURIComponent(home)}.md). #planning\n`,
      },
    ]);
  };

  const clientFor = (token: string) =>
    createApiClient({ baseUrl: app.url, getToken: async () => token });

  const importZip = async (token: string, zip: Buffer, fileName = 'vault.zip') => {
    const progress: ImportProgress[] = [];
    const result = await clientFor(token).imports.file(new Blob([new Uint8Array(zip)]), {
      fileName,
      onProgress: (p) => progress.push(p),
    });
    return { result, progress };
  };

  const refusal = async (token: string, data: Uint8Array, fileName: string) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)]), fileName);
    const answer = await fetch(`${app.url}/export/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    return {
      status: answer.status,
      error: (await json<{ error: { code: string; message: string; details?: unknown } }>(answer))
        .error,
    };
  };

  const notesOf = async (token: string) =>
    json<SearchPage>(app.api(token, 'GET', '/api/notes?limit=100'));
  const usageOf = async (token: string) => json<UserUsage>(app.api(token, 'GET', '/user/usage'));

  beforeAll(async () => {
    app = await getTestApp({
      env: {
        FREE_NOTES_PER_MONTH: String(NOTES_PER_MONTH),
        GATEWAY_RATE_LIMIT_PER_USER: '0',
      },
    });
    png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#d53a3a' } })
      .png()
      .toBuffer();
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  describe('a zip of Markdown notes', () => {
    let ada: string;
    let first: Awaited<ReturnType<typeof importZip>>;
    let byTitle: Map<string, Note>;

    beforeAll(async () => {
      ada = await app.tokenFor(`ada-${randomUUID()}@example.com`);
      first = await importZip(ada, await vault());
      const { items } = await notesOf(ada);
      byTitle = new Map(items.map((note) => [note.title, note as Note]));
    }, 60_000);

    it('creates one note a file, with progress to the end', () => {
      expect(first.result).toMatchObject({
        source: 'markdown',
        created: 3,
        updated: 0,
        imagesUploaded: 1,
        failed: [],
        cancelled: false,
      });
      expect(first.progress[0]).toEqual({ done: 0, total: 3, created: 0, updated: 0, failed: 0 });
      expect(first.progress.at(-1)).toEqual({
        done: 3,
        total: 3,
        created: 3,
        updated: 0,
        failed: 0,
      });
      expect([...byTitle.keys()].sort()).toEqual(['Budget', 'Kyoto trip', 'Packing list']);
    });

    it('reads front matter and #tags, and resolves [[links]] and relative links between the files', async () => {
      const trip = byTitle.get('Kyoto trip') as Note;
      expect(trip.createdAt).toBe('2024-03-01T09:30:00.000Z');
      expect([...trip.tags].sort()).toEqual(['japan', 'travel']);
      expect(byTitle.get('Packing list')?.tags).toEqual(['todo']);
      expect(byTitle.get('Budget')?.tags).toEqual(['money']);
      expect(trip.note).toContain('see [[Packing list]] and [[Budget|the budget]]');
      await expect
        .poll(async () => {
          const links = await json<NoteLinks>(app.api(ada, 'GET', `/api/notes/${trip.id}/links`));
          return links.outgoing.map((linked) => linked.title).sort();
        })
        .toEqual(['Budget', 'Packing list']);
    });

    it('uploads the image through the image pipeline, served to its owner only', async () => {
      const trip = byTitle.get('Kyoto trip') as Note;
      expect(trip.images).toHaveLength(1);
      const url = trip.images[0] as string;
      expect(trip.note).toContain(`![the map](${url})`);
      const image = await app.api(ada, 'GET', url);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/webp');
      const { width } = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
      expect(width).toBe(40);
    });

    it('importing the same zip again updates the notes it made: nothing new, no quota taken', async () => {
      const before = await usageOf(ada);
      const again = await importZip(ada, await vault());
      expect(again.result).toMatchObject({ created: 0, updated: 3, imagesUploaded: 0, failed: [] });
      const { items, total } = await notesOf(ada);
      expect(total).toBe(3);
      expect(new Set(items.map((note) => note.id))).toEqual(
        new Set([...byTitle.values()].map((note) => note.id)),
      );
      expect((items.find((n) => n.title === 'Kyoto trip') as Note).images).toHaveLength(1);
      expect((await usageOf(ada)).notes.used).toBe(before.notes.used);
    });

    it('never shows the notes to another user, whose own import of the same zip makes their own notes', async () => {
      const bob = await app.tokenFor(`bob-${randomUUID()}@example.com`);
      expect((await notesOf(bob)).total).toBe(0);
      const trip = byTitle.get('Kyoto trip') as Note;
      expect((await app.api(bob, 'GET', `/api/notes/${trip.id}`)).status).toBe(404);
      expect((await app.api(bob, 'GET', trip.images[0] as string)).status).toBe(404);
      const theirs = await importZip(bob, await vault());
      expect(theirs.result).toMatchObject({ created: 3, updated: 0 });
      const bobIds = new Set((await notesOf(bob)).items.map((note) => note.id));
      expect([...byTitle.values()].some((note) => bobIds.has(note.id))).toBe(false);
      expect((await notesOf(ada)).total).toBe(3);
    });
  });

  it('imports a Notion export zip: titles from the pages, links between them', async () => {
    const eve = await app.tokenFor(`eve-${randomUUID()}@example.com`);
    const { result } = await importZip(eve, await notionExport(), 'Export.zip');
    expect(result).toMatchObject({ source: 'notion', created: 2, failed: [] });
    const { items } = await notesOf(eve);
    const home = items.find((note) => note.title === 'Home');
    expect(home?.note).toContain('[[Project Plan]]');
    expect(items.find((note) => note.title === 'Project Plan')?.tags).toEqual(['planning']);
    // Again: the same pages, updated.
    expect((await importZip(eve, await notionExport(), 'Export.zip')).result).toMatchObject({
      created: 0,
      updated: 2,
    });
  });

  it('imports one Markdown file', async () => {
    const fay = await app.tokenFor(`fay-${randomUUID()}@example.com`);
    const result = await clientFor(fay).imports.file(
      new Blob(['# Groceries\n\nMilk and #bread\n'], { type: 'text/markdown' }),
      { fileName: 'groceries.md' },
    );
    expect(result).toMatchObject({ source: 'markdown', created: 1 });
    expect((await notesOf(fay)).items.map((n) => [n.title, n.tags])).toEqual([
      ['Groceries', ['bread']],
    ]);
  });

  it('refuses an import larger than what is left this month before writing anything', async () => {
    const gil = await app.tokenFor(`gil-${randomUUID()}@example.com`);
    const files = Array.from({ length: NOTES_PER_MONTH + 1 }, (_, i) => ({
      name: `note ${i}.md`,
      data: `Note number ${i}`,
    }));
    const { status, error } = await refusal(gil, await zipOf(files), 'many.zip');
    expect(status).toBe(403);
    expect(error.code).toBe('NOTES_LEFT_NOT_ENOUGH');
    expect(error.details).toEqual({ needed: NOTES_PER_MONTH + 1, left: NOTES_PER_MONTH });
    expect(error.message).toContain(`holds ${NOTES_PER_MONTH + 1} notes`);
    expect(error.message).toContain(`${NOTES_PER_MONTH} new notes are left`);
    expect((await notesOf(gil)).total).toBe(0);
    expect((await usageOf(gil)).notes.used).toBe(0);
    // The client throws it as an AppError before any progress.
    const progress: ImportProgress[] = [];
    await expect(
      clientFor(gil).imports.file(new Blob([new Uint8Array(await zipOf(files))]), {
        fileName: 'many.zip',
        onProgress: (p) => progress.push(p),
      }),
    ).rejects.toMatchObject({ code: 'NOTES_LEFT_NOT_ENOUGH' });
    expect(progress).toEqual([]);
  });

  it('refuses a broken zip, a file that is not Markdown, and a zip with no note, with stable codes', async () => {
    const hal = await app.tokenFor(`hal-${randomUUID()}@example.com`);
    const zip = await vault();
    expect(await refusal(hal, zip.subarray(0, zip.length - 40), 'cut.zip')).toMatchObject({
      status: 422,
      error: { code: 'ZIP_INVALID' },
    });
    expect(await refusal(hal, Buffer.from('%PDF-1.7 not a note'), 'paper.pdf')).toMatchObject({
      status: 422,
      error: { code: 'IMPORT_UNSUPPORTED' },
    });
    expect(
      await refusal(hal, await zipOf([{ name: 'photo.png', data: png }]), 'photos.zip'),
    ).toMatchObject({ status: 422, error: { code: 'IMPORT_EMPTY' } });
    expect((await notesOf(hal)).total).toBe(0);
  });
});
