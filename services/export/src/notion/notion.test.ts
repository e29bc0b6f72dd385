import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NotionConnection } from '@noted/api';
import { openDatabase, type Database } from '@noted/db';
import { IDENTITY_HEADER, createLogger, signIdentity, type Identity } from '@noted/kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exportConfigFrom, exportConfigSchema } from '../config.js';
import { notesStore } from '../import/test/notes-store.js';
import {
  startNotionServer,
  text,
  type FakePage,
  type NotionServer,
} from '../import/test/notion-server.js';
import { exportMigrations } from '../migrations.js';
import type { NotesPort } from '../notes-port.js';
import { startExport, type RunningExport } from '../service.js';
import { forgetNotionUser } from './forget.js';
import { notionRepository } from './repository.js';
import { notionSyncDue, type NotionContext } from './sync.js';
import { tokenBox } from './token-box.js';

const logger = createLogger({ level: 'silent' });
const secret = 's'.repeat(48);
const TOKEN = 'ntn_test_0123456789abcdefghijklmnopqrstuvwxyzABCD';
const MEETING = '3a1f0c2e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
const ROADMAP = '7c2d9e8f-1a2b-4c3d-9e4f-5a6b7c8d9e0f';
const OLD = 'b4c5d6e7-f8a9-4b0c-8d1e-2f3a4b5c6d7e';

const paragraph = (id: string, words: string) => ({
  id,
  type: 'paragraph',
  content: { rich_text: [text(words)], color: 'default' },
});

const pages = (): FakePage[] => [
  {
    id: MEETING,
    title: 'Meeting notes',
    createdTime: '2024-04-30T08:00:00.000Z',
    lastEditedTime: '2024-05-01T10:00:00.000Z',
    blocks: [paragraph('m1', 'Discuss the budget #planning')],
  },
  {
    id: ROADMAP,
    title: 'Roadmap',
    createdTime: '2024-03-01T08:00:00.000Z',
    lastEditedTime: '2024-04-01T09:00:00.000Z',
    tags: ['Product'],
    blocks: [paragraph('r1', 'Ship it.')],
  },
  {
    id: OLD,
    title: 'Old page',
    createdTime: '2023-12-01T08:00:00.000Z',
    lastEditedTime: '2024-01-01T00:00:00.000Z',
    blocks: [paragraph('o1', 'Old words.')],
  },
];

let server: NotionServer;
beforeAll(async () => {
  server = await startNotionServer({ token: TOKEN, pageSize: 2 });
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  server.pages.clear();
  for (const page of pages()) server.pages.set(page.id, page);
  server.seen.length = 0;
});

