import { Counter, Histogram } from 'prom-client';
import { registry } from '@noted/kit';

/** What was exported: a fixed set of labels. */
export type ExportFormat = 'markdown' | 'markdown_zip' | 'pdf' | 'png' | 'all';

/**
 * How an export ended: `ok`; `not_found` (no such note of the caller's); `aborted` (the caller
 * went away before the end); `failed` (anything else; a stream already begun is cut off).
 */
export type ExportOutcome = 'ok' | 'not_found' | 'aborted' | 'failed';

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
