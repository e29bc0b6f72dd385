import { CAPTURE_AUDIO_MAX_BYTES, CAPTURE_PDF_MAX_BYTES, NOTE_IMAGE_MAX_BYTES } from '@noted/api';

/** What the capture menu offers; the three audio ways share one dialog, on their own tab. */
export type CaptureChoice = 'image' | 'recording' | 'audioFile' | 'audioUrl' | 'link' | 'pdf';

/** The tabs of the audio dialog. */
export type AudioWay = 'recording' | 'audioFile' | 'audioUrl';

export const isAudioWay = (choice: CaptureChoice): choice is AudioWay =>
  choice === 'recording' || choice === 'audioFile' || choice === 'audioUrl';

/** The kinds of file picked in a capture dialog, each with the server's limit. */
export type CaptureFileKind = 'image' | 'audio' | 'pdf';

export const captureLimits: Record<CaptureFileKind, number> = {
  image: NOTE_IMAGE_MAX_BYTES,
  audio: CAPTURE_AUDIO_MAX_BYTES,
  pdf: CAPTURE_PDF_MAX_BYTES,
};

/** What the file pickers offer; a hint to the browser only, the server reads the content. */
export const captureAccept: Record<CaptureFileKind, string> = {
  image: 'image/*',
  audio: 'audio/*,.webm,.ogg,.oga,.opus,.mp3,.m4a,.wav',
  pdf: 'application/pdf,.pdf',
};

const audioExtensions = /\.(webm|ogg|oga|opus|mp3|m4a|mp4|wav)$/i;

/**
 * Whether a file looks like `kind` by its media type or its name. A hint only: a file without a
 * type passes (the server recognises the content), one plainly of another type does not.
 */
export const looksLike = (kind: CaptureFileKind, file: File): boolean => {
  const type = file.type.toLowerCase();
  switch (kind) {
    case 'image':
      return type.startsWith('image/');
    case 'audio':
      return (
        type.startsWith('audio/') ||
        type === 'video/webm' ||
        type === 'video/ogg' ||
        audioExtensions.test(file.name) ||
        (type === '' && !/\.[a-z0-9]+$/i.test(file.name))
      );
    case 'pdf':
      return type === 'application/pdf' || /\.pdf$/i.test(file.name);
  }
};

/**
 * Files from this size on go to storage through a signed upload address
 * (`/api/config/s3credentials`), straight to the object store where browsers reach it;
 * smaller ones in one request to the capture route.
 */
export const UPLOAD_ADDRESS_MIN_BYTES = 4 * 1024 * 1024;
export const viaUploadAddress = (file: Blob) => file.size >= UPLOAD_ADDRESS_MIN_BYTES;

/** Why a picked file is not sent, if it is not. */
export type FileProblem = 'wrongType' | 'tooLarge' | 'empty';

export const fileProblem = (kind: CaptureFileKind, file: File): FileProblem | undefined => {
  if (!looksLike(kind, file)) return 'wrongType';
  if (file.size === 0) return 'empty';
  if (file.size > captureLimits[kind]) return 'tooLarge';
  return undefined;
};