/** Each user's notes, as the notes service keeps them, written through the import's port. */
const notesOf = (limits: Record<string, number> = {}) => {
  const stores = new Map<string, ReturnType<typeof notesStore>>();
  const storeOf = (userId: string) => {
    let store = stores.get(userId);
    if (!store) {
      store = notesStore(limits[userId] !== undefined ? { notesLeft: limits[userId] } : {});
      stores.set(userId, store);
    }
    return store;
  };
  const as: Identity[] = [];
  const port: NotesPort = {
    as: (identity) => {
      as.push(identity);
      const store = storeOf(identity.userId);
      return {
        ...store.port,
        existing: async (ids) => ids.filter((id) => store.notes.has(id)),
        notesLeft: async () => (Number.isFinite(store.left()) ? store.left() : null),
      };
    },
  };
  return { port, storeOf, as };
};

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'noted-notion-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('the Notion connection, through the export service', () => {
  let service: RunningExport;
  let notes: ReturnType<typeof notesOf>;
  const alice = randomUUID();
  const bob = randomUUID();
  const carol = randomUUID();
  const answers: string[] = [];

  beforeAll(async () => {
    notes = notesOf({ [carol]: 2 });
    const config = exportConfigFrom(
      exportConfigSchema.parse({
        EXPORT_HTTP_PORT: '0',
        EXPORT_GRPC_ADDR: '127.0.0.1:0',
        NOTION_API_URL: server.baseUrl,
      }),
      {
        host: '127.0.0.1',
        internalSecret: secret,
        publicUrl: 'https://noted.test',
        dataDir: await tempDir(),
      },
    );
    service = await startExport(config, {
      logger,
      notesPort: notes.port,
      // The schedule is driven by the tests below (notionSyncDue), not by the clock.
      notionPollMs: 3_600_000,
      notes: {
        note: async () => {
          throw new Error('not read here');
        },
        scan: async () => ({ notes: [], total: 0 }),
        image: async () => undefined,
        close: () => {},
      },
    });
  });
  afterAll(async () => {
    await service?.stop();
    // Whatever any route answered, the token was never in it.
    expect(answers.length).toBeGreaterThan(10);
    for (const answer of answers) expect(answer).not.toContain(TOKEN);
  });

  const call = async (userId: string, method: string, path: string, body?: unknown) => {
    const identity = { userId, sub: `sub-${userId}`, email: `${userId}@example.com`, name: 'T' };
    const response = await fetch(`${service.httpUrl}/export/import/notion${path}`, {
      method,
      headers: {
        [IDENTITY_HEADER]: await signIdentity(secret, identity),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const raw = await response.text();
    answers.push(raw);
    return { status: response.status, body: raw === '' ? undefined : JSON.parse(raw) };
  };
  const state = async (userId: string) => (await call(userId, 'GET', '')).body as NotionConnection;
  /** The state once the run under way has ended. */
  const settled = async (userId: string) => {
    for (let tries = 0; tries < 200; tries++) {
      const now = await state(userId);
      if (now.status !== 'syncing') return now;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the sync did not end');
  };
  const titles = (userId: string) =>
    [...notes.storeOf(userId).notes.values()].map((note) => note.title).sort();

  it('refuses a token Notion refuses with NOTION_TOKEN_INVALID, and keeps nothing', async () => {
    const answer = await call(alice, 'PUT', '', { token: 'ntn_wrong_token_value' });
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('NOTION_TOKEN_INVALID');
    expect(JSON.stringify(answer.body)).not.toContain('ntn_wrong_token_value');
    expect(await state(alice)).toEqual({ connected: false, status: 'idle', pagesSynced: 0 });
    expect(server.seen.map((request) => request.path)).toEqual(['/v1/users/me']);
  });

  it('connects with a good token, shows the workspace, and syncs the pages into notes', async () => {
    const answer = await call(alice, 'PUT', '', { token: TOKEN });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      connected: true,
      workspaceName: 'Acme Notes',
      status: 'syncing',
    });
    const after = await settled(alice);
    expect(after).toMatchObject({ connected: true, status: 'idle', pagesSynced: 3 });
    expect(after.lastError).toBeUndefined();
    const next = Date.parse(after.nextSyncAt ?? '') - Date.parse(after.lastSyncAt ?? '');
    expect(next).toBeGreaterThan(59 * 60_000);
    expect(next).toBeLessThan(61 * 60_000);
    expect(titles(alice)).toEqual(['Meeting notes', 'Old page', 'Roadmap']);
    const meeting = [...notes.storeOf(alice).notes.values()].find(
      (n) => n.title === 'Meeting notes',
    );
    expect(meeting).toMatchObject({ note: 'Discuss the budget #planning', tags: ['planning'] });
    // Written as alice, with the identity the gateway vouched for when she connected.
    expect(notes.as.at(-1)).toEqual({
      userId: alice,
      sub: `sub-${alice}`,
      email: `${alice}@example.com`,
      name: 'T',
    });
  });

  it('updates a page changed in Notion on the next sync, with no duplicate', async () => {
    const old = server.pages.get(OLD)!;
    old.lastEditedTime = '2024-06-01T08:00:00.000Z';
    old.blocks = [paragraph('o2', 'Edited at last.')];
    const store = notes.storeOf(alice);
    const calls = store.calls.length;

    const answer = await call(alice, 'POST', '/sync');
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ connected: true, status: 'syncing' });
    expect(await settled(alice)).toMatchObject({ status: 'idle', pagesSynced: 3 });
    expect(store.notes.size).toBe(3);
    const edited = [...store.notes.values()].find((note) => note.title === 'Old page');
    expect(edited?.note).toBe('Edited at last.');
    const made = store.calls.slice(calls);
    expect(made.filter((c) => c.startsWith('create'))).toEqual([]);
    expect(made).toContain(`update ${edited?.id}`);
    // Only what changed since the last run is written: Old page, and Meeting notes, edited in
    // the minute the last run read up to (Notion's edit times are to the minute), not Roadmap.
    const roadmap = [...store.notes.values()].find((note) => note.title === 'Roadmap');
    expect(made.filter((c) => c.startsWith('update')).sort()).toHaveLength(2);
    expect(made).not.toContain(`update ${roadmap?.id}`);
  });

  it("keeps another user's connection out of sight and out of reach", async () => {
    expect(await state(bob)).toEqual({ connected: false, status: 'idle', pagesSynced: 0 });
    const sync = await call(bob, 'POST', '/sync');
    expect(sync.status).toBe(409);
    expect(sync.body.error.code).toBe('NOT_CONNECTED');
    expect((await call(bob, 'DELETE', '')).status).toBe(204);
    expect(await state(alice)).toMatchObject({ connected: true, pagesSynced: 3 });
    expect(titles(bob)).toEqual([]);
  });

  it('makes what the month allows, in order, and keeps updating what it made', async () => {
    expect((await call(carol, 'PUT', '', { token: TOKEN })).status).toBe(200);
    const first = await settled(carol);
    expect(first).toMatchObject({
      status: 'idle',
      lastError: 'NOTES_LEFT_NOT_ENOUGH',
      pagesSynced: 2,
    });
    // In plan order (by page id): Meeting notes (3a…), Roadmap (7c…); Old page (b4…) waits.
    expect(titles(carol)).toEqual(['Meeting notes', 'Roadmap']);

    server.pages.get(MEETING)!.blocks = [paragraph('m2', 'Budget agreed.')];
    expect((await call(carol, 'POST', '/sync')).status).toBe(202);
    const second = await settled(carol);
    expect(second).toMatchObject({ lastError: 'NOTES_LEFT_NOT_ENOUGH', pagesSynced: 2 });
    const meeting = [...notes.storeOf(carol).notes.values()].find(
      (n) => n.title === 'Meeting notes',
    );
    expect(meeting?.note).toBe('Budget agreed.');
    expect(notes.storeOf(carol).left()).toBe(0);
  });

  it('forgets the token and the state on disconnect, and keeps the notes', async () => {
    expect((await call(alice, 'DELETE', '')).status).toBe(204);
    expect(await state(alice)).toEqual({ connected: false, status: 'idle', pagesSynced: 0 });
    expect(titles(alice)).toEqual(['Meeting notes', 'Old page', 'Roadmap']);
    expect((await call(alice, 'POST', '/sync')).status).toBe(409);
  });
});

