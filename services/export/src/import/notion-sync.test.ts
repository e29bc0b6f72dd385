import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { importNoteId } from './ids.js';
import { notionExportNotes } from './notion-export.js';
import {
  createNotionClient,
  notionIdentity,
  notionSync,
  planNotionSync,
  type NotionSyncResult,
} from './notion-sync.js';
import {
  pageMention,
  startNotionServer,
  text,
  type FakePage,
  type NotionServer,
} from './test/notion-server.js';
import { PNG_1X1 } from './test/zip.js';

const TOKEN = 'ntn_test_0123456789abcdefghijklmnopqrstuvwxyzABCD';
const MEETING = '3a1f0c2e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
const ROADMAP = '7c2d9e8f-1a2b-4c3d-9e4f-5a6b7c8d9e0f';
const OLD = 'b4c5d6e7-f8a9-4b0c-8d1e-2f3a4b5c6d7e';
const CHART = 'c0ffee00-1111-4222-8333-444455556666';

let server: NotionServer;

const rich = (...items: Record<string, unknown>[]) => ({ rich_text: items, color: 'default' });

const pages = (baseUrl: string): FakePage[] => [
  {
    id: MEETING,
    title: 'Meeting notes',
    createdTime: '2024-04-30T08:00:00.000Z',
    lastEditedTime: '2024-05-01T10:00:00.000Z',
    blocks: [
      { id: 'b01', type: 'heading_1', content: { ...rich(text('Agenda')), is_toggleable: false } },
      {
        id: 'b02',
        type: 'paragraph',
        content: rich(
          text('Discuss '),
          text('budget', { bold: true }),
          text(' and '),
          text('hiring ', { italic: true }),
          text('(see '),
          text('docs', { link: 'https://example.org/docs' }),
          text(', run '),
          text('npm test', { code: true }),
          text(') with '),
          pageMention(ROADMAP, 'Roadmap'),
          text(' #planning'),
        ),
      },
      {
        id: 'b03',
        type: 'bulleted_list_item',
        content: rich(text('First')),
        children: [
          { id: 'b04', type: 'bulleted_list_item', content: rich(text('Nested')) },
          { id: 'b05', type: 'bulleted_list_item', content: rich(text('Also nested')) },
          { id: 'b06', type: 'bulleted_list_item', content: rich(text('Third nested')) },
        ],
      },
      { id: 'b07', type: 'bulleted_list_item', content: rich(text('Second')) },
      { id: 'b08', type: 'numbered_list_item', content: rich(text('One')) },
      { id: 'b09', type: 'numbered_list_item', content: rich(text('Two')) },
      { id: 'b10', type: 'to_do', content: { ...rich(text('Done thing')), checked: true } },
      { id: 'b11', type: 'to_do', content: { ...rich(text('Open thing')), checked: false } },
      {
        id: 'b12',
        type: 'code',
        content: {
          rich_text: [text('const a = 1;\nconsole.log(a);')],
          caption: [],
          language: 'javascript',
        },
      },
      { id: 'b13', type: 'quote', content: rich(text('Quoted')) },
      { id: 'b14', type: 'divider', content: {} },
      {
        id: 'b15',
        type: 'image',
        content: {
          type: 'external',
          external: { url: 'https://images.example.org/cat.png' },
          caption: [text('A cat')],
        },
      },
      {
        id: CHART,
        type: 'image',
        content: {
          type: 'file',
          file: {
            url: `${baseUrl}/files/chart.png?X-Amz-Signature=abc`,
            expiry_time: '2024-05-01T11:00:00.000Z',
          },
          caption: [text('Chart')],
        },
      },
      { id: 'b17', type: 'heading_2', content: { ...rich(text('Details')), is_toggleable: false } },
      { id: 'b18', type: 'heading_3', content: { ...rich(text('More')), is_toggleable: false } },
      { id: 'b19', type: 'child_page', content: { title: 'Roadmap' } },
      { id: 'b20', type: 'table_of_contents', content: { color: 'default' } },
    ],
  },
  {
    id: ROADMAP,
    title: 'Roadmap',
    createdTime: '2024-03-01T08:00:00.000Z',
    lastEditedTime: '2024-04-01T09:00:00.000Z',
    tags: ['Product', 'Q3 plans'],
    blocks: [{ id: 'r01', type: 'paragraph', content: rich(text('Ship it.')) }],
  },
  {
    id: OLD,
    title: 'Old page',
    createdTime: '2023-12-01T08:00:00.000Z',
    lastEditedTime: '2024-01-01T00:00:00.000Z',
    blocks: [],
  },
];

