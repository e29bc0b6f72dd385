import { NOTE_IMAGE_MAX_BYTES, type Note } from '@noted/api';
import {
  Callout,
  Dialog,
  FileAudioIcon,
  LinkIcon,
  MicIcon,
  Progress,
  errorCode,
  useShell,
  type IconComponent,
} from '@noted/ui';
import { useId, useRef, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import { compressImage, prepareUpload } from '../images/compress';
import { log } from '../log';
import { useErrorText, useNotesMessages, type Translate } from '../messages';
import { isAudioWay, viaUploadAddress, type AudioWay, type CaptureChoice } from './captureFiles';
import { FilePanel } from './FilePanel';
import { formatDuration } from './format';
import type { CaptureApi, CaptureStage, PanelProps, SendCapture } from './panel';
import { RecordPanel } from './RecordPanel';
import { UrlPanel } from './UrlPanel';
import { useAudioFate } from './useAudioFate';
import { holdsRecording, useRecorder } from './useRecorder';
import { useRecordingLimit } from './useRecordingLimit';
import './capture.css';

export interface CaptureDialogProps {
  choice: CaptureChoice;
  api: CaptureApi;
  onClose: () => void;
  /** The note was created (it is still being read): show it. */
  onCreated: (note: Note) => void;
}

const detailsOf = (error: unknown): Record<string, unknown> => {
  const details =
    typeof error === 'object' && error !== null && 'details' in error ? error.details : undefined;
  return typeof details === 'object' && details !== null
    ? (details as Record<string, unknown>)
    : {};
};

/** What to say when the server refused a capture. */
const failureText = (t: Translate, error: unknown, errorText: (error: unknown) => string) => {
  switch (errorCode(error)) {
    case 'NOT_AN_IMAGE':
      return t('image.notAnImage');
    case 'NOT_AUDIO':
      return t('audio.notAudio');
    case 'NOT_A_PDF':
      return t('pdf.notPdf');
    case 'RECORDING_TOO_LONG': {
      const { limit } = detailsOf(error);
      return typeof limit === 'number' && limit > 0
        ? t('audio.tooLong', { limit: formatDuration(limit) })
        : t('audio.tooLongUnknown');
    }
    case 'PAYLOAD_TOO_LARGE':
      return t('dialog.tooLargeForServer');
    case 'VALIDATION_FAILED':
    case 'UNPROCESSABLE':
    case 'URL_REFUSED':
      // The server says what is wrong: the address, or a rule the file breaks (too many pixels).
      return errorText(error);
    default:
      return t('dialog.failed', { reason: errorText(error) });
  }
};

/**
 * Sending: the share of the file uploaded while the browser reports it (the client sends files
 * through XMLHttpRequest for that), else a bar that shows activity only.
 */
function CaptureProgress({ label, fraction }: { label: string; fraction?: number }) {
  const percent = fraction === undefined ? undefined : Math.round(fraction * 100);
  return percent === undefined ? (
    <Progress label={label} live />
  ) : (
    <Progress label={`${label} ${percent}%`} value={percent} max={100} live />
  );
}

const audioWays: { way: AudioWay; icon: IconComponent }[] = [
  { way: 'recording', icon: MicIcon },
  { way: 'audioFile', icon: FileAudioIcon },
  { way: 'audioUrl', icon: LinkIcon },
];

/** Record, Choose a file, From a URL: the tabs of the audio dialog. */
function AudioWays({
  id,
  way,
  locked,
  onWay,
}: {
  id: string;
  way: AudioWay;
  /** Another tab would lose the recording, or a capture is being sent. */
  locked: boolean;
  onWay: (way: AudioWay) => void;
}) {
  const { t } = useNotesMessages('capture');
  const ref = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (locked) return;
    const at = audioWays.findIndex((each) => each.way === way);
    const last = audioWays.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? (at + 1) % audioWays.length
        : event.key === 'ArrowLeft'
          ? (at + last) % audioWays.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    onWay(audioWays[next]?.way ?? way);
    ref.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]')[next]?.focus();
  };
  return (
    <div
      ref={ref}
      role="tablist"
      aria-label={t('audio.ways')}
      className="ui-segmented ui-segmented-block capture-ways"
      onKeyDown={onKeyDown}
    >
      {audioWays.map(({ way: each, icon: Icon }) => (
        <button
          key={each}
          type="button"
          role="tab"
          id={`${id}-tab-${each}`}
          aria-selected={each === way}
          aria-controls={`${id}-panel`}
          tabIndex={each === way ? 0 : -1}
          disabled={locked && each !== way}
          onClick={() => onWay(each)}
        >
          <Icon className="ui-icon" aria-hidden="true" />
          {t(`audio.${each}`)}
        </button>
      ))}
    </div>
  );
}

const recordingName = (extension: string) =>
  `voice-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.${extension}`;

/**
 * The dialog of one way of capturing: a photo or image, audio (recorded, a file or a URL, on
 * tabs), a web page or a PDF. It checks what it can before sending, shows the sending, and
 * hands over the new note; what the server refuses is said here, except the month's notes
 * used up, which the shell's client offers the plans for (this dialog closes so it is seen).
 */
