import {
  Button,
  Callout,
  FileAudioIcon,
  LinkIcon,
  MicIcon,
  PauseIcon,
  PlayIcon,
  RefreshIcon,
  SquareIcon,
} from '@noted/ui';
import type { RefObject } from 'react';
import { useNotesMessages } from '../messages';
import type { AudioWay } from './captureFiles';
import { formatDuration, recordingExtension } from './format';
import type { PanelProps } from './panel';
import { useBlobSource } from './useBlobSource';
import type { Recorder } from './useRecorder';

export interface RecordPanelProps extends Pick<
  PanelProps,
  'busy' | 'onCancel' | 'onEdit' | 'status' | 'focusRef'
> {
  /** The plan's longest recording in seconds; 0 for none. */
  limitSeconds: number;
  /** What becomes of the recording here, in a sentence (transcribed, or only kept). */
  kept: string;
  /** The recorder, kept by the dialog (which asks before a recording is lost). */
  recorder: Recorder;
  /** Another way of adding audio (a file, a URL), when the microphone cannot be had. */
  onWay: (way: AudioWay) => void;
  /** Closes the dialog without asking: the user threw the recording away. */
  onLeave: () => void;
  onSave: (recording: Blob, extension: string) => void;
}

/** The recording, to listen to before it is saved. */
function Playback({ blob, label }: { blob: Blob; label: string }) {
  const ref = useBlobSource<HTMLAudioElement>(blob);
  return <audio ref={ref} className="capture-playback" controls aria-label={label} />;
}

/**
 * Recording a voice note: a clock counting up to the plan's limit (and the time left), which
 * stops the recording by itself there; Pause/Resume, Cancel (thrown away, microphone
 * released) and Stop & save. When the microphone cannot be had it says why and offers a file
 * or a URL instead.
 */
export function RecordPanel({
  busy,
  onCancel,
  onEdit,
  status,
  focusRef,
  limitSeconds,
  kept,
  recorder,
  onWay,
  onLeave,
  onSave,
}: RecordPanelProps) {
  const { t } = useNotesMessages('capture');
  const { state } = recorder;
  const limit = limitSeconds > 0 ? formatDuration(limitSeconds) : undefined;

  const save = (blob: Blob) => onSave(blob, recordingExtension(blob.type));
  const stopAndSave = async () => {
    onEdit();
    const blob = await recorder.stop();
    if (blob) save(blob);
  };
  const focus = focusRef as RefObject<HTMLButtonElement | null>;

  if (state.phase === 'problem') {
    const again = state.problem !== 'insecure' && state.problem !== 'unsupported';
    return (
      <div className="capture-form">
        <Callout
          tone="warning"
          role="alert"
          actions={
            again ? (
              <Button size="sm" icon={RefreshIcon} onClick={() => void recorder.start()}>
                {t('recorder.tryAgain')}
              </Button>
            ) : undefined
          }
        >
          {t(`recorder.problem.${state.problem}`)}
        </Callout>
        <div className="capture-other-ways">
          <p className="ui-hint">{t('recorder.otherWays')}</p>
          <div className="capture-other-ways-buttons">
            <Button icon={FileAudioIcon} onClick={() => onWay('audioFile')}>
              {t('audio.audioFile')}
            </Button>
            <Button icon={LinkIcon} onClick={() => onWay('audioUrl')}>
              {t('audio.audioUrl')}
            </Button>
          </div>
        </div>
        <div className="ui-dialog-actions">
          <Button onClick={onCancel}>{t('dialog.cancel')}</Button>
        </div>
      </div>
    );
  }

  if (state.phase === 'done') {
    const time = formatDuration(state.elapsedMs / 1000);
    return (
      <div className="capture-form">
        <div className="capture-recorder" data-phase="done">
          <p className="capture-recorder-state">{t('recorder.done', { time })}</p>
          {state.reachedLimit && limit ? (
            <p className="capture-recorder-note" role="status">
              {t('recorder.reachedLimit', { limit })}
            </p>
          ) : null}
          <Playback blob={state.blob} label={t('recorder.listen')} />
        </div>
        {status}
        <div className="ui-dialog-actions">
          <Button onClick={recorder.discard} disabled={busy}>
            {t('recorder.discard')}
          </Button>
          <Button variant="primary" loading={busy} disabled={busy} onClick={() => save(state.blob)}>
            {t('recorder.save')}
          </Button>
        </div>
      </div>
    );
  }

  if (state.phase === 'recording' || state.phase === 'paused') {
    const elapsed = Math.floor(state.elapsedMs / 1000);
    const remaining =
      limitSeconds > 0 ? Math.max(0, Math.ceil(limitSeconds - state.elapsedMs / 1000)) : 0;
    const share = limitSeconds > 0 ? Math.min(1, state.elapsedMs / (limitSeconds * 1000)) : 0;
    return (
      <div className="capture-form">
        <div className="capture-recorder" data-phase={state.phase}>
          <p className="capture-recorder-state">
            <span className="capture-recorder-dot" aria-hidden="true" />
            {state.phase === 'recording' ? t('recorder.recording') : t('recorder.paused')}
          </p>
          <p className="capture-clock">
            <span role="timer" aria-label={t('recorder.elapsed')}>
              {formatDuration(elapsed)}
            </span>
            {limit ? (
              <span className="capture-clock-limit"> {t('recorder.ofLimit', { limit })}</span>
            ) : null}
          </p>
          {limit ? (
            <>
              <div
                className="capture-meter"
                role="progressbar"
                aria-label={t('recorder.progress')}
                aria-valuemin={0}
                aria-valuemax={limitSeconds}
                aria-valuenow={elapsed}
                aria-valuetext={t('recorder.remaining', { time: formatDuration(remaining) })}
              >
                <span style={{ width: `${share * 100}%` }} />
              </div>
              <p className="capture-remaining">
                {t('recorder.remaining', { time: formatDuration(remaining) })}
              </p>
            </>
          ) : null}
        </div>
        <div className="ui-dialog-actions">
          <Button
            onClick={() => {
              recorder.discard();
              onLeave();
            }}
          >
            {t('recorder.cancel')}
          </Button>
          {state.phase === 'recording' ? (
            <Button icon={PauseIcon} onClick={recorder.pause}>
              {t('recorder.pause')}
            </Button>
          ) : (
            <Button icon={PlayIcon} onClick={recorder.resume}>
              {t('recorder.resume')}
            </Button>
          )}
          <Button
            ref={focus}
            variant="primary"
            icon={SquareIcon}
            onClick={() => void stopAndSave()}
          >
            {t('recorder.stopSave')}
          </Button>
        </div>
      </div>
    );
  }

  const starting = state.phase === 'starting';
  return (
    <div className="capture-form">
      <p className="ui-hint">{t('recorder.intro', { kept })}</p>
      <p className="capture-limit">
        {limit ? t('recorder.limit', { limit }) : t('recorder.unlimited')}
      </p>
      {starting ? (
        <p className="capture-recorder-note" role="status">
          {t('recorder.starting')}
        </p>
      ) : null}
      {status}
      <div className="ui-dialog-actions">
        <Button onClick={onCancel}>{t('dialog.cancel')}</Button>
        <Button
          ref={focus}
          variant="primary"
          icon={MicIcon}
          loading={starting}
          disabled={starting}
          onClick={() => {
            onEdit();
            void recorder.start();
          }}
        >
          {t('recorder.start')}
        </Button>
      </div>
    </div>
  );
}
