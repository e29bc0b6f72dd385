import { pipeline } from 'node:stream/promises';
import {
  CAPTURE_AUDIO_MAX_BYTES,
  CAPTURE_PDF_MAX_BYTES,
  NOTE_IMAGE_MAX_BYTES,
  type UploadKind,
  type captureRoutes,
} from '@noted/api';
import type { Handlers } from '@noted/kit';
import type { CaptureContext } from '../context.js';
import { filePart } from '../upload.js';
import {
  captureAudio,
  captureDismissTags,
  captureFileRead,
  captureImage,
  capturePdf,
  captureRetry,
  captureUrl,
} from './usecases.js';
import { noteCreateByUpload, uploadCreate, uploadReceive } from './uploads.js';

const imagePart = filePart({ field: 'image', maxBytes: NOTE_IMAGE_MAX_BYTES, what: 'image' });
const audioPart = filePart({ field: 'audio', maxBytes: CAPTURE_AUDIO_MAX_BYTES, what: 'audio' });
const pdfPart = filePart({ field: 'pdf', maxBytes: CAPTURE_PDF_MAX_BYTES, what: 'PDF' });
/** The file of an upload address: of its kind, no larger than the size announced. */
const uploadPart = ({ kind, maxBytes }: { kind: UploadKind; maxBytes: number }) =>
  filePart({ field: 'file', maxBytes, what: kind === 'pdf' ? 'PDF' : 'audio file' });

/** Notes made from images, audio, links and PDFs, and the files they keep. */
export const captureHandlers = (ctx: CaptureContext): Handlers<typeof captureRoutes> => ({
  noteCreateByImage: async ({ userId, req, res }) =>
    captureImage(ctx, userId, await imagePart(req, res)),
  noteCreateByAudio: async ({ userId, req, res }) =>
    captureAudio(ctx, userId, await audioPart(req, res), 'recording'),
  noteCreateByAudioFile: async ({ userId, req, res }) =>
    captureAudio(ctx, userId, await audioPart(req, res), 'upload'),
  noteCreateByAudioUrl: ({ userId, body }) => captureUrl(ctx, userId, 'audio', body.audioUrl),
  noteCreateByLink: ({ userId, body }) => captureUrl(ctx, userId, 'link', body.url),
  noteCreateByPdf: async ({ userId, req, res }) => capturePdf(ctx, userId, await pdfPart(req, res)),
  uploadCreate: ({ userId, body }) => uploadCreate(ctx, userId, body),
  uploadReceive: async ({ params, req, res }) => {
    await uploadReceive(ctx, params.token, (limits) => uploadPart(limits)(req, res));
    // The browser posts here from the page itself; nothing else needs to read the answer.
    res.setHeader('cache-control', 'no-store');
  },
  noteCreateByUpload: ({ userId, body }) => noteCreateByUpload(ctx, userId, body),
  noteCaptureRetry: ({ userId, body }) => captureRetry(ctx, userId, body),
  noteCaptureTagsDismiss: ({ userId, body }) => captureDismissTags(ctx, userId, body),
  noteFileGet: async ({ userId, params, req, res }) => {
    const file = await captureFileRead(ctx, userId, params.id, params.name);
    // Names are random and never reused, so the owner's browser may keep the file.
    res.setHeader('cache-control', 'private, max-age=31536000, immutable');
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('content-security-policy', "default-src 'none'");
    res.setHeader('accept-ranges', 'bytes');
    res.attachment(file.fileName);
    if (file.contentType.startsWith('audio/')) res.setHeader('content-disposition', 'inline');
    res.setHeader('content-type', file.contentType);
    const size = file.size;
    const ranges = req.headers.range ? req.range(size, { combine: true }) : undefined;
    if (ranges === -1) {
      file.body.destroy();
      res.status(416).setHeader('content-range', `bytes */${size}`).end();
      return;
    }
    const range =
      Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1
        ? ranges[0]
        : undefined;
    if (range) {
      // One range, for seeking in a player; the store streams the whole object, so the
      // bytes before the range are skipped as they pass.
      const { start, end } = range;
      res.status(206);
      res.setHeader('content-range', `bytes ${start}-${end}/${size}`);
      res.setHeader('content-length', String(end - start + 1));
      let offset = 0;
      for await (const chunk of file.body) {
        const part = chunk as Buffer;
        const from = Math.max(0, start - offset);
        const to = Math.min(part.length, end + 1 - offset);
        if (to > from && !res.write(part.subarray(from, to))) {
          await new Promise((resolve) => res.once('drain', resolve));
        }
        offset += part.length;
        if (offset > end) break;
      }
      file.body.destroy();
      res.end();
      return;
    }
    res.setHeader('content-length', String(file.size));
    await pipeline(file.body, res);
  },
});
