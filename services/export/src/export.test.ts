import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError, NOTES_TOTAL_HEADER, countExportedNotes, type FeedbackKind } from '@noted/api';
import { IDENTITY_HEADER, createLogger, signIdentity } from '@noted/kit';
import { readZip } from '@noted/testing';
import { parse } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { exportConfigFrom, exportConfigSchema } from './config.js';
import { exportsDone } from './metrics.js';
import type { ExportImage, ExportNote } from './model.js';
import { notePages, type NoteToExport, type NotesReader } from './notes-client.js';
import type { Renderers } from './renderers.js';
import { startExport, type RunningExport } from './service.js';
import type { AccountPort } from './account-data.js';

const logger = createLogger({ level: 'silent' });
const secret = 's'.repeat(48);
const publicUrl = 'https://noted.test';
const alice = randomUUID();
const bob = randomUUID();
/** On the free plan: no PDF, no images. */
const frank = randomUUID();

const imageName = (n: number) => `${String(n).padStart(22, 'A')}.webp`;
const imageUrl = (noteId: string, n: number) => `/api/notes/${noteId}/images/${imageName(n)}`;

const noteOf = (fields: Partial<NoteToExport> = {}): NoteToExport => ({
  id: randomUUID(),
  title: 'A note',
  body: 'Some text',
  tags: [],
  images: [],
  createdAt: new Date('2026-03-01T09:30:00Z'),
  updatedAt: new Date('2026-03-02T10:00:00Z'),
  ...fields,
});

/**
 * The notes service as the export reads it, over a list of each user's notes: every call names
 * the owner, and another user's note is NOT_FOUND, as the real service answers.
 */
const fakeNotes = (
  byUser: Record<string, NoteToExport[]>,
  images: Record<string, Buffer> = {},
  options: { failOnPage?: number; body?: (note: NoteToExport) => string } = {},
) => {
  const scans: string[] = [];
  const sorted = (userId: string) =>
    [...(byUser[userId] ?? [])].sort((a, b) => (a.id < b.id ? -1 : 1));
  const reader: NotesReader = {
    note: async (userId, noteId) => {
      const note = byUser[userId]?.find((candidate) => candidate.id === noteId);
      if (!note) throw new AppError('NOT_FOUND', 'There is no such note');
      return note;
    },
    scan: async (userId, afterId, limit) => {
      scans.push(afterId);
      if (options.failOnPage === scans.length) throw new AppError('UNAVAILABLE', 'notes went away');
      const all = sorted(userId);
      const notes = all.filter((note) => note.id > afterId).slice(0, limit);
      return {
        notes: notes.map((note) => (options.body ? { ...note, body: options.body(note) } : note)),
        total: all.length,
      };
    },
    image: async (userId, url) => {
      const owned = byUser[userId]?.some((note) => note.images.includes(url));
      const bytes = images[url];
      if (!owned || !bytes) throw new AppError('NOT_FOUND', 'There is no such image');
      return { url, contentType: 'image/webp', bytes };
    },
    close: () => {},
  };
  return { reader, scans };
};

const rendered: {
  kind: string;
  note: ExportNote;
  images: readonly ExportImage[];
  theme?: string;
}[] = [];
const fakeRenderers: Renderers = {
  pdf: async (note, images) => {
    rendered.push({ kind: 'pdf', note, images });
    return Buffer.from('%PDF-1.7 fake');
  },
  card: async (note, images, options) => {
    rendered.push({ kind: 'card', note, images, theme: options.theme });
    return Buffer.from('\x89PNG fake', 'latin1');
  },
};

/** Every plan here exports PDF and images but Frank's (the free plan's). */
const planOf = (userId: string) => ({
  export_markdown: true,
  export_pdf: userId !== frank,
  export_image: userId !== frank,
});

const PNG_BYTES = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(32, 1),
]);

/**
 * The other services' routes one's data reads, as each user: alice has two chats, two feedback
 * and a recording.
 */
