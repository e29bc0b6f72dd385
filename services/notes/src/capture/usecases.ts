import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import type { NoteAction, Parsed } from '@noted/api';
import { AppError, Tag, type CaptureKind, type CaptureStep, type Note } from '@noted/api';
import { enqueueEvent, outboxEvent, type EventTransaction } from '@noted/db';
import { captureEvents, notesV1, userEventHeaders } from '@noted/proto';
import { literalHostRefusal } from '@noted/kit';
import type { StoredObject } from '@noted/storage';
import type { CaptureContext, ImagesContext } from '../context.js';
import { imageUrlOf } from '../images/usecases.js';
import { processImage } from '../images/process.js';
import { syncWikiLinks } from '../links/wiki.js';
import { noteOutbox } from '../notes/events.js';
import { presentNote } from '../notes/presenter.js';
import { notesRepository, type NoteRow } from '../notes/repository.js';
import type { FilePart } from '../upload.js';
import { checkDuration, readAudio } from './audio.js';
import {
  isCurrent,
  retriedCapture,
  startedCapture,
  type CaptureFile,
  type CaptureOrigin,
  type CaptureState,
} from './state.js';

const notFound = () => new AppError('NOT_FOUND', 'There is no such note');

/** A capture's kind as the protobuf messages carry it. */
export const kindMessage: Record<CaptureKind, notesV1.CaptureKind> = {
  image: notesV1.CaptureKind.IMAGE,
  audio: notesV1.CaptureKind.AUDIO,
  link: notesV1.CaptureKind.LINK,
  pdf: notesV1.CaptureKind.PDF,
};

/** The event that asks the ai service to read a captured note (its current attempt). */
const captureRequested = (trx: EventTransaction, row: NoteRow, state: CaptureState) =>
  enqueueEvent(
    trx,
    outboxEvent(
      captureEvents.requested,
      (eventId) => ({
        eventId,
        occurredAt: timestampNow(),
        noteId: row.id,
        userId: row.user_id,
        kind: kindMessage[state.kind],
        attempt: state.attempt,
      }),
      userEventHeaders(row.user_id),
    ),
  );

const keyOf = (userId: string, noteId: string, name: string) => `${userId}/${noteId}/${name}`;
const storedName = (extension: string) => `${randomBytes(16).toString('base64url')}.${extension}`;

/** A title until the reading gives a better one: the file's name, else what it is. */
const titleFrom = (fileName: string | undefined, fallback: string) => {
  const base = fileName ? path.basename(fileName, path.extname(fileName)).trim() : '';
  return (base || fallback).slice(0, 200);
};

const discard = async (ctx: ImagesContext, keys: string[]) => {
  for (const key of keys) {
    try {
      await ctx.objects.delete(key);
    } catch (error) {
      ctx.logger.error({ err: error, key }, 'could not delete a captured file from the store');
    }
  }
};

interface CapturedNote {
  id: string;
  title: string;
  images?: string[];
  capture: CaptureState;
  /** Objects already stored for it: removed again if the note is not created. */
  stored: string[];
}

/**
 * Creates the note in its processing state with its note.created and capture.requested events,
 * in one transaction. The unit of the month taken for it (`release`) and the objects stored for
 * it are given back if that fails: never a charge for nothing, never a file without its note.
 */
const createCaptured = async (
  ctx: ImagesContext,
  userId: string,
  note: CapturedNote,
  release: () => Promise<void>,
): Promise<Note> => {
  try {
    const row = await ctx.unitOfWork(async (trx) => {
      const created = await notesRepository.insert(trx, {
        id: note.id,
        user_id: userId,
        title: note.title,
        body: '',
        tags: [],
        images: note.images ?? [],
        capture: note.capture,
      });
      await syncWikiLinks(trx, userId, created, true);
      await noteOutbox.created(trx, created);
      await captureRequested(trx, created, note.capture);
      return created;
    });
    return presentNote(row);
  } catch (error) {
    await discard(ctx, note.stored);
    await release();
    throw error;
  }
};

/**
 * Chooses the new note's id and takes the month's unit for it, then runs `work` with both;
 * gives the unit back if `work` fails.
 */
const withQuota = async <T>(
  ctx: ImagesContext,
  userId: string,
  work: (id: string, release: () => Promise<void>) => Promise<T>,
): Promise<T> => {
  const id = randomUUID();
  const release = await ctx.quota.consume(userId, 'notes_per_month', id);
  try {
    return await work(id, release);
  } catch (error) {
    await release();
    throw error;
  }
};

