import { Counter, Histogram } from 'prom-client';
import { registry } from '@noted/kit';

/** What was exported: a fixed set of labels. */
export type ExportFormat = 'markdown' | 'markdown_zip' | 'pdf' | 'png' | 'all' | 'account';

/**
 * How an export ended: `ok`; `not_found` (no such note of the caller's); `refused` (the format
 * is not in the caller's plan); `aborted` (the caller went away before the end); `failed`
 * (anything else; a stream already begun is cut off).
 */
export type ExportOutcome = 'ok' | 'not_found' | 'refused' | 'aborted' | 'failed';

export const exportsDone = new Counter({
  name: 'noted_export_requests_total',
  help: 'Exports by format and outcome',
  labelNames: ['format', 'outcome'] as const,
  registers: [registry],
});

export const exportSeconds = new Histogram({
  name: 'noted_export_duration_seconds',
  help: 'Time from the request to the last byte of an export that succeeded, by format',
  labelNames: ['format'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
  registers: [registry],
});

export const exportBytes = new Counter({
  name: 'noted_export_bytes_total',
  help: 'Bytes of exports sent (for a zip, as compressed), by format',
  labelNames: ['format'] as const,
  registers: [registry],
});

export const notesExported = new Counter({
  name: 'noted_export_notes_total',
  help: 'Notes written into exports of everything',
  registers: [registry],
});

/**
 * How a Notion sync run ended: `ok`; `notes_left_not_enough` (the month's allowance ran out,
 * the rest waits); `token_invalid` (Notion refused the token: no more runs until reconnected);
 * `notion_failed` (Notion unreachable or rate-limiting); `notes_failed` (the notes service
 * refused); `superseded` (the connection was forgotten or remade during the run: nothing kept).
 */
export type NotionSyncOutcome =
  | 'ok'
  | 'notes_left_not_enough'
  | 'token_invalid'
  | 'notion_failed'
  | 'notes_failed'
  | 'superseded';

export const notionSyncs = new Counter({
  name: 'noted_export_notion_syncs_total',
  help: 'Notion sync runs by outcome',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/**
 * How an import ended: `ok`; `refused` (read and refused before anything was written: not
 * Markdown, a damaged zip, nothing in it, too large); `over_quota` (more new notes than the
 * month has left); `cancelled` (the client went away, stopped between notes); `failed`.
 */
export type ImportOutcome = 'ok' | 'refused' | 'over_quota' | 'cancelled' | 'failed';

export const importsDone = new Counter({
  name: 'noted_import_requests_total',
  help: 'Imports of files by source (markdown, notion, unknown when not read) and outcome',
  labelNames: ['source', 'outcome'] as const,
  registers: [registry],
});

export const notesImported = new Counter({
  name: 'noted_import_notes_total',
  help: 'Notes written by imports of files: created, updated (imported before) or failed',
  labelNames: ['result'] as const,
  registers: [registry],
});
