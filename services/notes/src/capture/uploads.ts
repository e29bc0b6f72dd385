import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  AppError,
  CAPTURE_UPLOAD_KEPT_SECONDS,
  CAPTURE_UPLOAD_TTL_SECONDS,
  type CaptureUpload,
  type Note,
  type Parsed,
  type UploadKind,
  type UploadRequest,
  type UploadTarget,
} from '@noted/api';
import type { Knex } from 'knex';
import type { ImagesContext } from '../context.js';
import { sizeText, type FilePart } from '../upload.js';
import { captureAudio, capturePdf, readAll } from './usecases.js';

/**
 * Large audio files and PDFs go to storage without passing through the API: the browser asks
 * for a signed address, sends the file there with progress, then makes the note from the
 * upload. With S3 reachable by browsers, the address is a presigned POST into the bucket
 * (key, size and expiry are in the signed policy); otherwise it is this service's
 * `/api/uploads/<token>`, the random token being the permission. Either way the file lands in
 * `<userId>/uploads/<uploadId>` and is checked like any upload before it is used.
 */

interface UploadRow {
  id: string;
  user_id: string;
  kind: UploadKind;
  file_name: string;
  max_bytes: number;
  expires_at: Date;
}

const uploads = (knex: Knex) => knex<UploadRow>('capture_uploads');
const keyOf = (row: Pick<UploadRow, 'id' | 'user_id'>) => `${row.user_id}/uploads/${row.id}`;
const hashOf = (token: string) => createHash('sha256').update(token).digest();
const noUpload = () => new AppError('NOT_FOUND', 'There is no such upload, or it has expired');
/** After its address expired, an upload may still be made into a note for this long. */
const claimableSince = () => new Date(Date.now() - CAPTURE_UPLOAD_KEPT_SECONDS * 1000);

/** A signed address for one file of `kind`, for the caller only. */
export const uploadCreate = async (
  ctx: ImagesContext,
  userId: string,
  request: Parsed<typeof UploadRequest>,
): Promise<UploadTarget> => {
  // The address takes the size announced (within the kind's limit), not more: the browser
  // knows it exactly.
  const maxBytes = request.bytes;
  const token = randomBytes(32).toString('base64url');
  const row: UploadRow = {
    id: randomUUID(),
    user_id: userId,
    kind: request.kind,
    file_name: request.name,
    max_bytes: maxBytes,
    expires_at: new Date(Date.now() + CAPTURE_UPLOAD_TTL_SECONDS * 1000),
  };
  await uploads(ctx.knex).insert({ ...row, token_hash: hashOf(token) } as UploadRow);
  const limits = { maxBytes, expiresAt: row.expires_at };
  const direct = await ctx.objects.uploadTarget?.(keyOf(row), limits);
  return {
    uploadId: row.id,
    ...(direct ?? { url: `/api/uploads/${token}`, fields: {} }),
    maxBytes,
    expiresAt: row.expires_at.toISOString(),
  };
};

/** The file sent to this service's upload address, kept under the upload's key. */
export const uploadReceive = async (
  ctx: ImagesContext,
  token: string,
  receive: (limits: { kind: UploadKind; maxBytes: number }) => Promise<FilePart>,
): Promise<void> => {
  const row = await uploads(ctx.knex)
    .where({ token_hash: hashOf(token) } as Partial<UploadRow>)
    .where('expires_at', '>', new Date())
    .first();
  if (!row) throw noUpload();
  const file = await receive({ kind: row.kind, maxBytes: row.max_bytes });
  await ctx.objects.put(keyOf(row), file.data, {
    contentType: 'application/octet-stream',
    size: file.data.length,
  });
};

/**
 * A note from an upload of the caller's: the file must have arrived and be within its limit;
 * then it is checked, kept with the note and read, as if it had been sent to the upload route
 * of its kind. The upload is used once: whatever the outcome, its file is then deleted.
 */
export const noteCreateByUpload = async (
  ctx: ImagesContext,
  userId: string,
  body: Parsed<typeof CaptureUpload>,
): Promise<Note> => {
  const found = await uploads(ctx.knex)
    .where({ id: body.uploadId, user_id: userId })
    .where('expires_at', '>', claimableSince())
    .first();
  if (!found) throw noUpload();
  const key = keyOf(found);
  const stored = await ctx.objects.get(key);
  if (!stored) throw new AppError('CONFLICT', 'The file has not arrived yet');
  if (stored.size > found.max_bytes) {
    stored.body.destroy();
    await ctx.objects.delete(key);
    await uploads(ctx.knex).where({ id: found.id }).delete();
    throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${sizeText(found.max_bytes)}`);
  }
  const data = await readAll(stored);
  // Taking the row is the claim: of two requests for one upload, one makes the note.
  const claimed = await uploads(ctx.knex).where({ id: found.id }).delete();
  if (claimed === 0) throw noUpload();
  try {
    const file: FilePart = { data, fileName: found.file_name };
    return found.kind === 'pdf'
      ? await capturePdf(ctx, userId, file)
      : await captureAudio(ctx, userId, file, 'upload');
  } finally {
    await ctx.objects.delete(key).catch((error: unknown) => {
      ctx.logger.warn({ err: error, key }, 'an upload used for a note could not be deleted');
    });
  }
};

/** Deletes uploads never made into notes, a while after their address expired; how many. */
export const uploadsSweep = async (
  ctx: ImagesContext,
  options: { batch?: number; isStopped?: () => boolean } = {},
): Promise<number> => {
  const { batch = 100, isStopped = () => false } = options;
  let deleted = 0;
  for (;;) {
    const stale = await uploads(ctx.knex)
      .where('expires_at', '<=', claimableSince())
      .orderBy('expires_at')
      .limit(batch)
      .select('id', 'user_id');
    for (const row of stale) {
      await ctx.objects.delete(keyOf(row));
      await uploads(ctx.knex).where({ id: row.id }).delete();
    }
    deleted += stale.length;
    if (stale.length < batch || isStopped()) return deleted;
  }
};