/** A note from an image: kept as the note's image (WebP, at most 1920 px), its text read. */
export const captureImage = async (
  ctx: ImagesContext,
  userId: string,
  upload: FilePart,
): Promise<Note> =>
  withQuota(ctx, userId, async (id, release) => {
    const image = await processImage(upload.data);
    const name = `${randomBytes(16).toString('base64url')}.webp`;
    const key = keyOf(userId, id, name);
    await ctx.objects.put(key, image.data, { contentType: 'image/webp', size: image.data.length });
    return createCaptured(
      ctx,
      userId,
      {
        id,
        title: titleFrom(upload.fileName, 'Image'),
        images: [imageUrlOf(id, name)],
        capture: startedCapture('image', 'upload'),
        stored: [key],
      },
      release,
    );
  });

/** Stores a checked file under the note and describes it for the capture. */
const keepFile = async (
  ctx: ImagesContext,
  userId: string,
  noteId: string,
  file: { data: Buffer; originalName: string; type: string; extension: string },
  extra: Pick<CaptureFile, 'durationSeconds'> = {},
): Promise<{ key: string; file: CaptureFile }> => {
  const name = storedName(file.extension);
  const key = keyOf(userId, noteId, name);
  await ctx.objects.put(key, file.data, { contentType: file.type, size: file.data.length });
  return {
    key,
    file: {
      name,
      originalName: file.originalName.slice(0, 200) || name,
      type: file.type,
      bytes: file.data.length,
      ...extra,
    },
  };
};

/** Reads audio as the server takes it: a format by content, within the user's recording limit. */
const checkedAudio = async (ctx: ImagesContext, userId: string, data: Uint8Array) => {
  const info = await readAudio(data);
  checkDuration(info, await ctx.quota.recordingLimit(userId));
  return info;
};

/** A note from a recording or an audio file: kept with the note and transcribed. */
export const captureAudio = async (
  ctx: ImagesContext,
  userId: string,
  upload: FilePart,
  origin: Extract<CaptureOrigin, 'recording' | 'upload'>,
): Promise<Note> => {
  const info = await checkedAudio(ctx, userId, upload.data);
  return withQuota(ctx, userId, async (id, release) => {
    const fallback = origin === 'recording' ? 'Voice memo' : 'Audio';
    const originalName = origin === 'recording' ? `${fallback}.${info.extension}` : upload.fileName;
    const kept = await keepFile(
      ctx,
      userId,
      id,
      { data: upload.data, originalName, type: info.mimeType, extension: info.extension },
      info.durationSeconds === null ? {} : { durationSeconds: info.durationSeconds },
    );
    return createCaptured(
      ctx,
      userId,
      {
        id,
        title: origin === 'recording' ? fallback : titleFrom(upload.fileName, fallback),
        capture: startedCapture('audio', origin, { file: kept.file }),
        stored: [kept.key],
      },
      release,
    );
  });
};

const isPdf = (data: Uint8Array) =>
  // A PDF starts with %PDF- within its first 1024 bytes (readers allow junk before it).
  Buffer.from(data.subarray(0, 1024)).includes('%PDF-');

/** A note from a PDF: kept with the note, its text read page by page. */
export const capturePdf = async (
  ctx: ImagesContext,
  userId: string,
  upload: FilePart,
): Promise<Note> => {
  if (!isPdf(upload.data)) throw new AppError('NOT_A_PDF', 'The file given is not a PDF');
  return withQuota(ctx, userId, async (id, release) => {
    const kept = await keepFile(ctx, userId, id, {
      data: upload.data,
      originalName: upload.fileName || 'document.pdf',
      type: 'application/pdf',
      extension: 'pdf',
    });
    return createCaptured(
      ctx,
      userId,
      {
        id,
        title: titleFrom(upload.fileName, 'PDF'),
        capture: startedCapture('pdf', 'upload', { file: kept.file }),
        stored: [kept.key],
      },
      release,
    );
  });
};

/** A note from a URL (a web page, or audio), fetched and read in the background. */
export const captureUrl = async (
  ctx: CaptureContext,
  userId: string,
  kind: Extract<CaptureKind, 'link' | 'audio'>,
  url: string,
): Promise<Note> => {
  // Refused before anything is made: no note, no unit of the month. A name that resolves to a
  // private address is refused when fetched, as the fetch checks where it connects.
  const parsed = URL.parse(url);
  if (!parsed) throw new AppError('URL_REFUSED', 'That is not an address that can be fetched');
  if (literalHostRefusal(parsed, ctx.fetchAllowAddresses)) {
    throw new AppError('URL_REFUSED', 'That address is private and cannot be fetched');
  }
  return withQuota(ctx, userId, (id, release) => {
    const fileName = decodeURIComponent(parsed.pathname.split('/').pop() ?? '');
    return createCaptured(
      ctx,
      userId,
      {
        id,
        title: kind === 'link' ? parsed.hostname : titleFrom(fileName, parsed.hostname),
        capture: startedCapture(kind, 'url', { url }),
        stored: [],
      },
      release,
    );
  });
};