const fakeAccount: AccountPort = (identity) => ({
  profile: async () => ({
    userId: identity.userId,
    authId: identity.sub,
    email: identity.email,
    name: identity.name,
    entitlements: planOf(identity.userId),
    createdAt: '2026-01-01T00:00:00.000Z',
  }),
  usage: async () => ({ month: '2026-03', notes: { used: 2, limit: 100 } }),
  plan: async () => ({ planName: identity.userId === alice ? 'premium' : 'free' }),
  aiSettings: async () => ({ excludedTags: ['private'] }),
  chats: async () =>
    ({
      items:
        identity.userId === alice
          ? [
              { id: 'c1', title: 'Car costs?', createdAt: '2026-03-03T08:00:00.000Z' },
              { id: 'c2', title: 'Car costs?', createdAt: '2026-03-03T09:00:00.000Z' },
            ]
          : [],
      total: identity.userId === alice ? 2 : 0,
      page: 1,
      limit: 100,
    }) as never,
  chat: async (chatId) =>
    ({
      id: chatId,
      title: 'Car costs?',
      createdAt: '2026-03-03T08:00:00.000Z',
      messages: [{ role: 'user', content: `asked in ${chatId}` }],
    }) as never,
  // Alice's feedback comes in two pages; the newer one has a screenshot.
  feedback: async (cursor) => {
    const sent = (id: string, kind: FeedbackKind, day: string, hasScreenshot: boolean) => ({
      id,
      kind,
      message: `${kind} ${id}`,
      email: identity.email,
      userId: identity.userId,
      page: '/notes',
      hasScreenshot,
      createdAt: `${day}T10:00:00.000Z`,
    });
    if (identity.userId !== alice) return { items: [], nextCursor: null };
    return cursor === null
      ? { items: [sent('f2', 'problem', '2026-03-04', true)], nextCursor: 'page-2' }
      : { items: [sent('f1', 'idea', '2026-03-02', false)], nextCursor: null };
  },
  feedbackScreenshot: async (feedbackId) => {
    if (identity.userId !== alice || feedbackId !== 'f2') {
      throw new AppError('NOT_FOUND', 'There is no such screenshot');
    }
    return PNG_BYTES;
  },
  file: async (noteId, name) => {
    if (identity.userId !== alice) throw new AppError('NOT_FOUND', 'There is no such file');
    return Buffer.from(`recording ${noteId}/${name}`);
  },
});

const running: RunningExport[] = [];
const dataDirs: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.stop()));
  await Promise.all(dataDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  rendered.length = 0;
});

const start = async (notes: NotesReader, pageSize = 100) => {
  const config = exportConfigFrom(
    exportConfigSchema.parse({
      EXPORT_HTTP_PORT: '0',
      EXPORT_GRPC_ADDR: '127.0.0.1:0',
      EXPORT_PAGE_SIZE: String(pageSize),
    }),
    {
      host: '127.0.0.1',
      internalSecret: secret,
      publicUrl,
      dataDir: await mkdtemp(join(tmpdir(), 'noted-export-')),
    },
  );
  dataDirs.push(config.dataDir);
  const service = await startExport(config, {
    logger,
    notes,
    account: fakeAccount,
    renderers: fakeRenderers,
  });
  running.push(service);
  return service;
};

const as = async (userId: string) => ({
  [IDENTITY_HEADER]: await signIdentity(secret, {
    userId,
    sub: `sub-${userId}`,
    email: `${userId}@example.com`,
    name: 'Test',
  }),
});

const get = async (service: RunningExport, path: string, userId = alice, method = 'GET') =>
  fetch(`${service.httpUrl}${path}`, { method, headers: await as(userId) });

const frontMatterOf = (markdown: string) => {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(markdown);
  if (!match) throw new Error('no front matter');
  return { meta: parse(match[1] as string) as Record<string, unknown>, body: match[2] as string };
};

const counted = async (format: string, outcome: string) =>
  (await exportsDone.get()).values.find(
    (value) => value.labels.format === format && value.labels.outcome === outcome,
  )?.value ?? 0;

