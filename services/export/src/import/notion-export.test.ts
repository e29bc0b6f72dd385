import { describe, expect, it } from 'vitest';
import { importNoteId } from './ids.js';
import {
  notionDate,
  notionExportNotes,
  parseCsv,
  planNotionExportImport,
} from './notion-export.js';
import { NOTION_IDS, notionExport } from './test/notion-export.js';
import { zipOf } from './test/zip.js';
import { readZip } from './zip.js';

const readExport = async () => (await readZip(await zipOf(notionExport()))).files;

describe('a Notion "Markdown & CSV" export', () => {
  it('gives one note per page, titled without the id, keyed by the Notion page id', async () => {
    const { notes } = notionExportNotes(await readExport());
    expect(notes.map((note) => [note.title, note.key])).toEqual([
      ['Home', NOTION_IDS.home],
      ['Project Plan', NOTION_IDS.plan],
      ['A very long task title that Notion cuts short in the file name, really', NOTION_IDS.long],
      ['Write the spec', NOTION_IDS.spec],
      ['Untitled', NOTION_IDS.untitled],
    ]);
  });

  it('takes a database row’s dates and tags from its CSV and keeps its other properties', async () => {
    const { notes } = notionExportNotes(await readExport());
    const spec = notes.find((note) => note.key === NOTION_IDS.spec)!;
    expect(spec.createdAt).toBe('2024-01-05T15:14:00.000Z');
    expect(spec.tags).toEqual(['work', 'Q1-planning', 'draft']);
    expect(spec.body).toMatch(/^Status: Done\n\nDraft it with/);
    const long = notes.find((note) => note.key === NOTION_IDS.long)!;
    expect(long.createdAt).toBe('2024-02-29T03:05:00.000Z');
    expect(long.tags).toEqual(['work']);
    expect(long.body).toBe(
      'Status: In progress\n\nNotes: the first paragraph of a row page, not a property.',
    );
  });

  it('plans links between pages as [[Title]], the database link as its name, images attached', async () => {
    const plan = await planNotionExportImport({
      userId: 'u1',
      files: await readExport(),
      existing: new Set(),
    });
    const byKey = new Map(plan.notes.map((note) => [note.sourcePath.split(' ').pop(), note]));
    const home = byKey.get(`${NOTION_IDS.home}.md`)!;
    expect(home.id).toBe(importNoteId('u1', 'notion', NOTION_IDS.home));
    expect(home.body).toBe(
      'Welcome. The plan is in [[Project Plan]], the work in Tasks.\n\n' +
        `![diagram.png](Home%20${NOTION_IDS.home}/diagram.png)\n\n- [ ] review #weekly`,
    );
    expect(home.tags).toEqual(['weekly']);
    expect(home.images.map((image) => image.fileName)).toEqual(['diagram.png']);
    expect(byKey.get(`${NOTION_IDS.plan}.md`)!.body).toBe(
      'Back to [[Home]]. Start with [[Write the spec]].',
    );
    expect(plan.toCreate).toBe(5);
    expect(plan.skipped).toEqual([]);
  });

  it('reads an export that comes as zips inside the download', async () => {
    const inner = await zipOf(notionExport());
    const outer = await zipOf([
      { name: 'Export-7f1c0a52-Part-1.zip', data: inner, compress: false },
    ]);
    const plan = await planNotionExportImport({
      userId: 'u1',
      files: (await readZip(outer)).files,
      existing: new Set(),
    });
    expect(plan.notes.map((note) => note.title).sort()).toEqual(
      [
        'A very long task title that Notion cuts short in the file name, really',
        'Home',
        'Project Plan',
        'Untitled',
        'Write the spec',
      ].sort(),
    );
  });

  it('plans the same ids again, so importing the export twice updates the same notes', async () => {
    const files = await readExport();
    const first = await planNotionExportImport({ userId: 'u1', files, existing: new Set() });
    const again = await planNotionExportImport({
      userId: 'u1',
      files,
      existing: new Set(first.notes.map((note) => note.id)),
    });
    expect(again.notes.map((note) => note.id)).toEqual(first.notes.map((note) => note.id));
    expect([again.toCreate, again.toUpdate]).toEqual([0, 5]);
  });
});

describe('Notion’s CSV and dates', () => {
  it('reads quoted fields, doubled quotes, line breaks in quotes and a BOM', () => {
    expect(parseCsv('\uFEFFName,Note\r\n"a, b","say ""hi""\nthere"\r\nc,\n')).toEqual([
      ['Name', 'Note'],
      ['a, b', 'say "hi"\nthere'],
      ['c', ''],
    ]);
  });

  it('reads the date shapes the export writes', () => {
    expect(notionDate('January 5, 2024 3:14 PM')).toBe('2024-01-05T15:14:00.000Z');
    expect(notionDate('January 5, 2024 12:05 AM')).toBe('2024-01-05T00:05:00.000Z');
    expect(notionDate('January 5, 2024')).toBe('2024-01-05T00:00:00.000Z');
    expect(notionDate('March 1, 2024 9:00 AM (GMT-5)')).toBe('2024-03-01T14:00:00.000Z');
    expect(notionDate('2024/03/01 18:30')).toBe('2024-03-01T18:30:00.000Z');
    expect(notionDate('2024年3月1日 18:30')).toBe('2024-03-01T18:30:00.000Z');
    expect(notionDate('May 1, 2024 → May 3, 2024')).toBe('2024-05-01T00:00:00.000Z');
    expect(notionDate('February 30, 2024')).toBeUndefined();
    expect(notionDate('someday')).toBeUndefined();
  });
});
