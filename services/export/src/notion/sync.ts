import { randomUUID } from 'node:crypto';
import { AppError, type NotionConnection } from '@noted/api';
import type { Identity, Logger } from '@noted/kit';
import {
  createNotionClient,
  notionSync,
  planNotionSync,
  type NotionSyncResult,
} from '../import/notion-sync.js';
import { runImport, type ImportNotesPort, type ImportResult } from '../import/run.js';
import type { ImportPlan } from '../import/plan.js';
import { notionSyncs, type NotionSyncOutcome } from '../metrics.js';
import type { ConnectionRow, NotionRepository, SyncedPage } from './repository.js';
import type { TokenBox } from './token-box.js';

/** A run not finished this long after it was claimed is taken to have died with its process. */
export const NOTION_SYNC_LEASE_SECONDS = 30 * 60;

export interface NotionContext {
  repository: NotionRepository;
  tokens: TokenBox;
  /** The Notion API's origin. */
  apiUrl: string;
  intervalMinutes: number;
  /** The notes service, as the given user (the import's port, `createNotesPort`). */
  notesAs: (identity: Identity) => ImportNotesPort;
  logger: Logger;
  /** Runs started by a request, awaited when the service stops. */
  running: Set<Promise<void>>;
}

/** A connection as the settings page shows it: never its token. */
export const presentConnection = (
  row: ConnectionRow | undefined,
  pagesSynced: number,
): NotionConnection => {
  if (!row) return { connected: false, status: 'idle', pagesSynced: 0 };
  return {
    connected: true,
    ...(row.workspace_name ? { workspaceName: row.workspace_name } : {}),
    status: row.status,
    ...(row.last_sync_at ? { lastSyncAt: row.last_sync_at.toISOString() } : {}),
    ...(row.last_error ? { lastError: row.last_error } : {}),
    pagesSynced,
    ...(row.next_sync_at ? { nextSyncAt: row.next_sync_at.toISOString() } : {}),
  };
};

/** Notion refused the token: the code the connection records and the routes answer. */
const isRefusedToken = (error: unknown) =>
  error instanceof AppError &&
  (error.code === 'NOTION_TOKEN_INVALID' ||
    (error.code === 'FORBIDDEN' &&
      (error.details as { reason?: string } | undefined)?.reason === 'NOTION_UNAUTHORIZED'));

const codeOf = (error: unknown) => (error instanceof AppError ? error.code : 'INTERNAL');

/** What a fatal stop of runImport did before it stopped. */
const doneBefore = (error: unknown): ImportResult | undefined =>
  error instanceof AppError
    ? (error.details as { result?: ImportResult } | undefined)?.result
    : undefined;

/**
 * Writes a plan's notes: updates first (they take no allowance, so a month with none left
 * still keeps the pages already synced up to date), then the new notes in plan order, as
 * many as the allowance lets. Answers the notes written and the code that stopped it, if any.
 */
const writePlan = async (plan: ImportPlan, port: ImportNotesPort, signal?: AbortSignal) => {
  const written = new Set<string>();
  let failedCount = 0;
  for (const notes of [plan.notes.filter((n) => n.exists), plan.notes.filter((n) => !n.exists)]) {
    if (notes.length === 0) continue;
    try {
      const result = await runImport({ ...plan, notes }, port, signal ? { signal } : {});
      for (const id of [...result.created, ...result.updated]) written.add(id);
      failedCount += result.failed.filter((failure) => !failure.image).length;
    } catch (error) {
      const before = doneBefore(error);
      for (const id of [...(before?.created ?? []), ...(before?.updated ?? [])]) written.add(id);
      return { written, failedCount, stoppedBy: codeOf(error) };
    }
  }
  return { written, failedCount, stoppedBy: undefined };
};

/**
 * One run of a claimed connection: pages edited since the cursor read from Notion with the
 * user's token, planned as notes (ids from user and page, so a page is always the same note),
 * written through the notes service as the user, and the outcome recorded. The cursor moves on
 * only when every page was written: pages left over (the allowance ran out, the notes service
 * failed) are read again on the next run, and the notes already made are then updated.
 */