describe('connecting while Notion cannot be reached', () => {
  it('answers 502 UPSTREAM_UNAVAILABLE and keeps nothing', async () => {
    const config = exportConfigFrom(
      exportConfigSchema.parse({
        EXPORT_HTTP_PORT: '0',
        EXPORT_GRPC_ADDR: '127.0.0.1:0',
        NOTION_API_URL: 'http://127.0.0.1:1',
      }),
      {
        host: '127.0.0.1',
        internalSecret: secret,
        publicUrl: 'https://noted.test',
        dataDir: await tempDir(),
      },
    );
    const service = await startExport(config, { logger, notesPort: notesOf().port });
    try {
      const headers = {
        [IDENTITY_HEADER]: await signIdentity(secret, {
          userId: randomUUID(),
          sub: 's',
          email: 'e@example.com',
          name: 'n',
        }),
      };
      const url = `${service.httpUrl}/export/import/notion`;
      const answer = await fetch(url, {
        method: 'PUT',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ token: TOKEN }),
      });
      expect(answer.status).toBe(502);
      const body = await answer.text();
      expect(JSON.parse(body).error.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(body).not.toContain(TOKEN);
      expect(await (await fetch(url, { headers })).json()).toMatchObject({ connected: false });
    } finally {
      await service.stop();
    }
  });
});

