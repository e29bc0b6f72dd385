import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { AppError, NOTES_TOTAL_HEADER } from '@noted/api';
import { identityOf, serveRoutes, startTimer, type Logger } from '@noted/kit';
import { requireExportFormat, writeAccountData, type AccountPort } from './account-data.js';
import type { NoteToExport } from './notes-client.js';
import {
  everythingPages,
  exportEverything,
  noteMarkdownBundle,
  noteMarkdownFile,
  noteToRender,
  type ExportContext,
} from './exports.js';
import { contentDisposition } from './files.js';
import { notionHandlers, notionState } from './notion/routes.js';
import type { NotionContext } from './notion/sync.js';
import { importFile, type ImportContext } from './import-file.js';
import {
  exportBytes,
  exportSeconds,
  exportsDone,
  notesExported,
  type ExportFormat,
  type ExportOutcome,
} from './metrics.js';
import { coalesce, createZipWriter, type ZipWriter } from './zip.js';

/** Headers of every export: a download, never cached (it is someone's notes). */
const downloadHeaders = (res: Response, fileName: string, contentType: string) => {
  res.setHeader('content-type', contentType);
  res.setHeader('content-disposition', contentDisposition(fileName));
  res.setHeader('cache-control', 'no-store');
  res.setHeader('x-content-type-options', 'nosniff');
};

/** Counts and times one export, whatever its end. */
const measured = (format: ExportFormat, logger: Logger) => {
  const elapsed = startTimer();
  return {
    done: (outcome: ExportOutcome, details: Record<string, unknown> = {}) => {
      exportsDone.inc({ format, outcome });
      const seconds = elapsed();
      if (outcome === 'ok') exportSeconds.observe({ format }, seconds);
      logger.info({ format, outcome, seconds, ...details }, 'export');
    },
  };
};

const outcomeOf = (error: unknown): ExportOutcome =>
  error instanceof AppError && error.code === 'NOT_FOUND'
    ? 'not_found'
    : error instanceof AppError && error.code === 'PLAN_REQUIRED'
      ? 'refused'
      : 'failed';

/**
 * Answers with a file made before the first byte: any failure is still a JSON error, and is
 * counted; the bytes are counted when sent.
 */
const sendFile = async (
  res: Response,
  measure: ReturnType<typeof measured>,
  format: ExportFormat,
  make: () => Promise<{ fileName: string; contentType: string; data: Buffer | string }>,
) => {
  let made: Awaited<ReturnType<typeof make>>;
  try {
    made = await make();
  } catch (error) {
    measure.done(outcomeOf(error));
    throw error;
  }
  downloadHeaders(res, made.fileName, made.contentType);
  const bytes = Buffer.byteLength(made.data);
  res.setHeader('content-length', bytes);
  res.end(made.data);
  exportBytes.inc({ format }, bytes);
  measure.done('ok', { bytes });
};

/**
 * Streams a zip into the response. A failure after the headers destroys the response: the
 * connection is cut without HTTP's end of body (chunked encoding's last chunk), so the client
 * sees a failed download and the zip lacks its central directory, never a complete-looking zip
 * with notes missing. Answers the outcome: `ok`, `aborted` (the client went away) or `failed`.
 */
const streamZip = async (
  res: Response,
  format: ExportFormat,
  logger: Logger,
  fill: (zip: ZipWriter) => Promise<void>,
): Promise<{ outcome: ExportOutcome; bytes: number }> => {
  const zip = createZipWriter();
  let bytes = 0;
  zip.stream.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  let failure: unknown;
  let clientLeft = false;
  res.once('close', () => {
    clientLeft = !res.writableFinished && failure === undefined;
  });
  // The headers (the count, the name) leave now, not with the first 64 KB.
  res.flushHeaders();
  // Settles when the response ends, or is cut off: by a failure below, or by the client leaving.
  const sent = pipeline(zip.stream, coalesce(), res).catch(() => {});
  try {
    await fill(zip);
    await zip.end();
  } catch (error) {
    failure = error;
    zip.abort(error instanceof Error ? error : new Error(String(error)));
  }
  await sent;
  if (failure !== undefined && !res.destroyed) res.destroy();
  exportBytes.inc({ format }, bytes);
  if (clientLeft) return { outcome: 'aborted', bytes };
  if (failure !== undefined) {
    logger.error({ err: failure, format }, 'an export failed after it began: response cut off');
    return { outcome: 'failed', bytes };
  }
  return { outcome: 'ok', bytes };
};

