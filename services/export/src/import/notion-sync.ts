import {
  AppError,
  hashTags,
  MARKDOWN_MAX_DEPTH,
  markdownDepth,
  NOTE_IMAGE_MAX_BYTES,
} from '@noted/api';
import {
  APIErrorCode,
  Client,
  isFullBlock,
  isFullPage,
  isNotionClientError,
  iteratePaginatedAPI,
  RequestTimeoutError,
  type BlockObjectResponse,
  type Logger,
  type PageObjectResponse,
  type RetryOptions,
} from '@notionhq/client';
import type { ImportedNote } from './markdown.js';
import { cleanTitle } from './markdown.js';
import { blocksMarkdown, type BlockNode } from './notion-blocks.js';
import { notionKey } from './notion-export.js';
import { planImport, type ExistingNotes, type ImportPlan, type PlanLimits } from './plan.js';
import { mergeTags, tagOf } from './tags.js';

/** What a sync keeps between runs: the newest `last_edited_time` it has read. */
export interface NotionSyncState {
  cursor: string | null;
}

export interface NotionSyncResult {
  /** Pages edited since the cursor, as notes keyed by page id (the export's keys too). */
  notes: ImportedNote[];
  /** Images downloaded from Notion's own storage, by the path the notes reference them at. */
  files: Map<string, Uint8Array>;
  /** Keys of pages found in Notion's trash (their notes are left as they are). */
  trashed: string[];
  /** Pages that could not be read (removed from the integration meanwhile, ...). */
  failed: { page: string; code: string }[];
  /** To keep for the next run; unchanged when the run stopped at `maxPages`. */
  state: NotionSyncState;
  /** False when more pages had changed than `maxPages`. */
  complete: boolean;
}

export interface NotionClientOptions {
  /** Where the API is; a local server in tests. */
  baseUrl?: string;
  /**
   * The most one attempt may take, from connecting to the answer's last byte; past it the call
   * fails with the SDK's RequestTimeoutError. The SDK never retries a timeout, only 429, 529 and
   * (for GET) 500 and 503, after waits of at most `retry.maxRetryDelayMs`: one call takes at most
   * (1 + maxRetries) × timeoutMs plus those waits, 3.5 min with the defaults (30 s, 2, 60 s).
   */
  timeoutMs?: number;
  retry?: RetryOptions | false;
  /** The SDK's log lines (never a token); silent by default. */
  logger?: Logger;
}

type NotionFetch = NonNullable<NonNullable<ConstructorParameters<typeof Client>[0]>['fetch']>;

/** The official SDK's client for one integration token. */
export const createNotionClient = (token: string, options: NotionClientOptions = {}): Client => {
  const timeoutMs = options.timeoutMs ?? 30_000;
  // The SDK's own timeout stops at the headers and it passes fetch no signal: a body sent a
  // byte a second would never end. This deadline covers the body as well.
  const fetchWithDeadline: NotionFetch = async (url, init) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const timedOut = (error: unknown) => (deadline.aborted ? new RequestTimeoutError() : error);
    try {
      const response = await fetch(url, {
        method: init?.method,
        headers: init?.headers,
        body: init?.body,
        signal: deadline,
      });
      return {
        ok: response.ok,
        status: response.status,
        headers: response.headers,
        body: response.body,
        text: () =>
          response.text().catch((error: unknown) => {
            throw timedOut(error);
          }),
      };
    } catch (error) {
      throw timedOut(error);
    }
  };
  return new Client({
    auth: token,
    timeoutMs,
    fetch: fetchWithDeadline,
    logger: options.logger ?? (() => undefined),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    ...(options.retry !== undefined ? { retry: options.retry } : {}),
  });
};

/**
 * A failure of Notion as an AppError with a stable code: a refused token is FORBIDDEN
 * (`details.reason` NOTION_UNAUTHORIZED; not 401, which would end the user's own session),
 * rate limiting that outlasted the SDK's retries RATE_LIMITED, anything else
 * UPSTREAM_UNAVAILABLE. The token never appears in a message.
 */
export const notionError = (error: unknown): AppError => {
  if (error instanceof AppError) return error;
  if (isNotionClientError(error)) {
    if (
      error.code === APIErrorCode.Unauthorized ||
      error.code === APIErrorCode.RestrictedResource
    ) {
      return new AppError(
        'FORBIDDEN',
        'Notion did not accept the integration token; connect Notion again with a valid one',
        { reason: 'NOTION_UNAUTHORIZED' },
      );
    }
    if (error.code === APIErrorCode.RateLimited) {
      return new AppError('RATE_LIMITED', 'Notion asks to slow down; the sync will try later', {
        reason: 'NOTION_RATE_LIMITED',
      });
    }
    return new AppError(
      'UPSTREAM_UNAVAILABLE',
      'Notion could not be read; the sync will try later',
      {
        reason: 'NOTION_UNAVAILABLE',
        notionCode: error.code,
      },
    );
  }
  return new AppError(
    'UPSTREAM_UNAVAILABLE',
    'Notion could not be reached; the sync will try later',
    {
      reason: 'NOTION_UNAVAILABLE',
    },
  );
};

