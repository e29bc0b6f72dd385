import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createNotionClient, notionIdentity, notionSync } from './notion-sync.js';

const TOKEN = 'ntn_test_0123456789abcdefghijklmnopqrstuvwxyzABCD';

const me = JSON.stringify({
  object: 'user',
  id: '92a680bb-6970-4726-952b-4f4c03bff617',
  name: 'Noted sync',
  avatar_url: null,
  type: 'bot',
  bot: {
    owner: { type: 'workspace', workspace: true },
    workspace_name: 'Acme',
    workspace_id: 'w1',
  },
});

const emptySearch = JSON.stringify({
  object: 'list',
  results: [],
  next_cursor: null,
  has_more: false,
  type: 'page_or_data_source',
  page_or_data_source: {},
});

/** A Notion that sends its headers at once, then the answer a byte a second (five minutes of spaces first). */
const startSlowNotion = async () => {
  const seen: { method: string; path: string; status: number }[] = [];
  const state = { closedEarly: 0, serverErrorsFirst: 0 };
  const trickle = (res: ServerResponse, body: string) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
    const bytes = Buffer.from(' '.repeat(300) + body);
    let sent = 0;
    const timer = setInterval(() => {
      res.write(bytes.subarray(sent, sent + 1));
      sent += 1;
      if (sent === bytes.length) {
        clearInterval(timer);
        res.end();
      }
    }, 1_000);
    res.on('close', () => {
      clearInterval(timer);
      if (!res.writableFinished) state.closedEarly += 1;
    });
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const method = req.method ?? 'GET';
      if (state.serverErrorsFirst > 0) {
        state.serverErrorsFirst -= 1;
        seen.push({ method, path, status: 503 });
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'error',
            status: 503,
            code: 'service_unavailable',
            message: 'Notion is unavailable.',
          }),
        );
        return;
      }
      seen.push({ method, path, status: 200 });
      trickle(res, path === '/v1/search' ? emptySearch : me);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    state,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

describe('Notion calls under a deadline', () => {
  let notion: Awaited<ReturnType<typeof startSlowNotion>>;
  const timedOut = {
    code: 'UPSTREAM_UNAVAILABLE',
    details: { reason: 'NOTION_UNAVAILABLE', notionCode: 'notionhq_client_request_timeout' },
  };

  beforeAll(async () => {
    notion = await startSlowNotion();
  });
  beforeEach(() => {
    notion.seen.length = 0;
    notion.state.closedEarly = 0;
    notion.state.serverErrorsFirst = 0;
  });
  afterAll(() => notion.close());

  it('cuts an answer trickled a byte a second at the deadline, and closes the connection', async () => {
    const client = createNotionClient(TOKEN, { baseUrl: notion.baseUrl, timeoutMs: 1_000 });

    await expect(notionIdentity(client)).rejects.toMatchObject(timedOut);
    await vi.waitFor(() => expect(notion.state.closedEarly).toBe(1));
  });

  it('stops a sync whose search Notion trickles, with the same error', async () => {
    const client = createNotionClient(TOKEN, { baseUrl: notion.baseUrl, timeoutMs: 1_000 });

    await expect(notionSync({ client })).rejects.toMatchObject(timedOut);
    expect(notion.seen).toEqual([{ method: 'POST', path: '/v1/search', status: 200 }]);
    await vi.waitFor(() => expect(notion.state.closedEarly).toBe(1));
  });

  it('gives a retry after a 503 a deadline of its own and never retries a timeout', async () => {
    notion.state.serverErrorsFirst = 1;
    const client = createNotionClient(TOKEN, {
      baseUrl: notion.baseUrl,
      timeoutMs: 1_000,
      retry: { maxRetries: 3, initialRetryDelayMs: 10, maxRetryDelayMs: 10 },
    });

    await expect(notionIdentity(client)).rejects.toMatchObject(timedOut);
    expect(notion.seen.map((request) => request.status)).toEqual([503, 200]);
    await vi.waitFor(() => expect(notion.state.closedEarly).toBe(1));
  });
});
