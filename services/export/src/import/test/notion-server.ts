import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PNG_1X1 } from './zip.js';

/** A request the server answered, as the tests look at it. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  notionVersion: string | undefined;
  body: Record<string, unknown> | undefined;
  status: number;
}

type Json = Record<string, unknown>;

const user = { object: 'user', id: '6794760a-1f15-45cd-9c65-0dfe42f5135a' };

/** A rich text run as the API answers it. */
export const text = (
  content: string,
  options: {
    bold?: boolean;
    italic?: boolean;
    code?: boolean;
    strike?: boolean;
    link?: string;
  } = {},
): Json => ({
  type: 'text',
  text: { content, link: options.link ? { url: options.link } : null },
  annotations: {
    bold: options.bold ?? false,
    italic: options.italic ?? false,
    strikethrough: options.strike ?? false,
    underline: false,
    code: options.code ?? false,
    color: 'default',
  },
  plain_text: content,
  href: options.link ?? null,
});

/** A mention of a page, as the API answers it: its plain text is the page's title. */
export const pageMention = (pageId: string, title: string): Json => ({
  type: 'mention',
  mention: { type: 'page', page: { id: pageId } },
  annotations: {
    bold: false,
    italic: false,
    strikethrough: false,
    underline: false,
    code: false,
    color: 'default',
  },
  plain_text: title,
  href: `https://www.notion.so/${pageId.replace(/-/g, '')}`,
});

export interface FakeBlock {
  id: string;
  type: string;
  content: Json;
  children?: FakeBlock[];
}

export interface FakePage {
  id: string;
  title: string;
  createdTime: string;
  lastEditedTime: string;
  tags?: string[];
  inTrash?: boolean;
  blocks: FakeBlock[];
}

const blockObject = (block: FakeBlock, parentId: string, time: string): Json => ({
  object: 'block',
  id: block.id,
  parent: { type: 'page_id', page_id: parentId },
  created_time: time,
  last_edited_time: time,
  created_by: user,
  last_edited_by: user,
  has_children: (block.children?.length ?? 0) > 0,
  archived: false,
  in_trash: false,
  type: block.type,
  [block.type]: block.content,
});

const pageObject = (page: FakePage): Json => ({
  object: 'page',
  id: page.id,
  created_time: page.createdTime,
  last_edited_time: page.lastEditedTime,
  created_by: user,
  last_edited_by: user,
  cover: null,
  icon: null,
  parent: page.tags
    ? {
        type: 'data_source_id',
        data_source_id: '248104cd-477e-80af-bc30-000bd28de8f9',
        database_id: '248104cd-477e-80fd-b757-e945d38000bd',
      }
    : { type: 'workspace', workspace: true },
  archived: page.inTrash ?? false,
  in_trash: page.inTrash ?? false,
  is_locked: false,
  properties: {
    Name: { id: 'title', type: 'title', title: [text(page.title)] },
    ...(page.tags
      ? {
          Tags: {
            id: 'Tg%3D',
            type: 'multi_select',
            multi_select: page.tags.map((name, i) => ({ id: `opt-${i}`, name, color: 'blue' })),
          },
        }
      : {}),
  },
  url: `https://www.notion.so/${page.title.replace(/\W+/g, '-')}-${page.id.replace(/-/g, '')}`,
  public_url: null,
});

/**
 * A local server speaking the Notion API's wire format for what a sync uses: `POST /v1/search`
 * and `GET /v1/blocks/:id/children` paginated with `start_cursor`, `has_more`, `next_cursor`
 * (at most `pageSize` results a page, whatever is asked), `GET /v1/users/me`, bearer tokens
 * (401 `unauthorized` in Notion's error JSON otherwise), and a 429 `rate_limited` with
 * Retry-After when asked to. Files "in Notion's storage" are served under `/files/`.
 */