export const notionConnectionSync = async (
  ctx: NotionContext,
  row: ConnectionRow,
  signal?: AbortSignal,
): Promise<NotionSyncOutcome> => {
  const claim = row.claim as string;
  const userId = row.user_id;
  const next = () => new Date(Date.now() + ctx.intervalMinutes * 60_000);
  const finish = async (
    outcome: NotionSyncOutcome,
    fields: { status?: 'idle' | 'failed'; cursor?: string | null; lastError?: string | null },
    pages: SyncedPage[] = [],
  ) => {
    const status = fields.status ?? 'idle';
    const kept = await ctx.repository.finish(userId, claim, {
      status,
      cursor: fields.cursor === undefined ? row.cursor : fields.cursor,
      lastError: fields.lastError ?? null,
      // A refused token is not tried again until the user connects anew.
      nextSyncAt: status === 'failed' ? null : next(),
      pages,
    });
    notionSyncs.inc({ outcome: kept ? outcome : 'superseded' });
    ctx.logger.info({ userId, outcome, pages: pages.length, kept }, 'notion sync');
    return outcome;
  };

  let result: NotionSyncResult;
  try {
    const client = createNotionClient(ctx.tokens.open(row.token), { baseUrl: ctx.apiUrl });
    result = await notionSync({
      client,
      state: { cursor: row.cursor },
      images: { download: true },
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (isRefusedToken(error)) {
      return finish('token_invalid', { status: 'failed', lastError: 'NOTION_TOKEN_INVALID' });
    }
    ctx.logger.warn({ userId, code: codeOf(error) }, 'notion sync could not read Notion');
    return finish('notion_failed', { lastError: codeOf(error) });
  }

  try {
    const plan = await planNotionSync({
      userId,
      result,
      existing: await ctx.repository.noteIds(userId),
    });
    const port = ctx.notesAs({ userId, sub: row.sub, email: row.email, name: row.name });
    const { written, failedCount, stoppedBy } = await writePlan(plan, port, signal);
    const edited = new Map(result.notes.map((note) => [note.sourcePath, note.updatedAt ?? '']));
    const pages = plan.notes
      .filter((note) => written.has(note.id))
      .map((note) => ({
        pageId: note.sourcePath.replace(/^notion:/, ''),
        noteId: note.id,
        lastEditedTime: edited.get(note.sourcePath) ?? '',
      }));
    if (stoppedBy !== undefined) {
      return finish(
        stoppedBy === 'NOTES_LEFT_NOT_ENOUGH' ? 'notes_left_not_enough' : 'notes_failed',
        { lastError: stoppedBy },
        pages,
      );
    }
    if (failedCount > 0) ctx.logger.warn({ userId, failed: failedCount }, 'notion pages refused');
    return finish('ok', { cursor: result.state.cursor }, pages);
  } catch (error) {
    ctx.logger.error({ err: error, userId }, 'notion sync failed');
    return finish('notes_failed', { lastError: codeOf(error) });
  }
};

/**
 * Runs the connections due, a few at a time, until none is due or the service stops. Any
 * number of replicas may call it at once: each connection is claimed by one of them.
 */
export const notionSyncDue = async (
  ctx: NotionContext,
  isStopped: () => boolean = () => false,
): Promise<number> => {
  let runs = 0;
  while (!isStopped()) {
    const claimed = await ctx.repository.claimDue(randomUUID(), 10, NOTION_SYNC_LEASE_SECONDS);
    if (claimed.length === 0) break;
    for (const row of claimed) {
      await notionConnectionSync(ctx, row);
      runs += 1;
    }
  }
  return runs;
};

/** Runs a claimed connection in the background (a request answers at once). */
export const startConnectionSync = (ctx: NotionContext, row: ConnectionRow) => {
  const run: Promise<void> = notionConnectionSync(ctx, row)
    .then(() => undefined)
    .catch((error: unknown) => {
      ctx.logger.error({ err: error, userId: row.user_id }, 'notion sync failed');
    })
    .finally(() => ctx.running.delete(run));
  ctx.running.add(run);
};
