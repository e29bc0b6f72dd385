import { NOTES_TOTAL_HEADER, countExportedNotes } from '@noted/api';
import { Button, Callout, DownloadIcon, Progress, useShell } from '@noted/ui';
import { useEffect, useRef, useState } from 'react';
import { log } from '../log';
import { useErrorText, useNotesMessages } from '../messages';
import type { DataApi } from './DataPanel';
import { fileNameOf, saveFile } from '../download';

type ExportState =
  | { phase: 'idle' }
  | { phase: 'counting' }
  | { phase: 'running'; done: number; total: number }
  | { phase: 'saved'; name: string; total: number }
  | { phase: 'failed'; reason: string };

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/** The two downloads of everything: the notes (`/export/all`), or all one's data (`/user/data`). */
const downloads = {
  notes: {
    messages: 'all',
    fetch: (api: DataApi, signal: AbortSignal) => api.export.all({ signal }),
    notesFolder: '',
    fallbackName: 'Noted export.zip',
  },
  account: {
    messages: 'account',
    fetch: (api: DataApi, signal: AbortSignal) => api.export.accountData({ signal }),
    notesFolder: 'notes/',
    fallbackName: 'Noted data.zip',
  },
} as const;

/**
 * A download of everything: the zip is read as it streams, its notes' local headers counted
 * against the X-Noted-Notes-Total header for "N of M notes", and saved once complete. A browser
 * cannot save a download started by script until its bytes are all here, so they are kept in
 * memory until then (a Blob of the parts, which the browser may keep on disk).
 */
export function ExportAll({
  api,
  what = 'notes',
}: {
  api: DataApi;
  what?: keyof typeof downloads;
}) {
  const download = downloads[what];
  const { t } = useNotesMessages('data');
  const m = download.messages;
  const errorText = useErrorText();
  const shell = useShell();
  const [state, setState] = useState<ExportState>({ phase: 'idle' });
  const running = useRef<AbortController | undefined>(undefined);

  useEffect(() => () => running.current?.abort(), []);

  const start = async () => {
    const controller = new AbortController();
    running.current = controller;
    setState({ phase: 'counting' });
    try {
      const response = await download.fetch(api, controller.signal);
      const total = Number(response.headers.get(NOTES_TOTAL_HEADER) ?? 0);
      const name = fileNameOf(response, download.fallbackName);
      const count = countExportedNotes(download.notesFolder);
      const parts: Uint8Array<ArrayBuffer>[] = [];
      setState({ phase: 'running', done: 0, total });
      const reader = response.body?.getReader();
      if (reader) {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parts.push(value);
          setState({ phase: 'running', done: count(value), total });
        }
      }
      if (controller.signal.aborted) return;
      saveFile(new Blob(parts, { type: 'application/zip' }), name);
      setState({ phase: 'saved', name, total });
    } catch (failure) {
      if (controller.signal.aborted || isAbort(failure)) {
        setState({ phase: 'idle' });
        return;
      }
      log.error(`Downloading everything (${what}) failed.`, failure);
      setState({ phase: 'failed', reason: errorText(failure) });
    } finally {
      if (running.current === controller) running.current = undefined;
    }
  };

  const cancel = () => {
    running.current?.abort();
    setState({ phase: 'idle' });
    shell.toast(t(`${m}.cancelled`), { type: 'info' });
  };

  const busy = state.phase === 'counting' || state.phase === 'running';
  return (
    <div className="data-block">
      <div className="data-block-text">
        <h4>{t(`${m}.title`)}</h4>
        <p>{t(`${m}.description`)}</p>
      </div>
      {busy ? (
        <div className="data-busy">
          <Progress
            label={
              state.phase === 'running'
                ? t(`${m}.progress`, { count: state.total, done: state.done, total: state.total })
                : t(`${m}.counting`)
            }
            {...(state.phase === 'running' ? { value: state.done, max: state.total } : {})}
          />
          <Button size="sm" onClick={cancel}>
            {t('common.cancel')}
          </Button>
        </div>
      ) : (
        <div className="data-actions">
          <Button icon={DownloadIcon} onClick={() => void start()}>
            {t(`${m}.start`)}
          </Button>
        </div>
      )}
      {state.phase === 'saved' ? (
        <p className="data-result" role="status">
          {t(`${m}.saved`, { count: state.total, name: state.name })}
        </p>
      ) : null}
      {state.phase === 'failed' ? (
        <Callout tone="danger" role="alert">
          {t(`${m}.failed`, { reason: state.reason })}
        </Callout>
      ) : null}
    </div>
  );
}