type WriteEverything = (
  pages: AsyncIterator<{ notes: NoteToExport[] }>,
  zip: ZipWriter,
) => Promise<number>;

/**
 * A zip of all the user's notes (and what `prepare` adds), streamed. `prepare` and the first
 * page of notes are read before the first byte: they bring the count, and a service that does
 * not answer is still a plain error. HEAD answers the headers alone, without `prepare`.
 */
const streamEverything = async (
  ctx: ExportContext,
  { userId, req, res }: { userId: string; req: Request; res: Response },
  format: ExportFormat,
  fileName: string,
  prepare: () => Promise<WriteEverything>,
) => {
  const measure = measured(format, ctx.logger);
  const head = req.method === 'HEAD';
  let started: Awaited<ReturnType<typeof everythingPages>>;
  let write: WriteEverything | undefined;
  try {
    // HEAD wants the count alone: what `prepare` reads is left unread.
    write = head ? undefined : await prepare();
    started = await everythingPages(ctx, userId);
  } catch (error) {
    measure.done(outcomeOf(error));
    throw error;
  }
  downloadHeaders(res, fileName, 'application/zip');
  res.setHeader(NOTES_TOTAL_HEADER, String(started.total));
  if (!write) {
    await started.pages.return?.();
    res.end();
    return;
  }
  const writeAll = write;
  let notes = 0;
  const { outcome, bytes } = await streamZip(res, format, ctx.logger, async (zip) => {
    try {
      notes = await writeAll(started.pages, zip);
    } finally {
      await started.pages.return?.();
    }
  });
  notesExported.inc(notes);
  measure.done(outcome, { notes, total: started.total, bytes });
};

/** The export service's routes as their contracts declare them. */
export const exportRouter = (
  ctx: ExportContext & { imports: ImportContext; notion: NotionContext; account: AccountPort },
) =>
  serveRoutes('export', {
    ...notionHandlers(ctx.notion),
    importFile: ({ req, res }) => importFile(ctx.imports, req, res),
    noteExportMarkdown: async ({ userId, query, res }) => {
      if (query.images === 'link') {
        const measure = measured('markdown', ctx.logger);
        await sendFile(res, measure, 'markdown', async () => {
          const { fileName, text } = await noteMarkdownFile(ctx, userId, query.id);
          return { fileName, data: text, contentType: 'text/markdown; charset=utf-8' };
        });
        return;
      }
      const measure = measured('markdown_zip', ctx.logger);
      let bundle: Awaited<ReturnType<typeof noteMarkdownBundle>>;
      try {
        bundle = await noteMarkdownBundle(ctx, userId, query.id);
      } catch (error) {
        measure.done(outcomeOf(error));
        throw error;
      }
      downloadHeaders(res, bundle.fileName, 'application/zip');
      const { outcome, bytes } = await streamZip(res, 'markdown_zip', ctx.logger, bundle.write);
      measure.done(outcome, { bytes });
    },
    noteExportPdf: async ({ userId, query, req, res }) => {
      await sendFile(res, measured('pdf', ctx.logger), 'pdf', async () => {
        await requireExportFormat(ctx.account(identityOf(req)), 'pdf');
        const { note, images, base } = await noteToRender(ctx, userId, query.id);
        const data = await ctx.renderers.pdf(note, images, {});
        return { fileName: `${base}.pdf`, contentType: 'application/pdf', data };
      });
    },
    noteExportImage: async ({ userId, query, req, res }) => {
      await sendFile(res, measured('png', ctx.logger), 'png', async () => {
        await requireExportFormat(ctx.account(identityOf(req)), 'png');
        const { note, images, base } = await noteToRender(ctx, userId, query.id);
        const data = await ctx.renderers.card(note, images, { theme: query.theme });
        return { fileName: `${base}.png`, contentType: 'image/png', data };
      });
    },
    exportAll: async ({ userId, req, res }) => {
      const day = new Date().toISOString().slice(0, 10);
      await streamEverything(ctx, { userId, req, res }, 'all', `Noted export ${day}.zip`, () =>
        Promise.resolve((pages, zip) => exportEverything(ctx, userId, pages, zip)),
      );
    },
    userData: async ({ userId, req, res }) => {
      const day = new Date().toISOString().slice(0, 10);
      await streamEverything(
        ctx,
        { userId, req, res },
        'account',
        `Noted data ${day}.zip`,
        async () => {
          const write = await writeAccountData(ctx, ctx.account(identityOf(req)), {
            notion: await notionState(ctx.notion, userId),
          });
          return (pages, zip) => write(userId, pages, zip);
        },
      );
    },
  });
