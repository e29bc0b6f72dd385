import type { Note } from '@noted/api';
import type { ReactNode, RefObject } from 'react';
import type { NotesApi } from '../api';

export type CaptureApi = Pick<NotesApi, 'capture' | 'ai'>;

/** What the dialog is doing with the capture, as the progress line says it. */
export type CaptureStage = 'preparing' | 'uploading' | 'sending';

/** Sends a capture and answers the new note; `stage` moves the progress line on. */
export type SendCapture = (stage: (next: CaptureStage) => void) => Promise<Note>;

/** What every way of capturing gets from the dialog. */
export interface PanelProps {
  api: CaptureApi;
  /** A capture is being sent: nothing may be changed meanwhile. */
  busy: boolean;
  onCreate: (first: CaptureStage, send: SendCapture) => void;
  onCancel: () => void;
  /** The user changed what is to be sent: the last failure no longer applies. */
  onEdit: () => void;
  /** The progress line and the failure, shown above the panel's buttons. */
  status: ReactNode;
  /** Where the focus goes when the dialog opens. */
  focusRef: RefObject<HTMLElement | null>;
}

/**
 * What becomes of audio here, as the capture copy says it: transcribed by this server's
 * speech-to-text model, kept without a transcript (no model), or (not known yet) just kept.
 */
export type AudioFate = 'model' | 'none' | 'unknown';