describe('the schedule', () => {
  let db: Database;
  let ctx: NotionContext;
  let notes: ReturnType<typeof notesOf>;
  const tokens = tokenBox(secret);

  beforeAll(async () => {
    db = await openDatabase({
      dataDir: await tempDir(),
      schema: 'export',
      migrations: exportMigrations,
      logger,
    });
    await db.migrate();
  });
  afterAll(async () => {
    await db?.close();
  });
  beforeEach(() => {
    notes = notesOf();
    ctx = {
      repository: notionRepository(db.knex),
      tokens,
      apiUrl: server.baseUrl,
      intervalMinutes: 60,
      notesAs: (identity) => notes.port.as(identity),
      logger,
      running: new Set(),
    };
  });

  /** A connection whose run is due, as a finished run leaves it. */
  const connected = async (token = TOKEN) => {
    const userId = randomUUID();
    const claim = randomUUID();
    await ctx.repository.connect(
      {
        userId,
        sub: `sub-${userId}`,
        email: 'a@example.com',
        name: 'A',
        token: tokens.seal(token),
        workspaceId: 'w1',
        workspaceName: 'Acme Notes',
        botId: 'bot',
      },
      claim,
    );
    await ctx.repository.finish(userId, claim, {
      status: 'idle',
      cursor: null,
      lastError: null,
      nextSyncAt: new Date(Date.now() - 1000),
      pages: [],
    });
    return userId;
  };
  const searches = () => server.seen.filter((request) => request.path === '/v1/search').length;

  it('syncs a due connection once when two replicas look at the same time', async () => {
    const userId = await connected();
    const runs = await Promise.all([notionSyncDue(ctx), notionSyncDue(ctx)]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    // One run: one search, paged by two.
    expect(searches()).toBe(2);
    expect(notes.storeOf(userId).notes.size).toBe(3);
    const row = await ctx.repository.find(userId);
    expect(row).toMatchObject({
      status: 'idle',
      last_error: null,
      cursor: '2024-05-01T10:00:00.000Z',
    });
    expect(row!.next_sync_at!.getTime()).toBeGreaterThan(Date.now() + 59 * 60_000);
    expect(await ctx.repository.pagesSynced(userId)).toBe(3);
    // Not due again until its next time.
    expect(await notionSyncDue(ctx)).toBe(0);
    // The token is kept sealed.
    expect(row!.token.includes(Buffer.from(TOKEN))).toBe(false);
    expect(tokens.open(row!.token)).toBe(TOKEN);
  });

  it('leaves a run under way alone until its lease runs out', async () => {
    const userId = await connected();
    const claimed = await ctx.repository.claimOne(userId, randomUUID(), 1800);
    expect(claimed?.status).toBe('syncing');
    expect(await notionSyncDue(ctx)).toBe(0);
    expect(await ctx.repository.claimOne(userId, randomUUID(), 1800)).toBeUndefined();
    // The process running it died: an hour later the connection is claimable again.
    await db
      .knex('notion_connections')
      .where({ user_id: userId })
      .update({ claimed_at: new Date(Date.now() - 3_600_000) });
    expect(await notionSyncDue(ctx)).toBe(1);
    // The dead run's outcome, were it to arrive now, is not kept over the newer one.
    expect(
      await ctx.repository.finish(userId, claimed!.claim!, {
        status: 'failed',
        cursor: null,
        lastError: 'INTERNAL',
        nextSyncAt: null,
        pages: [],
      }),
    ).toBe(false);
    expect(await ctx.repository.find(userId)).toMatchObject({ status: 'idle', last_error: null });
  });

  it('stops at a revoked token: failed, NOTION_TOKEN_INVALID, and Notion is not asked again', async () => {
    const userId = await connected('ntn_revoked_since_0123456789');
    expect(await notionSyncDue(ctx)).toBe(1);
    expect(await ctx.repository.find(userId)).toMatchObject({
      status: 'failed',
      last_error: 'NOTION_TOKEN_INVALID',
      next_sync_at: null,
    });
    const asked = server.seen.length;
    expect(await notionSyncDue(ctx)).toBe(0);
    expect(server.seen.length).toBe(asked);
    expect(notes.storeOf(userId).notes.size).toBe(0);
  });

  it("forgets a user (account deletion): connection and pages, nobody else's", async () => {
    const gone = await connected();
    const kept = await connected();
    await notionSyncDue(ctx);
    await forgetNotionUser(db, gone);
    await forgetNotionUser(db, gone);
    expect(await ctx.repository.find(gone)).toBeUndefined();
    expect(await ctx.repository.pagesSynced(gone)).toBe(0);
    expect(await ctx.repository.find(kept)).toBeDefined();
    expect(await ctx.repository.pagesSynced(kept)).toBe(3);
  });
});