/** Who the token is: the integration (its bot user) and its workspace, for the settings page. */
export const notionIdentity = async (
  client: Client,
): Promise<{
  name: string | null;
  botId: string;
  workspaceName: string | null;
  workspaceId: string | null;
}> => {
  try {
    const me = await client.users.me({});
    const bot = me.type === 'bot' && 'workspace_name' in me.bot ? me.bot : undefined;
    return {
      name: me.name ?? null,
      botId: me.id,
      workspaceName: bot?.workspace_name ?? null,
      workspaceId: bot && 'workspace_id' in bot ? (bot.workspace_id as string) : null,
    };
  } catch (error) {
    throw notionError(error);
  }
};

/** A page's title: its one property of type `title`. */
export const pageTitle = (page: PageObjectResponse): string => {
  for (const property of Object.values(page.properties)) {
    if (property.type === 'title') {
      return cleanTitle(property.title.map((item) => item.plain_text).join(''));
    }
  }
  return '';
};

const TAG_PROPERTIES = ['tags', 'tag', '标签'];

/** A database row's `Tags` (multi-select or select) as note tags. */
export const pageTags = (page: PageObjectResponse): string[] => {
  for (const [name, property] of Object.entries(page.properties)) {
    if (!TAG_PROPERTIES.includes(name.toLowerCase())) continue;
    const names =
      property.type === 'multi_select'
        ? property.multi_select.map((option) => option.name)
        : property.type === 'select' && property.select
          ? [property.select.name]
          : [];
    return names.map(tagOf).filter((tag): tag is string => tag !== undefined);
  }
  return [];
};

export interface NotionSyncOptions {
  client: Client;
  /** The previous run's state; none reads every page the integration sees. */
  state?: NotionSyncState;
  /** Downloads images kept in Notion's storage (their URLs expire after an hour). */
  images?: {
    download: boolean;
    fetch?: typeof fetch;
    maxBytes?: number;
  };
  /** Pages read in one run at most. */
  maxPages?: number;
  /** Blocks read of one page at most (nested ones included). */
  maxBlocksPerPage?: number;
  /** Nesting read at most. */
  maxDepth?: number;
  signal?: AbortSignal;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
};

const download = async (
  url: string,
  fetchImage: typeof fetch,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<{ bytes: Uint8Array; extension: string } | undefined> => {
  const response = await fetchImage(url, {
    signal: signal
      ? AbortSignal.any([signal, AbortSignal.timeout(30_000)])
      : AbortSignal.timeout(30_000),
  });
  const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  const extension = EXTENSIONS[type];
  if (!response.ok || !extension || !response.body) {
    await response.body?.cancel();
    return undefined;
  }
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body.cancel();
    return undefined;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) return undefined;
    chunks.push(chunk);
  }
  return { bytes: Buffer.concat(chunks), extension };
};

/**
 * Pulls the pages a Notion integration can see into notes, with the official SDK: pages found
 * by `search` (newest edit first, stopping at the cursor), each page's blocks read with their
 * nested children and turned into Markdown, titles from the title property, tags from a `Tags`
 * property, dates from the page. Incremental: with a state, only pages edited at or after its
 * cursor are read (Notion rounds edit times to the minute, so that minute is read again;
 * notes are keyed by page id, so reading a page twice updates one note). Run it on a schedule
 * and keep `state` between runs.
 */