describe('the export service', () => {
  const note = noteOf({
    title: '导出设计: Export / design',
    tags: ['export', '设计'],
    body: '# 导出\n\nSee [[Other note]].\n\n',
  });
  note.images = [imageUrl(note.id, 1), imageUrl(note.id, 2)];
  note.body += `![one](${note.images[0]})\n`;
  const images = {
    [note.images[0] as string]: Buffer.from('first image bytes'),
    [note.images[1] as string]: Buffer.from('second image bytes'),
  };

  it('answers only requests the gateway signed', async () => {
    const service = await start(fakeNotes({ [alice]: [note] }).reader);
    const answer = await fetch(`${service.httpUrl}/export/note/markdown?id=${note.id}`);
    expect(answer.status).toBe(401);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe(
      'UNAUTHENTICATED',
    );
  });

  it('gives a note as a .md file named from its title, images as absolute links', async () => {
    const service = await start(fakeNotes({ [alice]: [note] }, images).reader);
    const answer = await get(service, `/export/note/markdown?id=${note.id}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('content-disposition')).toBe(
      `attachment; filename="____- Export - design.md"; filename*=UTF-8''${encodeURIComponent('导出设计- Export - design.md')}`,
    );
    const { meta, body } = frontMatterOf(await answer.text());
    expect(meta).toEqual({
      title: '导出设计: Export / design',
      tags: ['export', '设计'],
      created: '2026-03-01T09:30:00.000Z',
      updated: '2026-03-02T10:00:00.000Z',
      source: `${publicUrl}/notes/${note.id}`,
      images: note.images.map((url) => `${publicUrl}${url}`),
    });
    expect(body).toBe(note.body.replace(note.images[0] as string, `${publicUrl}${note.images[0]}`));
  });

  it("answers 404 for another user's note, in every format", async () => {
    const service = await start(fakeNotes({ [alice]: [note], [bob]: [] }, images).reader);
    const before = await counted('markdown', 'not_found');
    for (const path of [
      `/export/note/markdown?id=${note.id}`,
      `/export/note/markdown?id=${note.id}&images=bundle`,
      `/export/note?id=${note.id}`,
      `/export/note/image?id=${note.id}&theme=dark`,
    ]) {
      const answer = await get(service, path, bob);
      expect(answer.status, path).toBe(404);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    }
    expect(await counted('markdown', 'not_found')).toBe(before + 1);
    expect(rendered).toEqual([]);
  });

  it('bundles a note with its images beside it, referred to by relative paths', async () => {
    const service = await start(fakeNotes({ [alice]: [note] }, images).reader);
    const answer = await get(service, `/export/note/markdown?id=${note.id}&images=bundle`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/zip');
    expect(answer.headers.get('content-disposition')).toContain(
      `filename*=UTF-8''${encodeURIComponent('导出设计- Export - design.zip')}`,
    );
    const entries = await readZip(Buffer.from(await answer.arrayBuffer()));
    expect(entries.map((entry) => entry.name)).toEqual([
      `images/${imageName(1)}`,
      `images/${imageName(2)}`,
      '导出设计- Export - design.md',
    ]);
    expect(entries[0]?.bytes.toString()).toBe('first image bytes');
    const { meta, body } = frontMatterOf(entries[2]?.bytes.toString() ?? '');
    expect(meta.images).toEqual([`images/${imageName(1)}`, `images/${imageName(2)}`]);
    expect(body).toContain(`![one](images/${imageName(1)})`);
  });

  it('keeps the link of an image missing from the store, and exports the rest', async () => {
    const service = await start(
      fakeNotes({ [alice]: [note] }, { [note.images[1] as string]: Buffer.from('b') }).reader,
    );
    const answer = await get(service, `/export/note/markdown?id=${note.id}&images=bundle`);
    const entries = await readZip(Buffer.from(await answer.arrayBuffer()));
    expect(entries.map((entry) => entry.name)).toEqual([
      `images/${imageName(2)}`,
      '导出设计- Export - design.md',
    ]);
    expect(frontMatterOf(entries[1]?.bytes.toString() ?? '').body).toContain(
      `![one](${publicUrl}${note.images[0]})`,
    );
  });

  it('hands the renderers the note and its image bytes, and names the PDF and PNG', async () => {
    const service = await start(fakeNotes({ [alice]: [note] }, images).reader);
    const pdf = await get(service, `/export/note?id=${note.id}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toContain(
      encodeURIComponent('导出设计- Export - design.pdf'),
    );
    expect(Buffer.from(await pdf.arrayBuffer()).toString()).toBe('%PDF-1.7 fake');
    const png = await get(service, `/export/note/image?id=${note.id}&theme=dark`);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('content-disposition')).toContain('.png');
    expect(rendered.map((call) => [call.kind, call.theme])).toEqual([
      ['pdf', undefined],
      ['card', 'dark'],
    ]);
    expect(rendered[0]?.note).toMatchObject({ id: note.id, title: note.title, tags: note.tags });
    expect(rendered[0]?.images.map((image) => [image.url, image.bytes.toString()])).toEqual([
      [note.images[0], 'first image bytes'],
      [note.images[1], 'second image bytes'],
    ]);
  });

  it('refuses a PDF or an image to a plan without them (PLAN_REQUIRED), Markdown not', async () => {
    const service = await start(fakeNotes({ [frank]: [note] }, images).reader);
    for (const [path, feature] of [
      [`/export/note?id=${note.id}`, 'export_pdf'],
      [`/export/note/image?id=${note.id}`, 'export_image'],
    ] as const) {
      const answer = await get(service, path, frank);
      expect(answer.status).toBe(403);
      expect(await answer.json()).toMatchObject({
        error: { code: 'PLAN_REQUIRED', details: { feature } },
      });
    }
    expect(rendered).toEqual([]);
    expect((await get(service, `/export/note/markdown?id=${note.id}`, frank)).status).toBe(200);
    const refused = await exportsDone.get();
    expect(
      refused.values.find((v) => v.labels.format === 'pdf' && v.labels.outcome === 'refused')
        ?.value,
    ).toBeGreaterThanOrEqual(1);
  });

  it('refuses a theme it does not have and an id that is no UUID', async () => {
    const service = await start(fakeNotes({ [alice]: [note] }).reader);
    expect((await get(service, `/export/note/image?id=${note.id}&theme=blue`)).status).toBe(400);
    expect((await get(service, '/export/note?id=12')).status).toBe(400);
    expect((await get(service, `/export/note/markdown?id=${note.id}&images=x`)).status).toBe(400);
  });
});