export function CaptureDialog({ choice, api, onClose, onCreated }: CaptureDialogProps) {
  const { t } = useNotesMessages('capture');
  const errorText = useErrorText();
  const shell = useShell();
  const id = useId();
  const focusRef = useRef<HTMLElement>(null);
  const recordingLimit = useRecordingLimit();
  const [way, setWay] = useState<AudioWay>(isAudioWay(choice) ? choice : 'recording');
  const [stage, setStage] = useState<CaptureStage>();
  const [error, setError] = useState<string>();
  const [uploaded, setUploaded] = useState<number>();
  const upload = {
    onUploadProgress: (sent: number, total: number) =>
      setUploaded(total > 0 ? Math.min(1, sent / total) : undefined),
  };
  // Kept here, not in the Record tab: the dialog asks before a recording would be lost.
  const recorder = useRecorder({ limitSeconds: recordingLimit });
  const audioFate = useAudioFate(api);
  const holding = holdsRecording(recorder.state);
  const kind = isAudioWay(choice) ? 'audio' : choice;

  /** One capture at a time, however fast the clicks come (the state is a render behind). */
  const sending = useRef(false);
  const create = async (first: CaptureStage, send: SendCapture) => {
    if (sending.current) return;
    sending.current = true;
    setError(undefined);
    setUploaded(undefined);
    setStage(first);
    try {
      const note = await send(setStage);
      onCreated(note);
    } catch (caught) {
      sending.current = false;
      setStage(undefined);
      if (errorCode(caught) === 'NOTES_LEFT_NOT_ENOUGH') {
        // The shell's client already offers the plans in a toast, which this modal would hide.
        onClose();
        return;
      }
      log.error('Creating a note from a capture failed.', caught);
      setError(failureText(t, caught, errorText));
    }
  };

  const close = async () => {
    if (stage) return;
    if (holding) {
      const discard = await shell.confirm({
        title: t('recorder.discardTitle'),
        message: t('recorder.discardMessage'),
        confirmLabel: t('recorder.discard'),
        danger: true,
      });
      if (!discard) return;
    }
    onClose();
  };

  const status = (
    <>
      {stage ? (
        <CaptureProgress
          label={t(`dialog.${stage}`)}
          {...(stage === 'uploading' && uploaded !== undefined ? { fraction: uploaded } : {})}
        />
      ) : null}
      {error ? (
        <Callout tone="danger" role="alert" className="capture-failure">
          {error}
        </Callout>
      ) : null}
    </>
  );
  const panel: PanelProps = {
    api,
    busy: stage !== undefined,
    onCreate: (first, send) => void create(first, send),
    onCancel: () => void close(),
    onEdit: () => setError(undefined),
    status,
    focusRef,
  };

  const kept = t(`audio.kept.${audioFate}`);
  const audioHint =
    recordingLimit > 0
      ? t('audio.hint', { limit: formatDuration(recordingLimit), kept })
      : t('audio.hintUnlimited', { kept });

  let content: ReactNode;
  switch (kind) {
    case 'image':
      content = (
        <FilePanel
          {...panel}
          kind="image"
          hint={t('image.hint')}
          send={(file) => ({
            first: 'preparing',
            send: async (next) => {
              // At most 1 MB and 1920 px; the original when compressing fails or gains nothing.
              const blob = await prepareUpload(file, compressImage);
              if (blob.size > NOTE_IMAGE_MAX_BYTES) throw new Error(t('image.tooLarge'));
              next('uploading');
              return api.capture.image(blob, file.name || 'image', upload);
            },
          })}
        />
      );
      break;
    case 'pdf':
      content = (
        <FilePanel
          {...panel}
          kind="pdf"
          hint={t('pdf.hint')}
          send={(file) => ({
            first: 'uploading',
            send: () =>
              viaUploadAddress(file)
                ? api.capture.upload('pdf', file, file.name || 'document.pdf', upload)
                : api.capture.pdf(file, file.name || 'document.pdf', upload),
          })}
        />
      );
      break;
    case 'link':
      content = <UrlPanel {...panel} which="link" hint={t('link.hint')} />;
      break;
    case 'audio':
      content = (
        <>
          <AudioWays
            id={id}
            way={way}
            locked={holding || recorder.state.phase === 'starting' || stage !== undefined}
            onWay={(next) => {
              setError(undefined);
              setWay(next);
            }}
          />
          <div
            role="tabpanel"
            id={`${id}-panel`}
            aria-labelledby={`${id}-tab-${way}`}
            className="capture-way"
          >
            {way === 'recording' ? (
              <RecordPanel
                {...panel}
                limitSeconds={recordingLimit}
                kept={kept}
                recorder={recorder}
                onWay={setWay}
                onLeave={onClose}
                onSave={(blob, extension) =>
                  void create('uploading', () =>
                    api.capture.audio(blob, recordingName(extension), 'recording', upload),
                  )
                }
              />
            ) : way === 'audioFile' ? (
              <FilePanel
                {...panel}
                kind="audio"
                hint={audioHint}
                send={(file) => ({
                  first: 'uploading',
                  send: () =>
                    viaUploadAddress(file)
                      ? api.capture.upload('audio', file, file.name || 'audio', upload)
                      : api.capture.audio(file, file.name || 'audio', 'upload', upload),
                })}
              />
            ) : (
              <UrlPanel {...panel} which="audioUrl" hint={t('audio.urlHint', { kept })} />
            )}
          </div>
        </>
      );
      break;
  }

  return (
    <Dialog
      title={t(`dialog.${kind}`)}
      onClose={() => void close()}
      initialFocus={focusRef}
      className="capture-dialog"
    >
      {content}
    </Dialog>
  );
}

export default CaptureDialog;
