import * as z from 'zod';
import { created, file, noContent, ok, routesFor } from './contract.js';
import { imagesBusy } from './images.js';
import { Note, NoteAction } from './notes.js';
import { notBlank } from './rules.js';

/**
 * Notes made from something other than typed text: an image (its text read by OCR or a vision
 * model), a voice recording, an audio file or URL (transcribed), a web page (its article) or a
 * PDF (its text). The note is created at once with `capture.status` `processing` and fills in
 * when the reading is done; the original file stays with the note.
 */

/** The largest audio upload or fetch: 25 MB, what OpenAI-compatible transcription takes. */
export const CAPTURE_AUDIO_MAX_BYTES = 25 * 1024 * 1024;
/** The largest PDF: 20 MB. */
export const CAPTURE_PDF_MAX_BYTES = 20 * 1024 * 1024;
/** The largest web page read for a link: 5 MB of HTML. */
export const CAPTURE_PAGE_MAX_BYTES = 5 * 1024 * 1024;
/** A PDF is read up to this many pages. */
export const CAPTURE_PDF_MAX_PAGES = 300;

/** The stored name of a captured file: 128 random bits, base64url, and its extension. */
export const CaptureFileName = z
  .string()
  .regex(/^[A-Za-z0-9_-]{22}\.(webm|ogg|mp3|m4a|wav|pdf)$/, 'Not a file name')
  .meta({ description: 'The stored name, e.g. 3q2-7wEjRWeJq83vEjRWeA.webm' });

export const NoteFileParams = z.object({
  id: z.uuid({ message: 'Not a note id' }),
  name: CaptureFileName,
});

/** A TCP port, 0 to 65535. */
const port = '(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})';
/**
 * An http(s) address whose host is a name, an IPv4 address or an IPv6 one in brackets: the
 * pattern states it in the OpenAPI document. A host that is a private, loopback or link-local
 * literal (in any spelling) is refused at once with 400 URL_REFUSED; a name, once resolved, only
 * when fetched.
 */
const HTTP_URL = new RegExp(
  `^https?://([A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+\\])(:${port})?([/?#][^\\s]*)?$`,
  'i',
);

const httpUrl = (field: string) =>
  z
    .string()
    .max(2048, 'An address is at most 2,048 characters')
    .regex(HTTP_URL, `${field} must be an http or https address`);

export const CaptureLink = z
  .object({ url: httpUrl('url').meta({ description: 'The page to make a note of' }) })
  .meta({ id: 'CaptureLink' });
export type CaptureLink = z.input<typeof CaptureLink>;

export const CaptureAudioUrl = z
  .object({
    audioUrl: httpUrl('audioUrl').meta({
      description: 'An audio file (webm, ogg, mp3, m4a or wav, at most 25 MB) to transcribe',
    }),
  })
  .meta({ id: 'CaptureAudioUrl' });
export type CaptureAudioUrl = z.input<typeof CaptureAudioUrl>;

const binary = (description: string) => z.string().meta({ format: 'binary', description });

export const CaptureImageForm = z
  .strictObject({
    image: binary(
      'A photo or screenshot: JPEG, PNG, WebP, GIF or AVIF, recognised by content; at most ' +
        '10 MB and 40 megapixels. Kept with the note (WebP, at most 1920 px) and its text read.',
    ),
  })
  .meta({ id: 'CaptureImageForm' });

export const CaptureAudioForm = z
  .strictObject({
    audio: binary(
      'WebM/Opus (what browsers record), Ogg, MP3, M4A or WAV, recognised by content; at most ' +
        "25 MB and the plan's recording time limit (entitlement recordingTimeLimit, seconds)",
    ),
  })
  .meta({ id: 'CaptureAudioForm' });

export const CapturePdfForm = z
  .strictObject({
    pdf: binary('A PDF of at most 20 MB; its text is read from the first 300 pages'),
  })
  .meta({ id: 'CapturePdfForm' });

