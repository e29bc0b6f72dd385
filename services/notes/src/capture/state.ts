import type { CaptureKind, CaptureStatus, CaptureStep, NoteCapture } from '@noted/api';

/** Where a captured note came from: a file given, a recording made in the browser, a URL. */
export type CaptureOrigin = 'upload' | 'recording' | 'url';

/** The file kept with a captured note (audio, PDF), stored at `<user>/<note>/<name>`. */
export interface CaptureFile {
  /** The stored name: 128 random bits and the extension of the sniffed format. */
  name: string;
  /** The name it came with, offered on download. */
  originalName: string;
  type: string;
  bytes: number;
  durationSeconds?: number;
}

/**
 * A note's capture, kept with the note (`notes.capture`, jsonb): how it came to be, the reading's
 * progress and outcome. `attempt` grows with every retry; work done for an older attempt is
 * dropped, so a late or repeated delivery never overwrites a newer one.
 */
export interface CaptureState {
  kind: CaptureKind;
  origin: CaptureOrigin;
  status: CaptureStatus;
  step: CaptureStep | null;
  attempt: number;
  url?: string;
  siteName?: string;
  file?: CaptureFile;
  method?: string;
  model?: string;
  pages?: number;
  truncated?: boolean;
  error?: { code: string; message: string };
  /** Tags the reading suggests and the user has neither taken nor left. */
  suggestedTags?: string[];
  startedAt: string;
  finishedAt?: string;
}

export const fileUrlOf = (noteId: string, name: string) => `/api/notes/${noteId}/files/${name}`;

/** A capture as the API shows it: the stored file's name becomes its owner-only URL. */
export const presentCapture = (noteId: string, state: CaptureState): NoteCapture => {
  const { file, ...rest } = state;
  return {
    ...rest,
    ...(file
      ? {
          file: {
            url: fileUrlOf(noteId, file.name),
            name: file.originalName,
            type: file.type,
            bytes: file.bytes,
            ...(file.durationSeconds === undefined
              ? {}
              : { durationSeconds: file.durationSeconds }),
          },
        }
      : {}),
  };
};

/** A new capture, queued for its first reading. */
export const startedCapture = (
  kind: CaptureKind,
  origin: CaptureOrigin,
  extra: Pick<CaptureState, 'url' | 'file'> = {},
): CaptureState => ({
  kind,
  origin,
  status: 'processing',
  step: 'queued',
  attempt: 1,
  ...extra,
  startedAt: new Date().toISOString(),
});

/** The same capture queued again for another reading (a retry, or a model configured since). */
export const retriedCapture = (state: CaptureState): CaptureState => {
  const {
    error: _error,
    finishedAt: _finished,
    method: _method,
    model: _model,
    suggestedTags: _suggested,
    ...rest
  } = state;
  return {
    ...rest,
    status: 'processing',
    step: 'queued',
    attempt: state.attempt + 1,
    startedAt: new Date().toISOString(),
  };
};

/** Whether a reading for `attempt` may still change the capture. */
export const isCurrent = (state: CaptureState | null, attempt: number): state is CaptureState =>
  state !== null && state.status === 'processing' && state.attempt === attempt;
