import type { Note, NoteCapture } from '@noted/api';
import { Button, Callout, RefreshIcon, errorCode } from '@noted/ui';
import { useState } from 'react';
import type { NotesApi } from '../api';
import { log } from '../log';
import { useErrorText, useNotesMessages, type Translate } from '../messages';
import { useAudioFate } from './useAudioFate';
import './capture.css';

/** What is being done with a note being read, in words. */
export const stepText = (t: Translate, capture: NoteCapture): string => {
  switch (capture.step) {
    case 'fetching':
      if (capture.kind === 'link') return t('status.fetchingPage');
      if (capture.kind === 'audio') return t('status.fetchingAudio');
      return t('status.fetching');
    case 'reading':
      return t('status.reading');
    case 'transcribing':
      return t('status.transcribing');
    case 'writing':
      return t('status.writing');
    default:
      return t('status.queued');
  }
};

export interface CaptureStatusProps {
  note: Note;
  api: Pick<NotesApi, 'capture' | 'ai'>;
  /** The note as Retry answered it (being read again). */
  onChanged: (note: Note) => void;
  /** Runs before Retry (the page saves what was typed); false stops the retry. */
  beforeRetry?: () => Promise<boolean>;
}

/**
 * How far a captured note is: a spinner and the step while it is read; on failure the error
 * and Retry; waiting for a speech-to-text model, that (and Retry only where a model now
 * exists: the server transcribes waiting audio by itself once one is set up). Nothing once it
 * is ready.
 */
export function CaptureStatus({ note, api, onChanged, beforeRetry }: CaptureStatusProps) {
  const { t } = useNotesMessages('capture');
  const errorText = useErrorText();
  const [retrying, setRetrying] = useState(false);
  const [retryError, setRetryError] = useState<string>();
  const audioFate = useAudioFate(api);
  const { capture } = note;
  if (!capture || capture.status === 'ready') return null;

  if (capture.status === 'processing') {
    return (
      <p className="capture-status" role="status">
        <span className="ui-spinner" aria-hidden="true" />
        {stepText(t, capture)}
      </p>
    );
  }

  const retry = async () => {
    setRetryError(undefined);
    setRetrying(true);
    try {
      if (beforeRetry && !(await beforeRetry())) return;
      onChanged(await api.capture.retry(note.id));
    } catch (error) {
      if (errorCode(error) !== 'CONFLICT') log.error('Retrying a capture failed.', error);
      setRetryError(t('status.retryFailed', { reason: errorText(error) }));
    } finally {
      setRetrying(false);
    }
  };

  const waiting = capture.status === 'waiting';
  // Retrying cannot help while the server has no model: it would only wait again.
  const withoutModel = waiting && audioFate === 'none';
  const reason = capture.error?.message;
  return (
    <Callout
      tone={waiting ? 'info' : 'danger'}
      className="capture-status-callout"
      actions={
        withoutModel ? undefined : (
          <Button
            size="sm"
            icon={RefreshIcon}
            loading={retrying}
            disabled={retrying}
            onClick={() => void retry()}
          >
            {t('status.retry')}
          </Button>
        )
      }
    >
      <p>
        {withoutModel
          ? t('status.waitingNoModel')
          : waiting
            ? t('status.waiting')
            : reason
              ? t('status.failed', { reason })
              : t('status.failedUnknown')}
      </p>
      {retryError ? (
        <p className="note-error" role="alert">
          {retryError}
        </p>
      ) : null}
    </Callout>
  );
}