/** How long a signed upload address takes files. */
export const CAPTURE_UPLOAD_TTL_SECONDS = 15 * 60;
/** An upload not made into a note this long after its address expired is deleted. */
export const CAPTURE_UPLOAD_KEPT_SECONDS = 60 * 60;

/** What a signed upload may carry, and the limit of each. */
export const UploadKind = z.enum(['audio', 'pdf']);
export type UploadKind = z.infer<typeof UploadKind>;
export const UPLOAD_MAX_BYTES: Record<UploadKind, number> = {
  audio: CAPTURE_AUDIO_MAX_BYTES,
  pdf: CAPTURE_PDF_MAX_BYTES,
};

const uploadOf = (kind: UploadKind, what: string) =>
  z.strictObject({
    kind: z.literal(kind).meta({ description: `What the file is: ${what}` }),
    name: notBlank('Give the file name')
      .max(255, 'A file name is at most 255 characters')
      .trim()
      .meta({ description: 'The file name, kept for download (never trusted for the format)' }),
    bytes: z
      .int()
      .min(1, 'The file is empty')
      .max(
        UPLOAD_MAX_BYTES[kind],
        `${what[0]!.toUpperCase()}${what.slice(1)} is at most ${UPLOAD_MAX_BYTES[kind] / 1024 / 1024} MB`,
      )
      .meta({ description: 'The exact size of the file: the address takes no more' }),
  });

export const UploadRequest = z
  .discriminatedUnion('kind', [uploadOf('audio', 'an audio file'), uploadOf('pdf', 'a PDF')])
  .meta({ id: 'UploadRequest' });
export type UploadRequest = z.input<typeof UploadRequest>;

export const UploadTarget = z
  .object({
    uploadId: z.uuid().meta({ description: 'Give it to POST /api/note/create/byupload' }),
    url: z.string().meta({
      description:
        'Where to POST the file as multipart/form-data: the object store itself (absolute) ' +
        'or this server (a path)',
    }),
    fields: z.record(z.string(), z.string()).meta({
      description: 'Form fields to send first, as they are; the file goes last, as the part file',
    }),
    maxBytes: z.int().meta({ description: 'The largest file the address takes' }),
    expiresAt: z.iso.datetime().meta({ description: 'When the address stops taking files' }),
  })
  .meta({ id: 'UploadTarget' });
export type UploadTarget = z.infer<typeof UploadTarget>;

export const UploadTokenParams = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Not an upload address'),
});

export const UploadForm = z
  .strictObject({ file: binary('The file, the only part') })
  .meta({ id: 'UploadForm' });

export const CaptureUpload = z
  .strictObject({ uploadId: z.uuid({ message: 'Not an upload id' }) })
  .meta({ id: 'CaptureUpload' });
export type CaptureUpload = z.input<typeof CaptureUpload>;

const captureApi = routesFor('notes', 'capture');

const quotaRefused = [
  403,
  'Over the monthly allowance of notes (code NOTES_LEFT_NOT_ENOUGH); nothing is kept',
] as const;

/** A URL whose host is a private address as written: refused before any note is made. */
const urlRefused = [
  400,
  'URL_REFUSED: the host is a private, loopback or link-local address (in any spelling); no ' +
    'note is made and nothing is counted',
] as const;

/** What the audio routes refuse by the content of the file, whatever its shape. */
const audioRefused = [
  422,
  'NOT_AUDIO (none of the formats by its content), RECORDING_TOO_LONG (over the plan limit) ' +
    'or UNPROCESSABLE (its length cannot be read, and the plan has a limit)',
] as const;

const createAnswer = created(
  Note,
  'The new note, capture.status processing; it fills in when the reading is done',
);

