import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Request, Response } from 'express';
import multer from 'multer';
import {
  AppError,
  type ImportEvent,
  type ImportProgress,
  type ImportResult as ImportAnswer,
} from '@noted/api';
import { identityOf, startTimer, streamEvents, toAppError, type Logger } from '@noted/kit';
import {
  assertNotesLeft,
  planMarkdownImport,
  planNotionExportImport,
  readZip,
  runImport,
  type ImportFile,
  type ImportPlan,
  type ImportResult,
} from './import/index.js';
import { notionName } from './import/notion-export.js';
import { basename, extension, isMarkdownPath, normalizePath } from './import/paths.js';
import { ZIP_LIMITS } from './import/zip.js';
import { importsDone, notesImported, type ImportOutcome } from './metrics.js';
import type { NotesPort } from './notes-port.js';

export interface ImportContext {
  notes: NotesPort;
  /** The largest upload taken (EXPORT_IMPORT_MAX_BYTES). */
  maxBytes: number;
  logger: Logger;
  /** Where each upload's temporary folder is made; the system's by default. */
  tmpDir?: string;
}

/** At most this often a progress event, and always one at the end. */
const PROGRESS_EVERY_MS = 100;
/** Skipped files listed in the result; the rest are only counted. */
const SKIPPED_LISTED = 200;
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const EMPTY_ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

interface Upload {
  file: string;
  name: string;
  size: number;
}

/**
 * Receives the multipart field `file` into a fresh temporary folder, never into memory, at most
 * `maxBytes`; `read` gets the file, and the folder is removed whatever happens.
 */
const withUpload = async <T>(
  req: Request,
  res: Response,
  where: { maxBytes: number; tmpDir?: string | undefined },
  read: (upload: Upload) => Promise<T>,
): Promise<T> => {
  const { maxBytes } = where;
  const dir = await mkdtemp(path.join(where.tmpDir ?? tmpdir(), 'noted-import-'));
  try {
    const receive = multer({
      storage: multer.diskStorage({ destination: dir }),
      limits: { files: 1, fileSize: maxBytes, fields: 4, fieldSize: 1024, parts: 5 },
    }).single('file');
    await new Promise<void>((resolve, reject) => {
      receive(req, res, (error: unknown) =>
        error ? reject(formError(error, maxBytes)) : resolve(),
      );
    });
    if (!req.file) throw new AppError('VALIDATION_FAILED', 'Send the file in the field file');
    // multer decodes a name as Latin-1; a browser sends it in UTF-8.
    const name = Buffer.from(req.file.originalname, 'latin1').toString('utf8');
    return await read({ file: req.file.path, name, size: req.file.size });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

const formError = (error: unknown, maxBytes: number): AppError => {
  if (error instanceof AppError) return error;
  if (error instanceof multer.MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE') {
      return new AppError(
        'PAYLOAD_TOO_LARGE',
        `The file is larger than the ${Math.round(maxBytes / (1024 * 1024))} MB an import takes`,
        { limit: maxBytes },
      );
    }
    if (error.code === 'LIMIT_UNEXPECTED_FILE') {
      return new AppError('BAD_REQUEST', `Send one file, in the field file (not ${error.field})`);
    }
    return new AppError('BAD_REQUEST', `The form is not accepted: ${error.message}`);
  }
  return new AppError('BAD_REQUEST', 'The multipart body is malformed');
};

const startsWith = async (file: string, magic: readonly Buffer[]) => {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && magic.some((m) => m.equals(head));
  } finally {
    await handle.close();
  }
};

/**
 * A Notion "Markdown & CSV" export: the zips a large one is split into, or Markdown files all
 * named as Notion names pages (`Title <32 hex id>.md`).
 */
export const isNotionExport = (files: readonly ImportFile[]): boolean => {
  if (files.some((file) => extension(file.path) === 'zip')) return true;
  const markdown = files.filter((file) => isMarkdownPath(file.path));
  return (
    markdown.length > 0 && markdown.every((file) => notionName(basename(file.path)) !== undefined)
  );
};

/** Entries of a zip passed over while reading it, as the result lists them. */
type PassedOver = { path: string; reason: string }[];

/** What the upload is, read and planned: nothing is written yet. */
const planUpload = async (
  upload: Upload,
  plan: (source: 'markdown' | 'notion', files: ImportFile[]) => Promise<ImportPlan>,
): Promise<{ plan: ImportPlan; passedOver: PassedOver }> => {
  const named = normalizePath(basename(upload.name.replace(/\\/g, '/'))) ?? 'import';
  const kind = extension(named);
  if (kind === 'zip' || (await startsWith(upload.file, [ZIP_MAGIC, EMPTY_ZIP_MAGIC]))) {
    const content = await readZip(upload.file);
    return {
      plan: await plan(isNotionExport(content.files) ? 'notion' : 'markdown', content.files),
      passedOver: content.ignored.map((entry) => ({
        path: entry.path,
        reason: entry.reason === 'NOT_TAKEN' ? 'NOT_MARKDOWN' : entry.reason,
      })),
    };
  }
  if (kind === 'txt' || isMarkdownPath(named)) {
    if (upload.size > ZIP_LIMITS.maxFileBytes) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `A Markdown file is read up to ${ZIP_LIMITS.maxFileBytes / (1024 * 1024)} MB`,
        { limit: ZIP_LIMITS.maxFileBytes },
      );
    }
    // A .txt file is Markdown by another name; it keeps its name, so its id stays the same.
    const filePath = kind === 'txt' ? `${named}.md` : named;
    const planned = await plan('markdown', [
      { path: filePath, bytes: await readFile(upload.file) },
    ]);
    return { plan: planned, passedOver: [] };
  }
  throw new AppError(
    'IMPORT_UNSUPPORTED',
    'Import takes a Markdown file (.md, .markdown, .txt) or a .zip of them, or a Notion export',
  );
};

