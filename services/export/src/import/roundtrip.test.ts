import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppError } from '@noted/api';
import { createLogger } from '@noted/kit';
import { describe, expect, it } from 'vitest';
import { exportEverything, type ExportContext } from '../exports.js';
import { notePages, type NoteToExport, type NotesReader } from '../notes-client.js';
import { createZipWriter } from '../zip.js';
import { planMarkdownImport } from './plan.js';
import { runImport } from './run.js';
import { notesStore } from './test/notes-store.js';
import { PNG_1X1 } from './test/zip.js';
import { readZip } from './zip.js';

const userId = randomUUID();
const idOf = () => randomUUID();
const image = (noteId: string, n: number) =>
  `/api/notes/${noteId}/images/${String(n).padStart(22, 'B')}.webp`;

const [design, trip, bare] = [idOf(), idOf(), idOf()];
const notes: NoteToExport[] = [
  {
    id: design,
    title: '导出设计: Export / design',
    body: `# Goals\n\n- one note as Markdown #export\n- see [[Kyoto trip]]\n\n![sketch](${image(design, 1)})\n\n中文与 English #设计`,
    tags: ['export', '设计'],
    images: [image(design, 1), image(design, 2)],
    createdAt: new Date('2026-03-01T09:30:00Z'),
    updatedAt: new Date('2026-03-02T10:00:00Z'),
  },
  {
    id: trip,
    title: 'Kyoto trip',
    body: 'Temples, then [[导出设计: Export / design]] on the train.\n\n```\n#not-a-tag\n```\n',
    tags: ['travel'],
    images: [],
    createdAt: new Date('2025-11-01T00:00:00Z'),
    updatedAt: new Date('2025-11-03T00:00:00Z'),
  },
  {
    id: bare,
    title: '',
    body: 'A note without a title, only text.',
    tags: [],
    images: [],
    createdAt: new Date('2026-01-01T00:00:00Z'),
    updatedAt: new Date('2026-01-01T00:00:00Z'),
  },
];

/** The notes service as the export reads it: this user's notes and their images. */
const reader: NotesReader = {
  note: async (_user, id) => {
    const note = notes.find((candidate) => candidate.id === id);
    if (!note) throw new AppError('NOT_FOUND', 'There is no such note');
    return note;
  },
  scan: async (_user, afterId, limit) => {
    const sorted = [...notes].sort((a, b) => (a.id < b.id ? -1 : 1));
    return { notes: sorted.filter((n) => n.id > afterId).slice(0, limit), total: notes.length };
  },
  image: async (_user, url) => ({ url, contentType: 'image/webp', bytes: PNG_1X1 }),
  close: () => {},
};

/** Everything, exported by the export service's own code into a zip's bytes. */
const exportedZip = async () => {
  const ctx: ExportContext = {
    notes: reader,
    publicUrl: 'https://noted.test',
    pageSize: 2,
    renderers: {
      pdf: () => Promise.reject(new Error('not rendered here')),
      card: () => Promise.reject(new Error('not rendered here')),
    },
    logger: createLogger({ level: 'silent' }),
  };
  const zip = createZipWriter();
  const chunks: Buffer[] = [];
  const stream = zip.stream as Readable;
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => stream.on('end', resolve));
  await exportEverything(ctx, userId, notePages(reader, userId, ctx.pageSize), zip);
  zip.end();
  await ended;
  return Buffer.concat(chunks);
};

describe('export everything, then import the zip', () => {
  it('gives back the same notes: titles, bodies, links, tags and images', async () => {
    const store = notesStore();
    const { files } = await readZip(await exportedZip());
    const plan = await planMarkdownImport({ userId, files, existing: new Set() });
    const result = await runImport(plan, store.port);
    expect(result.failed).toEqual([]);

    const imported = [...store.notes.values()];
    expect(imported).toHaveLength(notes.length);
    for (const original of notes) {
      const copy = imported.find((note) => note.title === original.title)!;
      expect(copy).toBeDefined();
      expect(copy.images).toHaveLength(original.images.length);
      // The stored URLs are new: the body is the same once each old URL reads as its new one.
      const body = original.images.reduce(
        (text, url, i) => text.replaceAll(url, copy.images[i]!),
        original.body,
      );
      expect(copy.note).toBe(body);
      expect([...copy.tags].sort()).toEqual([...original.tags].sort());
    }
  });

  it('adds nothing when the same export is imported again', async () => {
    const store = notesStore();
    const { files } = await readZip(await exportedZip());
    await runImport(await planMarkdownImport({ userId, files, existing: new Set() }), store.port);
    const before = [...store.notes.values()];

    const again = await planMarkdownImport({
      userId,
      files,
      existing: new Set(store.notes.keys()),
    });
    expect([again.toCreate, again.toUpdate]).toEqual([0, notes.length]);
    const result = await runImport(again, store.port);
    expect(result.imagesUploaded).toBe(0);
    expect(
      [...store.notes.values()].map(({ id, title, note, tags, images }) => ({
        id,
        title,
        note,
        tags,
        images,
      })),
    ).toEqual(
      before.map(({ id, title, note, tags, images }) => ({ id, title, note, tags, images })),
    );
  });
});
