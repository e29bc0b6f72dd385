import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NOTES_TOTAL_HEADER,
  countExportedNotes,
  type Note,
  type NoteImageUploaded,
} from '@noted/api';
import { readZip, wavTone } from '@noted/testing';
import { getTestApp, infraLabel, json, type TestApp } from './test/app.js';

/** The front matter of an exported Markdown file (as YAML 1.1 readers see it), and the body. */
const markdownOf = (text: string) => {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!match) throw new Error(`No front matter in ${text.slice(0, 200)}`);
  return {
    meta: parse(match[1] as string, { version: '1.1' }) as Record<string, unknown>,
    body: match[2] as string,
  };
};

describe(`export through the gateway (${infraLabel})`, () => {
  let app: TestApp;
  let ada: string;
  let bob: string;
  let note: Note;
  let imageUrl: string;
  let imageBytes: Buffer;
  const title = '导出测试: Export / 中文';
  const body = (image: string) =>
    `# 会议记录\n\n今天讨论了导出功能。See [[Other note]] and [[导出]].\n\n- [ ] 带走笔记\n\n![photo](${image})\n`;

  const get = (token: string, path: string) =>
    fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const create = async (token: string, fields: { title: string; note?: string; tags?: string[] }) =>
    json<Note>(app.api(token, 'POST', '/api/note/create/direct', fields));

  beforeAll(async () => {
    app = await getTestApp({
      env: {
        FREE_NOTES_PER_MONTH: '-1',
        GATEWAY_RATE_LIMIT_PER_USER: '0',
        // The free plan exports PDF and images here; the plan check is the export service's test.
        FREE_EXPORT_PDF: 'true',
        FREE_EXPORT_IMAGE: 'true',
      },
    });
    ada = await app.tokenFor(`ada-${randomUUID()}@example.com`);
    bob = await app.tokenFor(`bob-${randomUUID()}@example.com`);
    await create(ada, { title: 'Other note', note: 'linked from the export test' });
    note = await create(ada, { title, note: 'draft', tags: ['export', '中文'] });
    const form = new FormData();
    const png = await sharp({
      create: { width: 64, height: 48, channels: 3, background: '#3a7bd5' },
    })
      .png()
      .toBuffer();
    form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'photo.png');
    const uploaded = await fetch(`${app.url}/api/notes/${note.id}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ada}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    imageUrl = (await json<NoteImageUploaded>(uploaded)).image.url;
    note = await json<Note>(app.api(ada, 'PUT', `/api/notes/${note.id}`, { note: body(imageUrl) }));
    imageBytes = Buffer.from(await (await get(ada, imageUrl)).arrayBuffer());
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  it('downloads a note as Markdown: front matter, the body as stored, the image linked', async () => {
    const answer = await get(ada, `/export/note/markdown?id=${note.id}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('content-disposition')).toContain(
      `filename*=UTF-8''${encodeURIComponent('导出测试- Export - 中文.md')}`,
    );
    const { meta, body: text } = markdownOf(await answer.text());
    expect(meta).toEqual({
      title,
      tags: ['export', '中文'],
      created: note.createdAt,
      updated: note.updatedAt,
      source: `${app.url}/notes/${note.id}`,
      images: [`${app.url}${imageUrl}`],
    });
    expect(text).toBe(body(`${app.url}${imageUrl}`));
    // The link is the owner's image, readable with their token.
    const linked = await get(ada, new URL(`${app.url}${imageUrl}`).pathname);
    expect(Buffer.from(await linked.arrayBuffer()).equals(imageBytes)).toBe(true);
  });

  it('bundles a note and its image in a zip, the Markdown pointing at it', async () => {
    const answer = await get(ada, `/export/note/markdown?id=${note.id}&images=bundle`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/zip');
    const entries = await readZip(Buffer.from(await answer.arrayBuffer()));
    const imagePath = `images/${imageUrl.split('/').at(-1)}`;
    expect(entries.map((entry) => entry.name)).toEqual([imagePath, '导出测试- Export - 中文.md']);
    expect(entries[0]?.bytes.equals(imageBytes)).toBe(true);
    const { meta, body: text } = markdownOf(entries[1]?.bytes.toString() ?? '');
    expect(meta.images).toEqual([imagePath]);
    expect(text).toBe(body(imagePath));
  });

  it('renders the note as a PDF and as a PNG card', async () => {
    const pdf = await get(ada, `/export/note?id=${note.id}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const png = await get(ada, `/export/note/image?id=${note.id}&theme=dark`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    const { format, width } = await sharp(Buffer.from(await png.arrayBuffer())).metadata();
    expect({ format, width }).toEqual({ format: 'png', width: 1080 });
  }, 60_000);

  it("answers 404 for another user's note in every format, and 401 without a token", async () => {
    for (const path of [
      `/export/note/markdown?id=${note.id}`,
      `/export/note/markdown?id=${note.id}&images=bundle`,
      `/export/note?id=${note.id}`,
      `/export/note/image?id=${note.id}`,
    ]) {
      const answer = await get(bob, path);
      expect(answer.status, path).toBe(404);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    }
    expect((await fetch(`${app.url}/export/all`)).status).toBe(401);
  });

  it("exports everything of the caller's, and nothing of anyone else's", async () => {
    await create(bob, { title: 'Bob alone', note: 'not for Ada' });
    const answer = await get(ada, '/export/all');
    expect(answer.status).toBe(200);
    expect(answer.headers.get(NOTES_TOTAL_HEADER)).toBe('2');
    expect(answer.headers.get('content-disposition')).toMatch(/filename\*=UTF-8''Noted%20export/);
    const entries = await readZip(Buffer.from(await answer.arrayBuffer()));
    const names = entries.map((entry) => entry.name);
    expect(names.filter((name) => name.endsWith('.md')).sort()).toEqual([
      'Other note.md',
      '导出测试- Export - 中文.md',
    ]);
    const image = entries.find((entry) => entry.name.startsWith('images/'));
    expect(image?.bytes.equals(imageBytes)).toBe(true);
    const manifest = JSON.parse(entries.at(-1)?.bytes.toString() ?? '') as {
      count: number;
      notes: { id: string; file: string; tags: string[]; images: string[] }[];
    };
    expect(manifest.count).toBe(2);
    expect(manifest.notes.find((entry) => entry.id === note.id)).toMatchObject({
      file: '导出测试- Export - 中文.md',
      tags: ['export', '中文'],
      images: [image?.name],
    });
    expect(entries.some((entry) => entry.bytes.toString().includes('Bob alone'))).toBe(false);
  });

  it('lists all of 1,000 notes in the zip, the progress reaching the count', async () => {
    const carol = await app.tokenFor(`carol-${randomUUID()}@example.com`);
    const titles = Array.from({ length: 1000 }, (_, n) => `Note ${n} 笔记`);
    for (let start = 0; start < titles.length; start += 25) {
      await Promise.all(
        titles.slice(start, start + 25).map(async (noteTitle) => {
          const created = await app.api(carol, 'POST', '/api/note/create/direct', {
            title: noteTitle,
            note: `Body of ${noteTitle}`,
          });
          expect(created.status).toBe(201);
        }),
      );
    }
    const answer = await get(carol, '/export/all');
    expect(answer.headers.get(NOTES_TOTAL_HEADER)).toBe('1000');
    const progress = countExportedNotes();
    const parts: Buffer[] = [];
    let seen = 0;
    for await (const part of answer.body as unknown as AsyncIterable<Uint8Array>) {
      parts.push(Buffer.from(part));
      seen = progress(part);
    }
    expect(seen).toBe(1000);
    const entries = await readZip(Buffer.concat(parts));
    const files = entries.filter((entry) => entry.name.endsWith('.md')).map((entry) => entry.name);
    expect(files.sort()).toEqual(titles.map((noteTitle) => `${noteTitle}.md`).sort());
  }, 120_000);

  it('downloads everything Noted holds about the caller (/user/data), only theirs', async () => {
    const wav = wavTone(1);
    const form = new FormData();
    form.append('audio', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'memo.wav');
    const recorded = await fetch(`${app.url}/api/note/create/byaudiofile`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ada}` },
      body: form,
    });
    expect(recorded.status).toBe(201);
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(16, 3),
    ]);
    const feedback = await fetch(`${app.url}/api/feedback`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ada}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        kind: 'problem',
        message: 'The export is slow',
        screenshot: `data:image/png;base64,${png.toString('base64')}`,
      }),
    });
    expect(feedback.status).toBe(201);

    const head = await fetch(`${app.url}/user/data`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${ada}` },
    });
    expect(head.status).toBe(200);
    const total = Number(head.headers.get(NOTES_TOTAL_HEADER));
    expect(total).toBeGreaterThanOrEqual(3);

    const answer = await get(ada, '/user/data');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/zip');
    const entries = await readZip(Buffer.from(await answer.arrayBuffer()));
    const names = entries.map((entry) => entry.name);
    const text = (name: string) => entries.find((entry) => entry.name === name)?.bytes.toString();
    expect(names.slice(0, 6)).toEqual([
      'README.txt',
      'account/profile.json',
      'account/plan.json',
      'account/usage.json',
      'account/ai-settings.json',
      'account/notion.json',
    ]);
    expect(JSON.parse(text('account/feedback.json') ?? '')).toEqual([
      expect.objectContaining({ kind: 'problem', message: 'The export is slow' }),
    ]);
    const screenshots = entries.filter((entry) => /^feedback\/.+ problem\.png$/.test(entry.name));
    expect(screenshots.map((entry) => entry.bytes.equals(png))).toEqual([true]);
    const profile = JSON.parse(text('account/profile.json') ?? '') as { email: string };
    expect(profile.email).toMatch(/^ada-/);
    expect(JSON.parse(text('account/plan.json') ?? '')).toMatchObject({ planName: 'free' });
    expect(JSON.parse(text('account/notion.json') ?? '')).toMatchObject({ connected: false });
    expect(names).toContain(`notes/images/${imageUrl.split('/').at(-1)}`);
    expect(names).toContain('notes/导出测试- Export - 中文.md');
    const manifest = JSON.parse(text('notes/manifest.json') ?? '') as { count: number };
    expect(manifest.count).toBe(total);
    const kept = entries.filter((entry) => /^files\/.+\.wav$/.test(entry.name));
    expect(kept).toHaveLength(1);
    expect(kept[0]?.bytes.equals(wav)).toBe(true);

    const theirs = await readZip(Buffer.from(await (await get(bob, '/user/data')).arrayBuffer()));
    expect(theirs.some((entry) => entry.name.startsWith('files/'))).toBe(false);
    expect(theirs.some((entry) => entry.name.startsWith('feedback/'))).toBe(false);
    expect(theirs.some((entry) => entry.name.includes('导出测试'))).toBe(false);
    expect(
      JSON.parse(
        theirs.find((entry) => entry.name === 'account/profile.json')?.bytes.toString() ?? '',
      ),
    ).toMatchObject({ email: expect.stringMatching(/^bob-/) });
    expect((await fetch(`${app.url}/user/data`)).status).toBe(401);
  }, 60_000);
});