/** Refuses, before anything is written, an import that holds no note or more than is left. */
const assertAcceptable = (plan: ImportPlan, skipped: PassedOver, left: number | null) => {
  if (plan.notes.length === 0) {
    throw new AppError(
      'IMPORT_EMPTY',
      skipped.length > 0
        ? `The file holds no note that can be imported (${skipped.length} files passed over)`
        : 'The file holds no note',
      { skipped: skipped.slice(0, SKIPPED_LISTED) },
    );
  }
  try {
    assertNotesLeft(plan, left);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const leftNow = Math.max(left ?? 0, 0);
    throw new AppError(
      'NOTES_LEFT_NOT_ENOUGH',
      `The file holds ${plan.notes.length} notes, ${plan.toCreate} of them new, and ` +
        `${leftNow} new notes are left this month: nothing was imported`,
      error.details,
    );
  }
};

/** Everything of the file left out, and why: entries passed over, then what the plan skipped. */
const skippedOf = (plan: ImportPlan, passedOver: PassedOver): PassedOver => [
  ...passedOver,
  ...plan.skipped.map(({ path: skippedPath, reason }) => ({ path: skippedPath, reason })),
];

const answerOf = (plan: ImportPlan, skipped: PassedOver, result: ImportResult): ImportAnswer => ({
  source: plan.source,
  created: result.created.length,
  updated: result.updated.length,
  imagesUploaded: result.imagesUploaded,
  failed: result.failed.map(({ sourcePath, code, image }) => ({
    sourcePath,
    code,
    ...(image === undefined ? {} : { image }),
  })),
  skipped: skipped.slice(0, SKIPPED_LISTED),
  skippedTotal: skipped.length,
  cancelled: result.cancelled,
});

const outcomeOfRefusal = (error: unknown): ImportOutcome => {
  const { code, status } = toAppError(error);
  if (code === 'NOTES_LEFT_NOT_ENOUGH') return 'over_quota';
  return status < 500 ? 'refused' : 'failed';
};

/**
 * `POST /export/import`: the upload is read, planned and checked against the month's allowance
 * before the answer starts, so every refusal is a plain JSON error and nothing is written; then
 * the notes are written as the user, one at a time, with progress as server-sent events. The
 * client going away stops the import between two notes.
 */
export const importFile = async (ctx: ImportContext, req: Request, res: Response) => {
  const elapsed = startTimer();
  const identity = identityOf(req);
  const port = ctx.notes.as(identity);
  let source: 'markdown' | 'notion' | 'unknown' = 'unknown';
  let bytes = 0;
  const log = (outcome: ImportOutcome, details: Record<string, unknown>) => {
    importsDone.inc({ source, outcome });
    ctx.logger.info(
      { userId: identity.userId, source, outcome, bytes, seconds: elapsed(), ...details },
      'import',
    );
  };

  let plan: ImportPlan;
  let skipped: PassedOver;
  try {
    const planned = await withUpload(req, res, ctx, async (upload) => {
      bytes = upload.size;
      return planUpload(upload, async (kind, files) => {
        source = kind;
        const existing = (ids: string[]) => port.existing(ids);
        return kind === 'notion'
          ? planNotionExportImport({ userId: identity.userId, files, existing })
          : planMarkdownImport({ userId: identity.userId, files, existing });
      });
    });
    plan = planned.plan;
    skipped = skippedOf(plan, planned.passedOver);
    assertAcceptable(plan, skipped, plan.toCreate > 0 ? await port.notesLeft() : null);
  } catch (error) {
    log(outcomeOfRefusal(error), { code: toAppError(error).code });
    throw error;
  }

  await streamEvents<ImportEvent>(req, res, ctx.logger, async (send, signal) => {
    let sentAt = 0;
    let last: ImportProgress = {
      done: 0,
      total: plan.notes.length,
      created: 0,
      updated: 0,
      failed: 0,
    };
    send({ type: 'progress', ...last });
    let result: ImportResult;
    try {
      result = await runImport(plan, port, {
        signal,
        onProgress: (progress) => {
          last = progress;
          const now = Date.now();
          if (now - sentAt < PROGRESS_EVERY_MS) return;
          sentAt = now;
          send({ type: 'progress', ...progress });
        },
      });
    } catch (error) {
      const partial = (toAppError(error).details as { result?: ImportResult } | undefined)?.result;
      if (partial) countNotes(partial);
      log(signal.aborted ? 'cancelled' : outcomeOfRefusal(error), {
        code: toAppError(error).code,
        notes: plan.notes.length,
        created: partial?.created.length,
        updated: partial?.updated.length,
      });
      throw error;
    }
    send({ type: 'progress', ...last });
    const answer = answerOf(plan, skipped, result);
    send({ type: 'done', ...answer });
    countNotes(result);
    log(result.cancelled ? 'cancelled' : 'ok', {
      notes: plan.notes.length,
      created: answer.created,
      updated: answer.updated,
      failed: answer.failed.length,
      imagesUploaded: answer.imagesUploaded,
      skipped: answer.skippedTotal,
    });
  });
};

const countNotes = (result: ImportResult) => {
  notesImported.inc({ result: 'created' }, result.created.length);
  notesImported.inc({ result: 'updated' }, result.updated.length);
  notesImported.inc({ result: 'failed' }, result.failed.filter((f) => !f.image).length);
};