/** The routes that make notes from images, audio, links and PDFs. */
export const captureRoutes = {
  noteCreateByImage: captureApi.post('/api/note/create/byimage', {
    summary: 'Create a note from an image: kept with the note, its text read',
    form: CaptureImageForm,
    answer: createAnswer,
    errors: [
      quotaRefused,
      [422, 'NOT_AN_IMAGE (no image by its content), or UNPROCESSABLE (over 40 megapixels)'],
      imagesBusy,
    ],
  }),
  noteCreateByAudio: captureApi.post('/api/note/create/byaudio', {
    summary: 'Create a note from a voice recording: kept with the note, transcribed',
    form: CaptureAudioForm,
    answer: createAnswer,
    errors: [quotaRefused, audioRefused],
  }),
  noteCreateByAudioFile: captureApi.post('/api/note/create/byaudiofile', {
    summary: 'Create a note from an audio file: kept with the note, transcribed',
    form: CaptureAudioForm,
    answer: createAnswer,
    errors: [quotaRefused, audioRefused],
  }),
  noteCreateByAudioUrl: captureApi.post('/api/note/create/byaudioUrl', {
    summary:
      'Create a note from audio at a URL: fetched by the server (public addresses only), ' +
      'kept with the note, transcribed',
    body: CaptureAudioUrl,
    answer: createAnswer,
    errors: [urlRefused, quotaRefused],
  }),
  noteCreateByLink: captureApi.post('/api/note/create/bylink', {
    summary:
      'Create a note from a web page: fetched by the server (public addresses only), its ' +
      'article kept as Markdown with the source, summarised and tagged',
    body: CaptureLink,
    answer: createAnswer,
    errors: [urlRefused, quotaRefused],
  }),
  noteCreateByPdf: captureApi.post('/api/note/create/bypdf', {
    summary: 'Create a note from a PDF: kept with the note, its text read page by page',
    form: CapturePdfForm,
    answer: createAnswer,
    errors: [quotaRefused, [422, 'NOT_A_PDF: no PDF by its content']],
  }),
  uploadCreate: captureApi.post('/api/config/s3credentials', {
    summary:
      'An address for uploading one large audio file or PDF straight to storage, with ' +
      "progress: signed, short-lived, into the caller's own space; no storage keys are given",
    body: UploadRequest,
    answer: created(UploadTarget, 'Where and how to send the file'),
  }),
  uploadReceive: captureApi.post('/api/uploads/:token', {
    summary:
      'Take the file for an upload address, when storage is not reached directly; the ' +
      'address itself is the permission',
    public: true,
    params: UploadTokenParams,
    form: UploadForm,
    answer: noContent('The file is kept until it is made into a note or expires'),
    errors: [[404, 'No such address, or it has expired']],
  }),
  noteCreateByUpload: captureApi.post('/api/note/create/byupload', {
    summary:
      'Create a note from an uploaded audio file or PDF: checked as the upload routes check ' +
      'it, kept with the note and read',
    body: CaptureUpload,
    answer: createAnswer,
    errors: [
      quotaRefused,
      [404, 'No such upload of the caller, or it has expired'],
      [409, 'The file has not arrived yet (code CONFLICT)'],
      [422, 'NOT_AUDIO, NOT_A_PDF or RECORDING_TOO_LONG, by the content of the file'],
    ],
  }),
  noteCaptureRetry: captureApi.post('/api/note/capture/retry', {
    summary: 'Read a captured note again, after it failed or waited for a model',
    body: NoteAction,
    answer: ok(Note, 'The note, capture.status processing'),
    errors: [404, [409, 'The capture is neither failed nor waiting (code CONFLICT)']],
  }),
  noteCaptureTagsDismiss: captureApi.post('/api/note/capture/tags/dismiss', {
    summary: 'Leave the tags a capture suggests: they are no longer offered',
    body: NoteAction,
    answer: ok(Note, 'The note, capture.suggestedTags gone'),
    errors: [[404, 'No such note of the caller, or it was not captured']],
  }),
  noteFileGet: captureApi.get('/api/notes/:id/files/:name', {
    summary: 'The file a note was captured from (audio, PDF), with ranges for seeking',
    params: NoteFileParams,
    answer: file('application/octet-stream', 'The file, with its own media type'),
    errors: [404],
  }),
};