/**
 * Queues a failed or waiting capture for another reading. A failed one gave its unit of the
 * month back, so it is charged again (NOTES_LEFT_NOT_ENOUGH when none is left); a waiting one
 * still holds its unit and costs nothing more.
 */
export const captureRetry = async (
  ctx: ImagesContext,
  userId: string,
  input: Parsed<typeof NoteAction>,
): Promise<Note> => {
  const before = await notesRepository.find(ctx.knex, userId, input.noteId);
  if (!before?.capture) throw notFound();
  // Keyed by the note: a unit it still holds is not charged twice.
  const release = await ctx.quota.consume(userId, 'notes_per_month', input.noteId);
  const row = await ctx
    .unitOfWork(async (trx) => {
      const current = await notesRepository.lock(trx, userId, input.noteId);
      if (!current?.capture) throw notFound();
      if (current.capture.status !== 'failed' && current.capture.status !== 'waiting') {
        throw new AppError('CONFLICT', `The capture is ${current.capture.status}, not failed`);
      }
      const capture = retriedCapture(current.capture);
      const updated = await notesRepository.update(trx, userId, current.id, { capture });
      if (!updated) throw notFound();
      await captureRequested(trx, updated, capture);
      return updated;
    })
    .catch(async (error: unknown) => {
      await release();
      throw error;
    });
  return presentNote(row);
};

/** Leaves the tags a capture suggests: the note is as it was, they are offered no more. */
export const captureDismissTags = async (
  ctx: ImagesContext,
  userId: string,
  input: Parsed<typeof NoteAction>,
): Promise<Note> => {
  const row = await ctx.unitOfWork(async (trx) => {
    const current = await notesRepository.lock(trx, userId, input.noteId);
    if (!current?.capture) throw notFound();
    if (!current.capture.suggestedTags) return current;
    const { suggestedTags: _left, ...capture } = current.capture;
    return (await notesRepository.update(trx, userId, current.id, { capture })) ?? current;
  });
  return presentNote(row);
};

/** The file a note was captured from, to its owner only. */
export const captureFileRead = async (
  ctx: ImagesContext,
  userId: string,
  noteId: string,
  name: string,
): Promise<StoredObject & { fileName: string }> => {
  const row = await notesRepository.find(ctx.knex, userId, noteId);
  const file = row?.capture?.file;
  if (!row || file?.name !== name) throw new AppError('NOT_FOUND', 'There is no such file');
  const stored = await ctx.objects.get(keyOf(userId, noteId, name));
  if (!stored) throw new AppError('NOT_FOUND', 'There is no such file');
  return { ...stored, contentType: file.type, fileName: file.originalName };
};

// ---- What the ai service calls while it reads a capture (NotesService over gRPC) ----

export const readAll = async (stored: StoredObject): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stored.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** What a capture is to be read from: its file's bytes (or its URL), and its state. */
export const captureSource = async (ctx: ImagesContext, userId: string, noteId: string) => {
  const row = await notesRepository.find(ctx.knex, userId, noteId);
  const state = row?.capture;
  if (!row || !state) throw notFound();
  const imageName = state.kind === 'image' ? row.images[0]?.split('/').pop() : undefined;
  const name = state.file?.name ?? imageName;
  const stored = name ? await ctx.objects.get(keyOf(userId, noteId, name)) : undefined;
  return {
    state,
    data: stored ? await readAll(stored) : Buffer.alloc(0),
    mimeType: state.file?.type ?? (imageName ? 'image/webp' : ''),
    fileName: state.file?.originalName ?? imageName ?? '',
    recordingLimit:
      state.kind === 'audio' && state.origin === 'url'
        ? await ctx.quota.recordingLimit(userId)
        : -1,
  };
};

const notCurrent = () =>
  new AppError('CONFLICT', 'The capture was retried or finished since this reading began');

/** Changes a capture if `attempt` is still current; answers the note as it now is. */
const changeCapture = async (
  ctx: ImagesContext,
  userId: string,
  noteId: string,
  attempt: number,
  change: (state: CaptureState) => CaptureState,
) =>
  ctx.unitOfWork(async (trx) => {
    const current = await notesRepository.lock(trx, userId, noteId);
    if (!current) throw notFound();
    if (!isCurrent(current.capture, attempt)) throw notCurrent();
    const updated = await notesRepository.update(trx, userId, noteId, {
      capture: change(current.capture),
    });
    if (!updated) throw notFound();
    return updated;
  });

export const captureStep = async (
  ctx: ImagesContext,
  userId: string,
  noteId: string,
  attempt: number,
  step: CaptureStep,
): Promise<void> => {
  await changeCapture(ctx, userId, noteId, attempt, (state) => ({ ...state, step }));
};

