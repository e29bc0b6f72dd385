import { mkdtemp, rm } from 'node:fs/promises';
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
import { SandboxError, taskModule, type Sandbox } from '@noted/sandbox';
import {
  assertNotesLeft,
  markExisting,
  runImport,
  type ImportPlan,
  type ImportResult,
} from './import/index.js';
import type { ReadProgress, ReadUploadResult, ReadUploadTask } from './import/read.task.js';
import { importsDone, notesImported, type ImportOutcome } from './metrics.js';
import type { NotesPort, UserNotesPort } from './notes-port.js';

export interface ImportContext {
  notes: NotesPort;
  /** The largest upload taken (EXPORT_IMPORT_MAX_BYTES). */
  maxBytes: number;
  /** Where uploads are read and planned (`read.task.ts`). */
  sandbox: Sandbox;
  /** How long reading one upload may take (EXPORT_IMPORT_READ_SECONDS). */
  readTimeoutMs: number;
  logger: Logger;
  /** Where each upload's temporary folder is made; the system's by default. */
  tmpDir?: string;
}

/** At most this often a progress event, and always one at the end. */
const PROGRESS_EVERY_MS = 100;
/** Skipped files listed in the result; the rest are only counted. */
const SKIPPED_LISTED = 200;
/** An upload waits this long at most for the sandbox, then is refused BUSY. */
const READ_WAIT_MS = 15_000;
const READ_TASK = taskModule(import.meta.url, 'import/read.task');

interface Upload {
  file: string;
  name: string;
  size: number;
  /** The upload's own folder: what is unpacked goes there, and is removed with it. */
  dir: string;
}

/**
 * Receives the multipart field `file` into a fresh temporary folder, never into memory, at most
 * `maxBytes`; `use` gets the file, and the folder is removed, whatever happens, when it is done.
 */
const withUpload = async <T>(
  req: Request,
  res: Response,
  where: { maxBytes: number; tmpDir?: string | undefined },
  use: (upload: Upload) => Promise<T>,
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
    return await use({ file: req.file.path, name, size: req.file.size, dir });
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

/** Entries of a zip passed over while reading it, as the result lists them. */
type PassedOver = { path: string; reason: string }[];

/** One Markdown file's parsing: a note of a million characters takes well under a second. */
const parseBudgetMs = (chars: number) => 5_000 + (chars / 1_000_000) * 5_000;
/** Reads again without the files that ran too long, this many times at most. */
const MAX_EXCLUDED = 3;

/** A file whose parsing ran past its budget: the read is ended and made again without it. */
class TooLong extends Error {
  constructor(readonly path: string) {
    super(`${path} took too long to read`);
  }
}

/**
 * Reads and plans an upload in the sandbox (`import/read.task.ts`). The task says which file it
 * parses next; one that takes longer than its budget, or during which the read runs out of
 * memory or time, ends the read, which starts again without it (listed as TOO_COMPLEX), so one
 * file built to be costly fails alone. Past MAX_EXCLUDED such files, or when the read fails
 * outside any file's parsing, the import is refused as IMPORT_TOO_COMPLEX.
 */
const readInSandbox = async (
  ctx: ImportContext,
  task: ReadUploadTask,
): Promise<ReadUploadResult> => {
  const exclude: string[] = [];
  for (;;) {
    const watchdog = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let parsing: string | null = null;
    try {
      return await ctx.sandbox.run<ReadUploadResult, ReadUploadTask>({
        module: READ_TASK,
        fn: 'readUpload',
        input: { ...task, exclude },
        label: 'import_read',
        timeoutMs: ctx.readTimeoutMs,
        maxWaitMs: READ_WAIT_MS,
        signal: watchdog.signal,
        onProgress: (value) => {
          const progress = value as ReadProgress;
          clearTimeout(timer);
          parsing = progress.parsing;
          if (parsing === null) return;
          const path = parsing;
          timer = setTimeout(
            () => watchdog.abort(new TooLong(path)),
            parseBudgetMs(progress.chars),
          );
        },
      });
    } catch (error) {
      const failed = error instanceof TooLong || error instanceof SandboxError;
      if (!failed || (error instanceof SandboxError && error.reason === 'closed')) throw error;
      const culprit = error instanceof TooLong ? error.path : parsing;
      if (culprit !== null && exclude.length < MAX_EXCLUDED) {
        exclude.push(culprit);
        continue;
      }
      const reason = error instanceof SandboxError ? error.reason : 'timeout';
      throw new AppError(
        'IMPORT_TOO_COMPLEX',
        culprit !== null
          ? `More than ${MAX_EXCLUDED} files were too costly to read, ${culprit} among them: nothing was imported`
          : reason === 'timeout'
            ? `Reading the file took longer than the ${Math.round(ctx.readTimeoutMs / 1000)} s an import may: nothing was imported`
            : reason === 'memory'
              ? 'Reading the file needed more memory than an import may: nothing was imported'
              : 'The file could not be read: nothing was imported',
        { reason, ...(exclude.length > 0 ? { tooComplex: exclude } : {}) },
      );
    } finally {
      clearTimeout(timer);
    }
  }
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

  await withUpload(req, res, ctx, async (upload) => {
    let plan: ImportPlan;
    let skipped: PassedOver;
    try {
      bytes = upload.size;
      const read = await readInSandbox(ctx, { ...upload, userId: identity.userId });
      source = read.plan.source;
      plan = await markExisting(read.plan, (ids) => port.existing(ids));
      skipped = skippedOf(plan, read.passedOver);
      assertAcceptable(plan, skipped, plan.toCreate > 0 ? await port.notesLeft() : null);
    } catch (error) {
      log(outcomeOfRefusal(error), { code: toAppError(error).code });
      throw error;
    }
    await writeNotes(ctx, req, res, { plan, skipped, port, log });
  });
};

/** Writes the plan's notes as the user, with progress as server-sent events. */
const writeNotes = (
  ctx: ImportContext,
  req: Request,
  res: Response,
  {
    plan,
    skipped,
    port,
    log,
  }: {
    plan: ImportPlan;
    skipped: PassedOver;
    port: UserNotesPort;
    log: (outcome: ImportOutcome, details: Record<string, unknown>) => void;
  },
) =>
  streamEvents<ImportEvent>(req, res, ctx.logger, async (send, signal) => {
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

const countNotes = (result: ImportResult) => {
  notesImported.inc({ result: 'created' }, result.created.length);
  notesImported.inc({ result: 'updated' }, result.updated.length);
  notesImported.inc({ result: 'failed' }, result.failed.filter((f) => !f.image).length);
};
