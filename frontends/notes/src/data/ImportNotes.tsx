import type { ImportProgress, ImportResult } from '@noted/api';
import {
  Button,
  Callout,
  Progress,
  UploadIcon,
  errorCode,
  paymentsDisabledIn,
  useAccountState,
  useShell,
} from '@noted/ui';
import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { log } from '../log';
import { useErrorText, useNotesMessages, type Translate } from '../messages';
import type { DataApi } from './DataPanel';

/** What the importer takes: Markdown files and zips of them (Noted's or Notion's exports). */
const ACCEPT = '.md,.markdown,.txt,.zip';
/** At most this many failures and skipped files are listed; the rest are counted. */
const LISTED = 20;

type ImportState =
  | { phase: 'idle' }
  | { phase: 'sending'; name: string; sent?: number; total?: number }
  | { phase: 'importing'; name: string; progress: ImportProgress }
  | { phase: 'done'; name: string; result: ImportResult }
  | { phase: 'stopped'; name: string }
  | { phase: 'refused'; name: string; message: string; quota: boolean };

/** The import's own refusals and what to say about them; anything else shows its message. */
const refusals = new Set([
  'IMPORT_UNSUPPORTED',
  'ZIP_INVALID',
  'IMPORT_EMPTY',
  'IMPORT_TOO_LARGE',
  'IMPORT_TOO_COMPLEX',
  'PAYLOAD_TOO_LARGE',
  'BUSY',
]);

const detailsOf = (error: unknown): { needed?: number; left?: number } => {
  const details = (error as { details?: unknown }).details;
  return typeof details === 'object' && details !== null ? details : {};
};

/** A skipped file's reason in words, the code itself when it is not one of the known ones. */
const reasonText = (t: Translate, code: string) =>
  t(`import.reasons.${code}`, { defaultValue: code });

