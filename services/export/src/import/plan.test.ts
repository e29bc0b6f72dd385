import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { importNoteId, uuidV5 } from './ids.js';
import {
  assertNotesLeft,
  bodyWithImages,
  planMarkdownImport,
  withoutCommonFolder,
  type ImportPlan,
} from './plan.js';
import { PNG_1X1 } from './test/zip.js';
import type { ImportFile } from './zip.js';

const file = (path: string, data: string | Uint8Array): ImportFile => ({
  path,
  bytes: typeof data === 'string' ? Buffer.from(data) : data,
});

const vault = (): ImportFile[] => [
  file(
    'Home.md',
    '# Home\n\nStart at [Projects](Projects/Plan%20A.md) or [[Plan B]].\n\n![map](img/map.png)',
  ),
  file('Projects/Plan A.md', '---\ntitle: Plan\n---\nBack [home](../Home.md). #work'),
  file('Projects/Plan B.md', '# Plan\n\nAlso named Plan. ![[map.png]] ![gone](missing.png)'),
  file('img/map.png', PNG_1X1),
  file('img/unused.png', PNG_1X1),
  file('notes.txt', 'not markdown'),
];

const byPath = (plan: ImportPlan) => new Map(plan.notes.map((note) => [note.sourcePath, note]));

