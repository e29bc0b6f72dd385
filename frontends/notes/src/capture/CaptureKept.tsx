import type { Note, NoteCapture } from '@noted/api';
import { ArrowUpRightIcon, Button, DownloadIcon } from '@noted/ui';
import { useEffect, useState } from 'react';
import type { NotesApi } from '../api';
import { saveFile } from '../download';
import { log } from '../log';
import { useErrorText, useNotesMessages } from '../messages';
import { formatBytes, formatDuration, isWebAddress } from './format';

type KeptFile = NonNullable<NoteCapture['file']>;
type FileApi = Pick<NotesApi, 'capture'>;

type Loaded = { url: string; objectUrl: string } | { url: string; error: unknown };

/**
 * The kept recording or audio file, read with the bearer token (files are the owner's only)
 * and played through an object URL, revoked when the player goes away.
 */
function AudioPlayer({
  api,
  file,
  recording,
}: {
  api: FileApi;
  file: KeptFile;
  recording: boolean;
}) {
  const { t } = useNotesMessages('capture');
  const errorText = useErrorText();
  const [loaded, setLoaded] = useState<Loaded>();
  const [duration, setDuration] = useState(file.durationSeconds);

  useEffect(() => {
    let active = true;
    let objectUrl: string | undefined;
    api.capture.file(file.url).then(
      (blob) => {
        if (!active) return;
        objectUrl = URL.createObjectURL(blob);
        setLoaded({ url: file.url, objectUrl });
      },
      (error: unknown) => {
        if (!active) return;
        log.error('Loading the audio of a note failed.', error);
        setLoaded({ url: file.url, error });
      },
    );
    return () => {
      active = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [api, file.url]);

  const label = recording ? t('kept.audio') : t('kept.audioFile');
  const current = loaded?.url === file.url ? loaded : undefined;
  return (
    <figure className="capture-audio">
      <figcaption>
        <span className="capture-audio-label">{label}</span>
        {duration !== undefined && Number.isFinite(duration) ? (
          <span className="capture-audio-duration">
            {t('kept.duration', { time: formatDuration(duration) })}
          </span>
        ) : null}
      </figcaption>
      {!current ? (
        <p className="capture-audio-loading" role="status">
          {t('kept.loading')}
        </p>
      ) : 'error' in current ? (
        <p className="note-error" role="alert">
          {t('kept.loadFailed', { reason: errorText(current.error) })}
        </p>
      ) : (
        <audio
          controls
          preload="metadata"
          src={current.objectUrl}
          aria-label={label}
          onLoadedMetadata={(event) => {
            const seconds = event.currentTarget.duration;
            if (duration === undefined && Number.isFinite(seconds)) setDuration(seconds);
          }}
        />
      )}
    </figure>
  );
}

/** "Download PDF (name, size)": the kept PDF, read with the token and saved under its name. */
function PdfDownload({ api, file }: { api: FileApi; file: KeptFile }) {
  const { t, i18n } = useNotesMessages('capture');
  const errorText = useErrorText();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const download = async () => {
    setBusy(true);
    setError(undefined);
    try {
      saveFile(await api.capture.file(file.url), file.name || 'document.pdf');
    } catch (caught) {
      log.error('Downloading the PDF of a note failed.', caught);
      setError(t('kept.downloadFailed', { reason: errorText(caught) }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="capture-pdf">
      <Button
        size="sm"
        icon={DownloadIcon}
        loading={busy}
        disabled={busy}
        onClick={() => void download()}
      >
        {t('kept.downloadPdf', {
          name: file.name || 'document.pdf',
          size: formatBytes(file.bytes, i18n.language),
        })}
      </Button>
      {error ? (
        <p className="note-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The page a note was made from, opened in a new tab, without this page as its opener. */
function SourceLink({ url, siteName }: { url: string; siteName: string | undefined }) {
  const { t } = useNotesMessages('capture');
  const name = siteName?.trim() || new URL(url).hostname;
  return (
    <p className="capture-source">
      <span>{t('kept.source')}</span>{' '}
      <a href={url} target="_blank" rel="noopener noreferrer">
        {name}
        <ArrowUpRightIcon className="ui-icon" aria-hidden="true" />
        <span className="visually-hidden"> {t('kept.newTab')}</span>
      </a>
    </p>
  );
}

const isAudioFile = (capture: NoteCapture, file: KeptFile) =>
  capture.kind === 'audio' || file.type.startsWith('audio/') || file.type === 'video/webm';

/**
 * What a captured note keeps besides its text: the recording or audio file to play, the PDF
 * to download, or the web page it came from.
 */
export function CaptureKept({ note, api }: { note: Note; api: FileApi }) {
  const { capture } = note;
  if (!capture) return null;
  const { file } = capture;
  const source = capture.url && isWebAddress(capture.url) ? capture.url : undefined;
  const showSource = capture.kind === 'link' && source !== undefined;
  const audio = file && isAudioFile(capture, file);
  const pdf = file && !audio && (capture.kind === 'pdf' || file.type === 'application/pdf');
  if (!showSource && !audio && !pdf) return null;
  return (
    <div className="capture-kept">
      {showSource ? <SourceLink url={source} siteName={capture.siteName} /> : null}
      {audio ? (
        <AudioPlayer api={api} file={file} recording={capture.origin === 'recording'} />
      ) : null}
      {pdf ? <PdfDownload api={api} file={file} /> : null}
    </div>
  );
}