export const startNotionServer = async (options: { token: string; pageSize?: number }) => {
  const pages = new Map<string, FakePage>();
  const seen: SeenRequest[] = [];
  const serverPageSize = options.pageSize ?? 2;
  let rateLimitNext = 0;

  const blocksOf = (
    id: string,
  ): { parent: string; time: string; blocks: FakeBlock[] } | undefined => {
    for (const page of pages.values()) {
      if (page.id === id)
        return { parent: page.id, time: page.lastEditedTime, blocks: page.blocks };
      const stack = [...page.blocks];
      while (stack.length > 0) {
        const block = stack.pop()!;
        if (block.id === id)
          return { parent: block.id, time: page.lastEditedTime, blocks: block.children ?? [] };
        stack.push(...(block.children ?? []));
      }
    }
    return undefined;
  };

  const paginate = (items: Json[], startCursor: string | null, asked: number | undefined) => {
    const size = Math.min(asked ?? 100, serverPageSize);
    const from =
      startCursor === null ? 0 : Number(Buffer.from(startCursor, 'base64url').toString());
    const slice = items.slice(from, from + size);
    const more = from + size < items.length;
    return {
      object: 'list',
      results: slice,
      next_cursor: more ? Buffer.from(String(from + size)).toString('base64url') : null,
      has_more: more,
    };
  };

  const send = (
    res: ServerResponse,
    status: number,
    body: Json,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
    return status;
  };
  const error = (
    res: ServerResponse,
    status: number,
    code: string,
    message: string,
    headers = {},
  ) =>
    send(
      res,
      status,
      {
        object: 'error',
        status,
        code,
        message,
        request_id: 'c3b4e1a2-0000-4000-8000-000000000000',
      },
      headers,
    );

  const handle = async (
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    body: Json | undefined,
  ) => {
    if (url.pathname.startsWith('/files/')) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(PNG_1X1.length) });
      res.end(PNG_1X1);
      return 200;
    }
    if (req.headers.authorization !== `Bearer ${options.token}`) {
      return error(res, 401, 'unauthorized', 'API token is invalid.');
    }
    if (req.method === 'POST' && url.pathname === '/v1/search') {
      if (rateLimitNext > 0) {
        rateLimitNext -= 1;
        return error(
          res,
          429,
          'rate_limited',
          'You have been rate limited. Please try again in a few minutes.',
          {
            'retry-after': '1',
          },
        );
      }
      const filter = body?.filter as { value?: string } | undefined;
      const sort = body?.sort as { direction?: string } | undefined;
      const found = [...pages.values()]
        .filter(() => filter?.value === 'page')
        .sort((a, b) =>
          sort?.direction === 'ascending'
            ? a.lastEditedTime.localeCompare(b.lastEditedTime)
            : b.lastEditedTime.localeCompare(a.lastEditedTime),
        )
        .map(pageObject);
      const list = paginate(
        found,
        (body?.start_cursor as string | undefined) ?? null,
        body?.page_size as number | undefined,
      );
      return send(res, 200, { ...list, type: 'page_or_data_source', page_or_data_source: {} });
    }
    const children = /^\/v1\/blocks\/([^/]+)\/children$/.exec(url.pathname);
    if (req.method === 'GET' && children) {
      const id = decodeURIComponent(children[1]!);
      const found = blocksOf(id);
      if (!found)
        return error(res, 404, 'object_not_found', `Could not find block with ID: ${id}.`);
      const items = found.blocks.map((block) => blockObject(block, found.parent, found.time));
      const pageSize = url.searchParams.get('page_size');
      const list = paginate(
        items,
        url.searchParams.get('start_cursor'),
        pageSize ? Number(pageSize) : undefined,
      );
      return send(res, 200, { ...list, type: 'block', block: {} });
    }
    if (req.method === 'GET' && url.pathname === '/v1/users/me') {
      return send(res, 200, {
        object: 'user',
        id: '92a680bb-6970-4726-952b-4f4c03bff617',
        name: 'Noted sync',
        avatar_url: null,
        type: 'bot',
        bot: {
          owner: { type: 'workspace', workspace: true },
          workspace_name: 'Acme Notes',
          workspace_id: 'w1',
          workspace_limits: { max_file_upload_size_in_bytes: 5242880 },
        },
      });
    }
    return error(res, 400, 'invalid_request_url', 'Invalid request URL.');
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const raw = Buffer.concat(chunks).toString();
      const body = raw === '' ? undefined : (JSON.parse(raw) as Json);
      void handle(req, res, url, body).then((status) =>
        seen.push({
          method: req.method ?? '',
          path: url.pathname,
          query: url.searchParams,
          notionVersion: req.headers['notion-version'] as string | undefined,
          body,
          status,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    pages,
    seen,
    /** Answers the next `count` searches with 429 and Retry-After: 1. */
    rateLimitSearches: (count: number) => {
      rateLimitNext = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

export type NotionServer = Awaited<ReturnType<typeof startNotionServer>>;