describe('ids of imported notes', () => {
  it('are RFC 9562 version 5 UUIDs', () => {
    const dns = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
    expect(uuidV5('www.example.com', dns)).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('are the same when the same files are planned again, so a re-import updates', async () => {
    const userId = randomUUID();
    const first = await planMarkdownImport({ userId, files: vault(), existing: new Set() });
    const again = await planMarkdownImport({
      userId,
      files: vault().reverse(),
      existing: new Set(first.notes.map((note) => note.id)),
    });
    expect(again.notes.map((note) => note.id)).toEqual(first.notes.map((note) => note.id));
    expect(new Set(first.notes.map((note) => note.id)).size).toBe(3);
    expect([first.toCreate, first.toUpdate]).toEqual([3, 0]);
    expect([again.toCreate, again.toUpdate]).toEqual([0, 3]);
    expect(again.notes.every((note) => note.exists)).toBe(true);
  });

  it('are the same whether the files came zipped in a folder or one by one', async () => {
    const userId = randomUUID();
    const loose = await planMarkdownImport({ userId, files: vault(), existing: new Set() });
    const folder = vault().map((f) => ({ ...f, path: `My Vault/${f.path}` }));
    const zipped = await planMarkdownImport({ userId, files: folder, existing: new Set() });
    expect(zipped.notes.map((note) => note.id)).toEqual(loose.notes.map((note) => note.id));
    expect(
      withoutCommonFolder([file('a/x.md', ''), file('b/y.md', '')]).map((f) => f.path),
    ).toEqual(['a/x.md', 'b/y.md']);
  });

  it('differ between users: one user’s import never meets another’s notes', async () => {
    const [a, b] = await Promise.all(
      [randomUUID(), randomUUID()].map((userId) =>
        planMarkdownImport({ userId, files: vault(), existing: new Set() }),
      ),
    );
    const ids = new Set(a!.notes.map((note) => note.id));
    expect(b!.notes.some((note) => ids.has(note.id))).toBe(false);
    expect(importNoteId('u', 'markdown', 'a.md')).not.toBe(importNoteId('u', 'notion', 'a.md'));
  });
});

describe('planning a Markdown import', () => {
  it('writes links between imported files as [[Title]], making equal titles distinct', async () => {
    const plan = await planMarkdownImport({ userId: 'u1', files: vault(), existing: new Set() });
    const notes = byPath(plan);
    expect(notes.get('Home.md')?.title).toBe('Home');
    expect(notes.get('Projects/Plan A.md')?.title).toBe('Plan');
    expect(notes.get('Projects/Plan B.md')?.title).toBe('Plan (2)');
    expect(notes.get('Home.md')?.body).toBe(
      'Start at [[Plan|Projects]] or [[Plan (2)]].\n\n![map](img/map.png)',
    );
    expect(notes.get('Projects/Plan A.md')?.body).toBe('Back [[Home]]. #work');
    expect(notes.get('Projects/Plan A.md')?.tags).toEqual(['work']);
  });

  it('attaches the images each note shows, and says what it leaves out', async () => {
    const plan = await planMarkdownImport({ userId: 'u1', files: vault(), existing: new Set() });
    const notes = byPath(plan);
    const home = notes.get('Home.md')!;
    expect(home.images.map((image) => [image.path, image.fileName])).toEqual([
      ['img/map.png', 'map.png'],
    ]);
    expect(notes.get('Projects/Plan B.md')!.images.map((image) => image.path)).toEqual([
      'img/map.png',
    ]);
    expect(plan.imageBytes).toBe(2 * PNG_1X1.length);
    expect(plan.skipped).toEqual(
      expect.arrayContaining([
        { path: 'notes.txt', reason: 'NOT_MARKDOWN' },
        { path: 'Projects/missing.png', reason: 'IMAGE_MISSING', note: 'Projects/Plan B.md' },
        { path: 'img/unused.png', reason: 'UNREFERENCED_IMAGE' },
      ]),
    );
    const urls = new Map([['img/map.png', '/api/notes/x/images/AAAAAAAAAAAAAAAAAAAAAA.webp']]);
    expect(bodyWithImages(home, urls)).toBe(
      'Start at [[Plan|Projects]] or [[Plan (2)]].\n\n![map](/api/notes/x/images/AAAAAAAAAAAAAAAAAAAAAA.webp)',
    );
    expect(bodyWithImages(notes.get('Projects/Plan B.md')!, urls)).toBe(
      'Also named Plan. ![map.png](/api/notes/x/images/AAAAAAAAAAAAAAAAAAAAAA.webp) ![gone](missing.png)',
    );
  });

  it('keeps images within the limits of one image, one note and the whole import', async () => {
    const files = [
      file('a.md', '![1](1.png) ![2](2.png) ![3](3.png) ![big](big.png) ![svg](x.svg)'),
      file('1.png', PNG_1X1),
      file('2.png', PNG_1X1),
      file('3.png', PNG_1X1),
      file('big.png', new Uint8Array(1000)),
      file('x.svg', '<svg/>'),
    ];
    const plan = await planMarkdownImport({
      userId: 'u',
      files,
      existing: new Set(),
      limits: { maxImageBytes: 500, maxImagesPerNote: 2 },
    });
    expect(plan.notes[0]!.images.map((image) => image.path)).toEqual(['1.png', '2.png']);
    expect(plan.skipped.map((s) => [s.path, s.reason])).toEqual([
      ['3.png', 'TOO_MANY_IMAGES'],
      ['big.png', 'IMAGE_TOO_LARGE'],
      ['x.svg', 'NOT_AN_IMAGE'],
      ['3.png', 'UNREFERENCED_IMAGE'],
      ['big.png', 'UNREFERENCED_IMAGE'],
    ]);
    const capped = await planMarkdownImport({
      userId: 'u',
      files,
      existing: new Set(),
      limits: { maxTotalImageBytes: PNG_1X1.length },
    });
    expect(capped.notes[0]!.images).toHaveLength(1);
    expect(capped.skipped).toContainEqual({
      path: '2.png',
      reason: 'IMAGES_TOO_LARGE',
      note: 'a.md',
    });
  });

  it('asks which notes exist at most 100 ids at a time', async () => {
    const files = Array.from({ length: 250 }, (_, i) => file(`n${i}.md`, `note ${i}`));
    const asked: number[] = [];
    let known: string[] = [];
    const first = await planMarkdownImport({ userId: 'u', files, existing: new Set() });
    known = first.notes.slice(0, 120).map((note) => note.id);
    const plan = await planMarkdownImport({
      userId: 'u',
      files,
      existing: async (ids) => {
        asked.push(ids.length);
        return ids.filter((id) => known.includes(id));
      },
    });
    expect(asked).toEqual([100, 100, 50]);
    expect([plan.toCreate, plan.toUpdate]).toEqual([130, 120]);
  });
});

describe('the monthly allowance', () => {
  it('refuses before anything is written an import making more notes than are left', async () => {
    const plan = await planMarkdownImport({ userId: 'u', files: vault(), existing: new Set() });
    expect(() => assertNotesLeft(plan, 2)).toThrow(
      expect.objectContaining({
        code: 'NOTES_LEFT_NOT_ENOUGH',
        status: 403,
        details: { needed: 3, left: 2 },
      }),
    );
    expect(() => assertNotesLeft(plan, 3)).not.toThrow();
    expect(() => assertNotesLeft(plan, null)).not.toThrow();
  });

  it('counts only new notes: a re-import of what exists takes nothing', async () => {
    const first = await planMarkdownImport({ userId: 'u', files: vault(), existing: new Set() });
    const again = await planMarkdownImport({
      userId: 'u',
      files: vault(),
      existing: new Set(first.notes.map((note) => note.id)),
    });
    expect(() => assertNotesLeft(again, 0)).not.toThrow();
  });
});