const MEETING_MARKDOWN = [
  '# Agenda',
  '',
  'Discuss **budget** and *hiring* (see [docs](https://example.org/docs), run `npm test`) with [[Roadmap]] #planning',
  '',
  '- First',
  '  - Nested',
  '  - Also nested',
  '  - Third nested',
  '- Second',
  '',
  '1. One',
  '2. Two',
  '',
  '- [x] Done thing',
  '- [ ] Open thing',
  '',
  '```javascript',
  'const a = 1;',
  'console.log(a);',
  '```',
  '',
  '> Quoted',
  '',
  '---',
  '',
  '![A cat](https://images.example.org/cat.png)',
  '',
  `![Chart](CHART)`,
  '',
  '## Details',
  '',
  '### More',
  '',
  '[[Roadmap]]',
].join('\n');

const client = () =>
  createNotionClient(TOKEN, { baseUrl: server.baseUrl, retry: { maxRetries: 2 } });

beforeAll(async () => {
  server = await startNotionServer({ token: TOKEN, pageSize: 2 });
});

beforeEach(() => {
  server.pages.clear();
  for (const page of pages(server.baseUrl)) server.pages.set(page.id, page);
  server.seen.length = 0;
});

afterAll(async () => {
  await server?.close();
});

const key = (id: string) => id.replace(/-/g, '');