function Summary({ name, result }: { name: string; result: ImportResult }) {
  const { t } = useNotesMessages('data');
  const failures = result.failed.slice(0, LISTED);
  const skipped = result.skipped.slice(0, LISTED);
  const moreSkipped = result.skippedTotal - skipped.length;
  return (
    <div className="data-summary" role="status">
      <p className="data-result">
        {t(result.cancelled ? 'import.summary.stopped' : 'import.summary.done', { name })}
      </p>
      <ul className="data-counts">
        <li>{t('import.summary.created', { count: result.created })}</li>
        <li>{t('import.summary.updated', { count: result.updated })}</li>
        <li>{t('import.summary.failed', { count: result.failed.length })}</li>
        {result.imagesUploaded > 0 ? (
          <li>{t('import.summary.images', { count: result.imagesUploaded })}</li>
        ) : null}
      </ul>
      {failures.length > 0 ? (
        <details className="data-details" open>
          <summary>{t('import.summary.failedList')}</summary>
          <ul>
            {failures.map((failure) => (
              <li key={`${failure.sourcePath} ${failure.image ?? ''}`}>
                <span className="data-path">{failure.image ?? failure.sourcePath}</span>
                {' — '}
                {reasonText(t, failure.code)}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {skipped.length > 0 ? (
        <details className="data-details">
          <summary>{t('import.summary.skipped', { count: result.skippedTotal })}</summary>
          <ul>
            {skipped.map((item) => (
              <li key={item.path}>
                <span className="data-path">{item.path}</span>
                {' — '}
                {reasonText(t, item.reason)}
              </li>
            ))}
            {moreSkipped > 0 ? <li>{t('import.summary.more', { count: moreSkipped })}</li> : null}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

/**
 * Import notes: a file picked or dropped goes up, then the import's progress as the server
 * sends it, then what it did. A refusal (the month's allowance, a file that is not notes)
 * comes before anything is written, and says so.
 */
export function ImportNotes({ api }: { api: DataApi }) {
  const { t } = useNotesMessages('data');
  const errorText = useErrorText();
  const shell = useShell();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const running = useRef<AbortController | undefined>(undefined);
  const [state, setState] = useState<ImportState>({ phase: 'idle' });
  const [over, setOver] = useState(false);
  // Without payments the allowance is the server's: there is nothing to upgrade to.
  const paymentsOff = paymentsDisabledIn(useAccountState());

  useEffect(() => () => running.current?.abort(), []);

  const start = async (file: File) => {
    const controller = new AbortController();
    running.current = controller;
    const name = file.name;
    setState({ phase: 'sending', name });
    try {
      const result = await api.imports.file(file, {
        fileName: name,
        signal: controller.signal,
        onUploadProgress: (sent, total) =>
          setState((current) =>
            current.phase === 'sending' ? { phase: 'sending', name, sent, total } : current,
          ),
        onProgress: (progress) => setState({ phase: 'importing', name, progress }),
      });
      setState({ phase: 'done', name, result });
    } catch (failure) {
      if (controller.signal.aborted) {
        setState({ phase: 'stopped', name });
        return;
      }
      log.warn('Importing notes failed.', failure);
      const code = errorCode(failure);
      if (code === 'NOTES_LEFT_NOT_ENOUGH') {
        const { needed, left } = detailsOf(failure);
        setState({
          phase: 'refused',
          name,
          quota: true,
          message:
            needed === undefined || left === undefined
              ? t('import.quotaUnknown')
              : t('import.quota', { count: needed, needed, left }),
        });
      } else {
        setState({
          phase: 'refused',
          name,
          quota: false,
          message:
            code && refusals.has(code)
              ? t(`import.refused.${code}`)
              : t('import.failed', { reason: errorText(failure) }),
        });
      }
    } finally {
      if (running.current === controller) running.current = undefined;
    }
  };

  const choose = (files: FileList | null) => {
    const file = files?.[0];
    if (file) void start(file);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (!busy) choose(event.dataTransfer.files);
  };

  const busy = state.phase === 'sending' || state.phase === 'importing';
  return (
    <div className="data-block">
      <div className="data-block-text">
        <h4>{t('import.title')}</h4>
        <p>{t('import.description')}</p>
      </div>
      {busy ? (
        <div className="data-busy">
          {state.phase === 'importing' && state.progress.total > 0 ? (
            <Progress
              label={t('import.progress', {
                count: state.progress.total,
                done: state.progress.done,
                total: state.progress.total,
              })}
              value={state.progress.done}
              max={state.progress.total}
            />
          ) : state.phase === 'sending' && state.total && (state.sent ?? 0) < state.total ? (
            <Progress
              label={t('import.sendingPercent', {
                name: state.name,
                percent: Math.round(((state.sent ?? 0) / state.total) * 100),
              })}
              value={state.sent ?? 0}
              max={state.total}
            />
          ) : (
            // Sent, and the server reads and plans the file before its first count.
            <Progress
              label={
                state.phase === 'sending' && !state.total
                  ? t('import.sending', { name: state.name })
                  : t('import.reading', { name: state.name })
              }
            />
          )}
          <Button size="sm" onClick={() => running.current?.abort()}>
            {t('import.stop')}
          </Button>
        </div>
      ) : (
        <div
          className="data-drop"
          data-over={over || undefined}
          onDragOver={(event) => {
            event.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
        >
          <input
            ref={input}
            id={`${id}-file`}
            className="visually-hidden"
            type="file"
            accept={ACCEPT}
            tabIndex={-1}
            aria-hidden="true"
            onChange={(event) => {
              choose(event.target.files);
              event.target.value = '';
            }}
          />
          <Button icon={UploadIcon} onClick={() => input.current?.click()}>
            {t('import.choose')}
          </Button>
          <span className="data-drop-hint">{t('import.drop')}</span>
        </div>
      )}
      {state.phase === 'done' ? <Summary name={state.name} result={state.result} /> : null}
      {state.phase === 'stopped' ? (
        <p className="data-result" role="status">
          {t('import.stopped', { name: state.name })}
        </p>
      ) : null}
      {state.phase === 'refused' ? (
        <Callout
          tone={state.quota ? 'warning' : 'danger'}
          role="alert"
          title={t('import.refusedTitle', { name: state.name })}
          actions={
            state.quota && !paymentsOff ? (
              <Button size="sm" variant="primary" onClick={() => shell.offerUpgrade()}>
                {t('import.upgrade')}
              </Button>
            ) : null
          }
        >
          {state.quota && paymentsOff ? (
            <>
              <p>{state.message}</p>
              <p>{t('import.serverLimit')}</p>
            </>
          ) : (
            state.message
          )}
        </Callout>
      ) : null}
    </div>
  );
}