export const notionSync = async (options: NotionSyncOptions): Promise<NotionSyncResult> => {
  const { client } = options;
  const cursor = options.state?.cursor ?? null;
  const maxPages = options.maxPages ?? 10_000;
  const maxBlocks = options.maxBlocksPerPage ?? 10_000;
  const maxDepth = options.maxDepth ?? 8;

  const pages: PageObjectResponse[] = [];
  const trashed: string[] = [];
  let newest = cursor;
  let complete = true;
  try {
    let startCursor: string | undefined;
    search: for (;;) {
      options.signal?.throwIfAborted();
      const response = await client.search({
        filter: { property: 'object', value: 'page' },
        sort: { timestamp: 'last_edited_time', direction: 'descending' },
        page_size: 100,
        ...(startCursor ? { start_cursor: startCursor } : {}),
      });
      for (const result of response.results) {
        if (!isFullPage(result as PageObjectResponse)) continue;
        const page = result as PageObjectResponse;
        if (cursor !== null && page.last_edited_time < cursor) break search;
        if (newest === null || page.last_edited_time > newest) newest = page.last_edited_time;
        if (page.in_trash || page.archived) {
          trashed.push(notionKey(page.id));
          continue;
        }
        if (pages.length === maxPages) {
          complete = false;
          break search;
        }
        pages.push(page);
      }
      if (!response.has_more || !response.next_cursor) break;
      startCursor = response.next_cursor;
    }
  } catch (error) {
    throw notionError(error);
  }

  const titles = new Map(pages.map((page) => [notionKey(page.id), pageTitle(page)]));
  const titleOf = (key: string) => titles.get(key);
  const files = new Map<string, Uint8Array>();
  const failed: NotionSyncResult['failed'] = [];
  const notes: ImportedNote[] = [];
  const fetchImage = options.images?.fetch ?? fetch;
  const maxImageBytes = options.images?.maxBytes ?? NOTE_IMAGE_MAX_BYTES;

  for (const page of pages) {
    options.signal?.throwIfAborted();
    const key = notionKey(page.id);
    let blocks: BlockNode[];
    try {
      let count = 0;
      const read = async (blockId: string, depth: number): Promise<BlockNode[]> => {
        const nodes: BlockNode[] = [];
        for await (const block of iteratePaginatedAPI(client.blocks.children.list, {
          block_id: blockId,
          page_size: 100,
        })) {
          if (!isFullBlock(block)) continue;
          count += 1;
          if (count > maxBlocks) break;
          // A child page or database is a page of its own: search finds it, it is not content.
          const nested =
            block.has_children &&
            depth < maxDepth &&
            block.type !== 'child_page' &&
            block.type !== 'child_database';
          nodes.push({ block, children: nested ? await read(block.id, depth + 1) : [] });
        }
        return nodes;
      };
      blocks = await read(page.id, 0);
    } catch (error) {
      const mapped = notionError(error);
      if (mapped.code !== 'UPSTREAM_UNAVAILABLE' || !isNotionClientError(error)) throw mapped;
      failed.push({ page: key, code: error.code });
      continue;
    }

    const images = new Map<string, string>();
    if (options.images?.download) {
      const collect = (nodes: BlockNode[]): BlockObjectResponse[] =>
        nodes.flatMap((node) => [node.block, ...collect(node.children)]);
      for (const block of collect(blocks)) {
        if (block.type !== 'image' || block.image.type !== 'file') continue;
        const got = await download(
          block.image.file.url,
          fetchImage,
          maxImageBytes,
          options.signal,
        ).catch(() => undefined);
        if (!got) continue;
        const path = `notion/${notionKey(block.id)}.${got.extension}`;
        files.set(path, got.bytes);
        images.set(block.id, path);
      }
    }

    const body = blocksMarkdown(blocks, {
      titleOf,
      imageUrl: (block) =>
        images.get(block.id) ??
        (block.image.type === 'external' ? block.image.external.url : block.image.file.url),
    }).trim();
    // The plan parses the body for its links and images, in this process: a page whose text
    // nests past what a Markdown reader takes in reasonable time is left out, never parsed.
    if (markdownDepth(body) > MARKDOWN_MAX_DEPTH) {
      failed.push({ page: key, code: 'TOO_COMPLEX' });
      continue;
    }
    const title = titles.get(key) || 'Untitled';
    notes.push({
      sourcePath: `notion:${key}`,
      key,
      title,
      body,
      tags: mergeTags(pageTags(page), hashTags(body)),
      createdAt: new Date(page.created_time).toISOString(),
      updatedAt: new Date(page.last_edited_time).toISOString(),
      imageRefs: [...images.values()],
      links: [],
    });
  }

  return {
    notes,
    files,
    trashed,
    failed,
    state: { cursor: complete ? newest : cursor },
    complete,
  };
};

/** Plans writing a sync's notes: the same ids as a Notion export's import of those pages. */
export const planNotionSync = (input: {
  userId: string;
  result: NotionSyncResult;
  existing: ExistingNotes;
  limits?: Partial<PlanLimits>;
}): Promise<ImportPlan> =>
  planImport({
    userId: input.userId,
    source: 'notion',
    notes: input.result.notes,
    files: new Map([...input.result.files].map(([path, bytes]) => [path, { path, bytes }])),
    existing: input.existing,
    ...(input.limits ? { limits: input.limits } : {}),
  });