describe('exporting everything', () => {
  it('streams every note as Markdown, page by page, with a manifest and the count first', async () => {
    const notes = Array.from({ length: 250 }, (_, n) =>
      noteOf({ title: n % 50 === 0 ? 'Same title' : `Note ${n}`, tags: [`t${n % 3}`] }),
    );
    const withImage = notes[7] as NoteToExport;
    withImage.images = [imageUrl(withImage.id, 9)];
    withImage.body = `![x](${withImage.images[0]})`;
    const fake = fakeNotes(
      { [alice]: notes, [bob]: [noteOf({ title: 'Not yours' })] },
      { [withImage.images[0] as string]: Buffer.from('image nine') },
    );
    const service = await start(fake.reader, 100);

    const answer = await get(service, '/export/all');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/zip');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get(NOTES_TOTAL_HEADER)).toBe('250');
    expect(answer.headers.get('content-disposition')).toMatch(
      /^attachment; filename="Noted export \d{4}-\d{2}-\d{2}\.zip"; filename\*=UTF-8''Noted%20export%20/,
    );
    const zip = Buffer.from(await answer.arrayBuffer());
    // Three pages of 100, read after one another from where the last ended.
    expect(fake.scans).toHaveLength(3);
    expect(fake.scans[0]).toBe('');

    const entries = await readZip(zip);
    const markdown = entries.filter((entry) => entry.name.endsWith('.md'));
    expect(markdown).toHaveLength(250);
    expect(
      markdown.map((entry) => entry.name).filter((name) => name.startsWith('Same title')),
    ).toEqual([
      'Same title.md',
      'Same title (2).md',
      'Same title (3).md',
      'Same title (4).md',
      'Same title (5).md',
    ]);
    expect(entries.map((entry) => entry.name)).toContain(`images/${imageName(9)}`);
    expect(entries.at(-1)?.name).toBe('manifest.json');
    const manifest = JSON.parse(entries.at(-1)?.bytes.toString() ?? '') as {
      count: number;
      notes: { id: string; file: string; title: string; tags: string[]; images: string[] }[];
    };
    expect(manifest.count).toBe(250);
    expect(new Set(manifest.notes.map((entry) => entry.id))).toEqual(
      new Set(notes.map((entry) => entry.id)),
    );
    const entryOf = manifest.notes.find((entry) => entry.id === withImage.id);
    expect(entryOf?.images).toEqual([`images/${imageName(9)}`]);
    const file = entries.find((entry) => entry.name === entryOf?.file);
    expect(frontMatterOf(file?.bytes.toString() ?? '').body).toBe(`![x](images/${imageName(9)})`);
    expect(entries.some((entry) => entry.bytes.toString().includes('Not yours'))).toBe(false);

    // The progress a browser shows: the notes begun in the bytes so far, against the count.
    for (const size of [1, 29, 4096]) {
      const progress = countExportedNotes();
      let seen = 0;
      for (let at = 0; at < zip.length; at += size) seen = progress(zip.subarray(at, at + size));
      expect(seen, `in chunks of ${size}`).toBe(250);
    }
  });

  it('answers HEAD with the count alone', async () => {
    const fake = fakeNotes({ [alice]: [noteOf(), noteOf()] });
    const service = await start(fake.reader);
    const answer = await get(service, '/export/all', alice, 'HEAD');
    expect(answer.status).toBe(200);
    expect(answer.headers.get(NOTES_TOTAL_HEADER)).toBe('2');
    expect(fake.scans).toHaveLength(1);
  });

  it('gives a user without notes a zip holding only the manifest', async () => {
    const service = await start(fakeNotes({}).reader);
    const answer = await get(service, '/export/all', bob);
    expect(answer.headers.get(NOTES_TOTAL_HEADER)).toBe('0');
    const entries = await readZip(Buffer.from(await answer.arrayBuffer()));
    expect(entries.map((entry) => entry.name)).toEqual(['manifest.json']);
  });

  it('answers a plain error when the notes cannot be read before the first byte', async () => {
    const service = await start(fakeNotes({ [alice]: [noteOf()] }, {}, { failOnPage: 1 }).reader);
    const answer = await get(service, '/export/all');
    expect(answer.status).toBe(503);
  });

  it('cuts the download off when reading fails midway, never ending it as complete', async () => {
    const notes = Array.from({ length: 30 }, (_, n) => noteOf({ title: `Note ${n}` }));
    const service = await start(fakeNotes({ [alice]: notes }, {}, { failOnPage: 2 }).reader, 10);
    const before = await counted('all', 'failed');
    const answer = await get(service, '/export/all');
    expect(answer.status).toBe(200);
    const parts: Buffer[] = [];
    const reading = (async () => {
      for await (const part of answer.body as unknown as AsyncIterable<Uint8Array>) {
        parts.push(Buffer.from(part));
      }
    })();
    await expect(reading).rejects.toThrow();
    await expect(readZip(Buffer.concat(parts))).rejects.toThrow();
    expect(await counted('all', 'failed')).toBe(before + 1);
  });

  it('stops reading notes when the client goes away', async () => {
    const notes = Array.from({ length: 2000 }, () => noteOf());
    const fake = fakeNotes(
      { [alice]: notes },
      {},
      {
        // Large, barely compressible bodies, made as they are read.
        body: () => randomUUID().repeat(3000),
      },
    );
    const service = await start(fake.reader, 10);
    const before = await counted('all', 'aborted');
    // node:http rather than fetch: undici opens a spare connection the server would wait for.
    const headers = await as(alice);
    await new Promise<void>((resolve, reject) => {
      const request = httpGet(`${service.httpUrl}/export/all`, { headers }, (answer) => {
        answer.once('data', () => {
          request.destroy();
          resolve();
        });
      });
      request.once('error', (error) => {
        if (!request.destroyed) reject(error);
      });
    });
    await expect.poll(() => counted('all', 'aborted')).toBe(before + 1);
    expect(fake.scans.length).toBeLessThan(20);
  });
});

