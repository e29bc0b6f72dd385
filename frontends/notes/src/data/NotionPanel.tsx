import type { NotionConnection } from '@noted/api';
import { Button, Callout, RefreshIcon, Skeleton, errorCode, useShell } from '@noted/ui';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { Trans } from 'react-i18next';
import { log } from '../log';
import { useErrorText, useNotesMessages } from '../messages';
import { formatDate } from '../text';
import type { DataApi } from './DataPanel';

/** How often the state is read again while a sync runs. */
const POLL_MS = 5000;

type Loaded = { connection: NotionConnection } | { error: unknown } | undefined;

/** The token form: a password field and how to get a token and share pages with it. */
function ConnectForm({
  api,
  again,
  onConnected,
}: {
  api: DataApi;
  again: boolean;
  onConnected: (connection: NotionConnection) => void;
}) {
  const { t } = useNotesMessages('data');
  const errorText = useErrorText();
  const id = useId();
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!token.trim()) {
      setError(t('notion.tokenMissing'));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      onConnected(await api.notion.connect({ token: token.trim() }));
      setToken('');
    } catch (failure) {
      log.warn('Connecting Notion failed.', failure);
      setError(
        errorCode(failure) === 'NOTION_TOKEN_INVALID'
          ? t('notion.tokenInvalid')
          : t('notion.connectFailed', { reason: errorText(failure) }),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="data-notion-form" noValidate onSubmit={(event) => void submit(event)}>
      <ol className="data-steps">
        <li>
          <Trans t={t} i18nKey="notion.step1" components={{ strong: <strong /> }} />
        </li>
        <li>
          <Trans t={t} i18nKey="notion.step2" components={{ strong: <strong /> }} />
        </li>
      </ol>
      <div className="ui-field">
        <label className="ui-label" htmlFor={`${id}-token`}>
          {t('notion.token')}
        </label>
        <div className="data-inline">
          <input
            id={`${id}-token`}
            className="ui-input"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder="ntn_…"
            value={token}
            disabled={busy}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : `${id}-hint`}
            onChange={(event) => {
              setToken(event.target.value);
              setError(undefined);
            }}
          />
          <Button type="submit" variant="primary" loading={busy} disabled={busy}>
            {again ? t('notion.reconnect') : t('notion.connect')}
          </Button>
        </div>
        <p id={`${id}-hint`} className="ui-hint">
          {t('notion.tokenHint')}
        </p>
        {error ? (
          <p id={`${id}-error`} className="ui-field-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    </form>
  );
}

const lastErrorKey = (code: string) =>
  code === 'NOTION_TOKEN_INVALID' || code === 'NOTES_LEFT_NOT_ENOUGH' || code === 'RATE_LIMITED'
    ? `notion.lastError.${code}`
    : 'notion.lastError.other';

/** What the connection is: workspace, status, last and next sync, pages kept, and its actions. */
function ConnectionState({
  api,
  connection,
  onChange,
}: {
  api: DataApi;
  connection: NotionConnection;
  onChange: (connection: NotionConnection | undefined) => void;
}) {
  const { t, i18n } = useNotesMessages('data');
  const shell = useShell();
  const errorText = useErrorText();
  const [busy, setBusy] = useState<'sync' | 'disconnect'>();
  const never = t('notion.never');

  const sync = async () => {
    setBusy('sync');
    try {
      onChange(await api.notion.sync());
    } catch (failure) {
      log.warn('Starting a Notion sync failed.', failure);
      shell.toast(t('notion.syncFailed', { reason: errorText(failure) }));
    } finally {
      setBusy(undefined);
    }
  };

  const disconnect = async () => {
    const confirmed = await shell.confirm({
      title: t('notion.disconnectConfirm.title'),
      message: t('notion.disconnectConfirm.message'),
      confirmLabel: t('notion.disconnectConfirm.confirm'),
      danger: true,
    });
    if (!confirmed) return;
    setBusy('disconnect');
    try {
      await api.notion.disconnect();
      onChange(undefined);
    } catch (failure) {
      log.warn('Disconnecting Notion failed.', failure);
      shell.toast(t('notion.disconnectFailed', { reason: errorText(failure) }));
      setBusy(undefined);
    }
  };

  return (
    <>
      <dl className="data-facts">
        <div>
          <dt>{t('notion.workspace')}</dt>
          <dd>{connection.workspaceName ?? t('notion.unnamed')}</dd>
        </div>
        <div>
          <dt>{t('notion.status')}</dt>
          <dd>
            {connection.status === 'syncing' ? (
              <span className="ui-spinner" aria-hidden="true" />
            ) : null}
            {t(`notion.statuses.${connection.status}`)}
          </dd>
        </div>
        <div>
          <dt>{t('notion.lastSync')}</dt>
          <dd>
            {connection.lastSyncAt ? formatDate(connection.lastSyncAt, i18n.language) : never}
          </dd>
        </div>
        <div>
          <dt>{t('notion.pages')}</dt>
          <dd>{connection.pagesSynced.toLocaleString(i18n.language)}</dd>
        </div>
        {connection.nextSyncAt && connection.status === 'idle' ? (
          <div>
            <dt>{t('notion.nextSync')}</dt>
            <dd>{formatDate(connection.nextSyncAt, i18n.language)}</dd>
          </div>
        ) : null}
      </dl>
      {connection.lastError ? (
        <Callout tone={connection.status === 'failed' ? 'danger' : 'warning'} role="status">
          {t(lastErrorKey(connection.lastError), { code: connection.lastError })}
        </Callout>
      ) : null}
      <div className="data-actions">
        {connection.status === 'failed' ? null : (
          <Button
            icon={RefreshIcon}
            loading={busy === 'sync'}
            disabled={busy !== undefined || connection.status === 'syncing'}
            onClick={() => void sync()}
          >
            {t('notion.syncNow')}
          </Button>
        )}
        <Button
          variant="danger-ghost"
          loading={busy === 'disconnect'}
          disabled={busy !== undefined}
          onClick={() => void disconnect()}
        >
          {t('notion.disconnect')}
        </Button>
      </div>
    </>
  );
}

/** Notion: connect with an integration token, then its state, Sync now and Disconnect. */
export function NotionPanel({ api }: { api: DataApi }) {
  const { t } = useNotesMessages('data');
  const errorText = useErrorText();
  const [loaded, setLoaded] = useState<Loaded>();
  const [attempt, setAttempt] = useState(0);

  const read = useCallback(
    () =>
      api.notion.get().then(
        (connection) => setLoaded({ connection }),
        (failure: unknown) => {
          log.warn('Reading the Notion connection failed.', failure);
          setLoaded({ error: failure });
        },
      ),
    [api],
  );

  useEffect(() => {
    void read();
  }, [read, attempt]);

  const syncing = loaded && 'connection' in loaded && loaded.connection.status === 'syncing';
  useEffect(() => {
    if (!syncing) return;
    const timer = setInterval(() => void read(), POLL_MS);
    return () => clearInterval(timer);
  }, [syncing, read]);

  const connection = loaded && 'connection' in loaded ? loaded.connection : undefined;
  return (
    <div className="data-block">
      <div className="data-block-text">
        <h4>{t('notion.title')}</h4>
        <p>{t('notion.description')}</p>
      </div>
      {loaded === undefined ? <Skeleton lines={2} label={t('notion.loading')} /> : null}
      {loaded && 'error' in loaded ? (
        <Callout
          tone="danger"
          role="alert"
          actions={
            <Button size="sm" icon={RefreshIcon} onClick={() => setAttempt((n) => n + 1)}>
              {t('common.retry')}
            </Button>
          }
        >
          {t('notion.loadFailed', { reason: errorText(loaded.error) })}
        </Callout>
      ) : null}
      {connection?.connected ? (
        <ConnectionState
          api={api}
          connection={connection}
          onChange={(next) =>
            setLoaded({
              connection: next ?? { connected: false, status: 'idle', pagesSynced: 0 },
            })
          }
        />
      ) : null}
      {connection && (!connection.connected || connection.status === 'failed') ? (
        <ConnectForm
          api={api}
          again={connection.connected}
          onConnected={(next) => setLoaded({ connection: next })}
        />
      ) : null}
    </div>
  );
}