describe('syncing from a Notion integration with the official SDK', () => {
  it('reads every page it can see, its nested blocks as Markdown, titles, tags and dates', async () => {
    const result = await notionSync({ client: client() });
    expect(result.notes.map((note) => note.title)).toEqual([
      'Meeting notes',
      'Roadmap',
      'Old page',
    ]);
    const meeting = result.notes[0]!;
    expect(meeting).toMatchObject({
      sourcePath: `notion:${key(MEETING)}`,
      key: key(MEETING),
      tags: ['planning'],
      createdAt: '2024-04-30T08:00:00.000Z',
      updatedAt: '2024-05-01T10:00:00.000Z',
    });
    expect(meeting.body).toBe(
      MEETING_MARKDOWN.replace('CHART', `${server.baseUrl}/files/chart.png?X-Amz-Signature=abc`),
    );
    expect(result.notes[1]).toMatchObject({ body: 'Ship it.', tags: ['Product', 'Q3-plans'] });
    expect(result.state).toEqual({ cursor: '2024-05-01T10:00:00.000Z' });
    expect(result.complete).toBe(true);

    // The wire: the SDK's Notion-Version on every call, the bearer token, pages of results.
    expect(new Set(server.seen.map((request) => request.notionVersion))).toEqual(
      new Set(['2025-09-03']),
    );
    const searches = server.seen.filter((request) => request.path === '/v1/search');
    expect(searches.map((request) => request.body)).toEqual([
      {
        filter: { property: 'object', value: 'page' },
        sort: { timestamp: 'last_edited_time', direction: 'descending' },
        page_size: 100,
      },
      expect.objectContaining({ start_cursor: expect.any(String) }),
    ]);
    const meetingReads = server.seen.filter((r) => r.path === `/v1/blocks/${MEETING}/children`);
    expect(meetingReads.length).toBe(9);
    expect(meetingReads.slice(1).every((r) => r.query.get('start_cursor'))).toBe(true);
    expect(server.seen.some((r) => r.path === '/v1/blocks/b03/children')).toBe(true);
    expect(server.seen.some((r) => r.path === '/v1/blocks/b19/children')).toBe(false);
  });

  it('on the next run reads only pages edited since, the cursor’s own minute again', async () => {
    const first = await notionSync({ client: client() });
    const old = server.pages.get(OLD)!;
    old.lastEditedTime = '2024-05-02T08:00:00.000Z';
    old.blocks = [{ id: 'o01', type: 'paragraph', content: rich(text('Edited at last.')) }];

    const second = await notionSync({ client: client(), state: first.state });
    expect(second.notes.map((note) => [note.title, note.body])).toEqual([
      ['Old page', 'Edited at last.'],
      ['Meeting notes', expect.any(String)],
    ]);
    expect(second.state).toEqual({ cursor: '2024-05-02T08:00:00.000Z' });

    const third = await notionSync({ client: client(), state: second.state });
    expect(third.notes.map((note) => note.title)).toEqual(['Old page']);
  });

  it('leaves out, unparsed, a page whose text nests past what a Markdown reader takes', async () => {
    const old = server.pages.get(OLD)!;
    old.lastEditedTime = '2024-05-03T08:00:00.000Z';
    // Plain text Notion keeps as typed: 2,000 `>` a line begin 2,000 nested quotes.
    old.blocks = [{ id: 'o02', type: 'paragraph', content: rich(text(`${'>'.repeat(2_000)} [x`)) }];
    const result = await notionSync({ client: client() });
    expect(result.notes.map((note) => note.title)).not.toContain('Old page');
    expect(result.failed).toContainEqual({ page: key(OLD), code: 'TOO_COMPLEX' });
  });

  it('plans the same note ids every run, and the same as importing the Notion export', async () => {
    const userId = 'b9f1e5c2-7d34-4e8a-9c61-2f0a8b3d4e57';
    const first = await notionSync({ client: client() });
    const firstPlan = await planNotionSync({ userId, result: first, existing: new Set() });
    expect(firstPlan.toCreate).toBe(3);

    const again = await notionSync({ client: client(), state: { cursor: null } });
    const againPlan = await planNotionSync({
      userId,
      result: again,
      existing: new Set(firstPlan.notes.map((note) => note.id)),
    });
    expect(againPlan.notes.map((note) => note.id)).toEqual(firstPlan.notes.map((note) => note.id));
    expect([againPlan.toCreate, againPlan.toUpdate]).toEqual([0, 3]);

    const exported = notionExportNotes([
      { path: `Meeting notes ${key(MEETING)}.md`, bytes: Buffer.from('# Meeting notes\n\nx') },
    ]).notes[0]!;
    expect(importNoteId(userId, 'notion', exported.key)).toBe(
      firstPlan.notes.find((note) => note.title === 'Meeting notes')!.id,
    );
  });

  it('downloads images kept in Notion’s storage for the image pipeline, and links others', async () => {
    const result: NotionSyncResult = await notionSync({
      client: client(),
      images: { download: true },
    });
    const path = `notion/${key(CHART)}.png`;
    expect([...result.files.keys()]).toEqual([path]);
    expect(Buffer.from(result.files.get(path)!).equals(PNG_1X1)).toBe(true);
    const meeting = result.notes[0]!;
    expect(meeting.body).toBe(MEETING_MARKDOWN.replace('CHART', path));
    expect(meeting.imageRefs).toEqual([path]);

    const plan = await planNotionSync({ userId: 'u', result, existing: new Set() });
    expect(plan.notes[0]!.images.map((image) => image.path)).toEqual([path]);
  });

  it('says who the token is, for the settings page', async () => {
    expect(await notionIdentity(client())).toEqual({
      name: 'Noted sync',
      botId: '92a680bb-6970-4726-952b-4f4c03bff617',
      workspaceName: 'Acme Notes',
      workspaceId: 'w1',
    });
  });

  it('answers a refused token with FORBIDDEN NOTION_UNAUTHORIZED, never naming the token', async () => {
    const wrong = createNotionClient('ntn_wrong_token_value', { baseUrl: server.baseUrl });
    const error = await notionSync({ client: wrong }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'FORBIDDEN',
      status: 403,
      details: { reason: 'NOTION_UNAUTHORIZED' },
    });
    expect(JSON.stringify(error) + String(error)).not.toContain('ntn_wrong_token_value');
    expect(server.seen.at(-1)).toMatchObject({ path: '/v1/search', status: 401 });
    await expect(notionIdentity(wrong)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('waits as Retry-After says when Notion rate-limits, then goes on (the SDK’s retry)', async () => {
    server.rateLimitSearches(1);
    const started = Date.now();
    const result = await notionSync({ client: client() });
    expect(result.notes).toHaveLength(3);
    const searches = server.seen.filter((request) => request.path === '/v1/search');
    expect(searches.map((request) => request.status)).toEqual([429, 200, 200]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('gives RATE_LIMITED when Notion keeps refusing past the retries', async () => {
    server.rateLimitSearches(5);
    const impatient = createNotionClient(TOKEN, {
      baseUrl: server.baseUrl,
      retry: { maxRetries: 1, maxRetryDelayMs: 10 },
    });
    await expect(notionSync({ client: impatient })).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      details: { reason: 'NOTION_RATE_LIMITED' },
    });
    server.rateLimitSearches(0);
  });
});