describe('reading notes page by page', () => {
  it('asks a page too large for one message again at half the size', async () => {
    const notes = Array.from({ length: 7 }, () => noteOf());
    const asked: number[] = [];
    const { reader } = fakeNotes({ [alice]: notes });
    const pages = notePages(
      {
        scan: async (userId, afterId, limit) => {
          asked.push(limit);
          if (limit > 2) throw new AppError('RATE_LIMITED', 'Received message larger than max');
          return reader.scan(userId, afterId, limit);
        },
      },
      alice,
      8,
    );
    const seen: string[] = [];
    for await (const page of pages) seen.push(...page.notes.map((note) => note.id));
    expect(seen).toHaveLength(7);
    expect(asked.slice(0, 3)).toEqual([8, 4, 2]);
    expect(new Set(asked.slice(3))).toEqual(new Set([2]));
  });
});

describe("one's data (GET /user/data)", () => {
  it('holds the account, plan, usage, settings, feedback, chats, notes with images and captured files', async () => {
    // Ids in scan order, so the entries' order is the same every run.
    const recorded = noteOf({
      id: '00000000-0000-4000-8000-000000000001',
      title: 'Lecture on tides',
      captureFile: { name: 'Zm9vYmFyYmF6cXV4MTIzNA.m4a', originalName: 'lecture.m4a' },
    });
    const pictured = noteOf({ id: '00000000-0000-4000-8000-000000000002', title: 'Whiteboard' });
    pictured.images = [imageUrl(pictured.id, 3)];
    pictured.body = `![board](${pictured.images[0]})`;
    const fake = fakeNotes(
      { [alice]: [recorded, pictured], [bob]: [noteOf({ title: 'Not yours' })] },
      { [pictured.images[0] as string]: Buffer.from('board pixels') },
    );
    const service = await start(fake.reader);

    const head = await get(service, '/user/data', alice, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get(NOTES_TOTAL_HEADER)).toBe('2');

    const answer = await get(service, '/user/data');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/zip');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('content-disposition')).toMatch(/filename="Noted data \d{4}-/);
    const zip = Buffer.from(await answer.arrayBuffer());
    const entries = await readZip(zip);
    const byName = new Map(entries.map((entry) => [entry.name, entry.bytes.toString()]));
    expect([...byName.keys()]).toEqual([
      'README.txt',
      'account/profile.json',
      'account/plan.json',
      'account/usage.json',
      'account/ai-settings.json',
      'account/notion.json',
      'account/feedback.json',
      'feedback/2026-03-04 problem.png',
      'chats/2026-03-03 Car costs-.json',
      'chats/2026-03-03 Car costs- (2).json',
      expect.stringMatching(/^notes\/(Lecture on tides|Whiteboard)\.md$/),
      expect.stringMatching(/^notes\//),
      expect.stringMatching(/^notes\//),
      'notes/manifest.json',
      'files/Lecture on tides.m4a',
    ]);
    expect(byName.has(`notes/images/${imageName(3)}`)).toBe(true);
    expect(JSON.parse(byName.get('account/profile.json') ?? '')).toMatchObject({
      userId: alice,
      email: `${alice}@example.com`,
    });
    expect(JSON.parse(byName.get('account/notion.json') ?? '')).toMatchObject({ connected: false });
    expect(
      (JSON.parse(byName.get('account/feedback.json') ?? '') as { id: string }[]).map((f) => f.id),
    ).toEqual(['f2', 'f1']);
    expect(entries.find((e) => e.name === 'feedback/2026-03-04 problem.png')?.bytes).toEqual(
      PNG_BYTES,
    );
    expect(JSON.parse(byName.get('chats/2026-03-03 Car costs- (2).json') ?? '')).toMatchObject({
      id: 'c2',
      messages: [{ content: 'asked in c2' }],
    });
    expect(byName.get('files/Lecture on tides.m4a')).toBe(
      `recording ${recorded.id}/${recorded.captureFile?.name}`,
    );
    expect(JSON.parse(byName.get('notes/manifest.json') ?? '').count).toBe(2);
    expect(zip.includes(Buffer.from('Not yours'))).toBe(false);
    // Progress as the browser follows it: the notes under notes/.
    expect(countExportedNotes('notes/')(new Uint8Array(zip))).toBe(2);
  });

  it("answers only the caller's own data", async () => {
    const fake = fakeNotes({ [alice]: [noteOf({ title: 'Mine' })], [bob]: [] });
    const service = await start(fake.reader);
    const entries = await readZip(
      Buffer.from(await (await get(service, '/user/data', bob)).arrayBuffer()),
    );
    expect(entries.some((entry) => entry.name.endsWith('Mine.md'))).toBe(false);
    expect(entries.filter((entry) => entry.name.startsWith('chats/'))).toEqual([]);
    expect(entries.filter((entry) => entry.name.startsWith('feedback/'))).toEqual([]);
    expect(
      JSON.parse(entries.find((e) => e.name === 'account/profile.json')?.bytes.toString() ?? ''),
    ).toMatchObject({ userId: bob });
  });
});