/** Keeps audio fetched from a capture's URL with the note, checked as an upload is. */
export const captureAttach = async (
  ctx: ImagesContext,
  userId: string,
  noteId: string,
  attempt: number,
  data: Buffer,
  fileName: string,
) => {
  const info = await checkedAudio(ctx, userId, data);
  const kept = await keepFile(
    ctx,
    userId,
    noteId,
    {
      data,
      originalName: fileName || `audio.${info.extension}`,
      type: info.mimeType,
      extension: info.extension,
    },
    info.durationSeconds === null ? {} : { durationSeconds: info.durationSeconds },
  );
  let replaced: string | undefined;
  try {
    await changeCapture(ctx, userId, noteId, attempt, (state) => {
      replaced = state.file?.name;
      return { ...state, file: kept.file };
    });
  } catch (error) {
    await discard(ctx, [kept.key]);
    throw error;
  }
  // A retry fetches again: the file of the earlier attempt goes.
  if (replaced) await discard(ctx, [keyOf(userId, noteId, replaced)]);
  return { mimeType: info.mimeType, durationSeconds: info.durationSeconds ?? 0 };
};

export interface CaptureOutcome {
  title: string;
  body: string;
  tags: string[];
  method: string;
  model: string;
  siteName: string;
  pages: number;
  truncated: boolean;
  error?: { code: string; message: string };
  waitingForModel: boolean;
}

/** Tags a capture may suggest. */
const SUGGESTED_TAGS_MAX = 3;

/**
 * Fills the note with what was read. What the user wrote meanwhile stays: a title they changed
 * is kept, a body they began gets the text after it. The tags the reading found are suggestions
 * (`capture.suggestedTags`): the note's tags are the user's to choose.
 */
export const captureComplete = async (
  ctx: ImagesContext,
  userId: string,
  noteId: string,
  attempt: number,
  outcome: CaptureOutcome,
): Promise<{ note: NoteRow; applied: boolean }> => {
  const finishedAt = new Date().toISOString();
  const done = await ctx.unitOfWork(async (trx) => {
    const current = await notesRepository.lock(trx, userId, noteId);
    if (!current) throw notFound();
    const state = current.capture;
    if (!isCurrent(state, attempt)) return { note: current, applied: false };
    const ended = { ...state, step: null, finishedAt };
    if (outcome.error || outcome.waitingForModel) {
      const updated = await notesRepository.update(trx, userId, noteId, {
        capture: {
          ...ended,
          status: outcome.waitingForModel ? 'waiting' : 'failed',
          ...(outcome.error ? { error: outcome.error } : {}),
        },
      });
      return { note: updated ?? current, applied: true };
    }
    const placeholder = current.created_at.getTime() === current.updated_at.getTime();
    const title = placeholder && outcome.title.trim() ? outcome.title.trim() : current.title;
    const body = current.body.trim()
      ? `${current.body.trimEnd()}\n\n${outcome.body}`
      : outcome.body;
    const has = new Set(current.tags.map((tag) => tag.toLowerCase()));
    const suggestedTags = [
      ...new Map(
        outcome.tags
          .filter((tag) => Tag.safeParse(tag).success && !has.has(tag.toLowerCase()))
          .map((tag) => [tag.toLowerCase(), tag]),
      ).values(),
    ].slice(0, SUGGESTED_TAGS_MAX);
    const updated = await notesRepository.update(trx, userId, noteId, {
      title: title.slice(0, 500),
      body,
      capture: {
        ...ended,
        status: 'ready',
        ...(suggestedTags.length > 0 ? { suggestedTags } : {}),
        ...(outcome.method ? { method: outcome.method } : {}),
        ...(outcome.model ? { model: outcome.model } : {}),
        ...(outcome.siteName ? { siteName: outcome.siteName } : {}),
        ...(outcome.pages ? { pages: outcome.pages } : {}),
        ...(outcome.truncated ? { truncated: true } : {}),
      },
    });
    if (!updated) throw notFound();
    await syncWikiLinks(trx, userId, updated);
    await noteOutbox.updated(trx, updated);
    return { note: updated, applied: true };
  });
  // A capture that read nothing costs nothing: its unit of the month goes back (once, as a
  // redelivered outcome is not applied again), and a retry charges it anew.
  if (done.applied && done.note.capture?.status === 'failed') {
    await ctx.quota.refund(userId, 'notes_per_month', noteId);
  }
  return done;
};

/** Queues captures waiting for a model again, oldest first, at most `limit`. */
export const capturesWaitingRetry = async (ctx: ImagesContext, limit: number): Promise<number> =>
  ctx.unitOfWork(async (trx) => {
    const waiting = await notesRepository.waitingCaptures(trx, Math.min(Math.max(limit, 1), 500));
    for (const row of waiting) {
      const capture = retriedCapture(row.capture as CaptureState);
      const updated = await notesRepository.update(trx, row.user_id, row.id, { capture });
      if (updated) await captureRequested(trx, updated, capture);
    }
    return waiting.length;
  });
