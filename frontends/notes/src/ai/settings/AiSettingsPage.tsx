import { aiFeatures, type AiSettings } from '@noted/api';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Trans } from 'react-i18next';
import type { NotesApi } from '../../api';
import { LoadFailed } from '../../LoadStatus';
import { log } from '../../log';
import { useErrorText, useNotesMessages } from '../../messages';
import { useLoad } from '../../useLoad';
import '../ai.css';
import './settings.css';

export interface AiSettingsPageProps {
  api: Pick<NotesApi, 'ai' | 'tags'>;
}

const MODELS = ['chat', 'embeddings', 'transcription', 'vision'] as const;

function ModelsAndFeatures({ settings }: { settings: AiSettings }) {
  const { t, i18n } = useNotesMessages('ai');
  const number = new Intl.NumberFormat(i18n.language);
  const ids = useId();
  return (
    <>
      <section className="ai-settings-block" aria-labelledby={`${ids}-provider`}>
        <h2 id={`${ids}-provider`}>{t('settings.provider.heading')}</h2>
        <p>{t(`settings.provider.${settings.provider}`)}</p>
        {settings.models.chat === null ? (
          <p className="ai-settings-how">
            <Trans t={t} i18nKey="settings.provider.howToModel" components={{ code: <code /> }} />
          </p>
        ) : null}
        <h3>{t('settings.models.heading')}</h3>
        <dl className="ai-settings-list">
          {MODELS.map((kind) => (
            <div key={kind}>
              <dt>{t(`settings.models.${kind}`)}</dt>
              <dd>
                {settings.models[kind] ?? (
                  <span className="ai-settings-off">{t('settings.models.none')}</span>
                )}
              </dd>
            </div>
          ))}
        </dl>
      </section>
      <section className="ai-settings-block" aria-labelledby={`${ids}-features`}>
        <h2 id={`${ids}-features`}>{t('settings.features.heading')}</h2>
        <dl className="ai-settings-list">
          {aiFeatures
            .filter((feature) => settings.features[feature] !== undefined)
            .map((feature) => {
              const mode = settings.features[feature] ?? 'unavailable';
              return (
                <div key={feature}>
                  <dt>{t(`settings.features.name.${feature}`)}</dt>
                  <dd data-mode={mode}>{t(`settings.features.mode.${mode}`)}</dd>
                </div>
              );
            })}
        </dl>
      </section>
      <section className="ai-settings-block" aria-labelledby={`${ids}-usage`}>
        <h2 id={`${ids}-usage`}>{t('settings.usage.heading')}</h2>
        <p>
          {t('settings.usage.tokens', {
            month: settings.usage.month,
            prompt: number.format(settings.usage.promptTokens),
            completion: number.format(settings.usage.completionTokens),
          })}
        </p>
        <h3>{t('settings.index.heading')}</h3>
        <p>
          {t('settings.index.notes', { count: settings.index.notes })}{' '}
          {settings.index.pending > 0
            ? t('settings.index.pending', { count: settings.index.pending })
            : t('settings.index.upToDate')}
        </p>
      </section>
    </>
  );
}

function ExcludedTags({
  api,
  settings,
  onSaved,
}: {
  api: Pick<NotesApi, 'ai' | 'tags'>;
  settings: AiSettings;
  onSaved: (settings: AiSettings) => void;
}) {
  const { t } = useNotesMessages('ai');
  const errorText = useErrorText();
  const headingId = useId();
  const [attempt, setAttempt] = useState(0);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(settings.excludedTags));
  const [state, setState] = useState<
    { status: 'idle' | 'saving' | 'saved' } | { status: 'failed'; reason: string }
  >({ status: 'idle' });
  const tags = useLoad(
    `tags:${attempt}`,
    () => api.tags.list(),
    (error) => log.error('Loading tags failed.', error),
  );

  const toggle = (tag: string, on: boolean) => {
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(tag);
      else next.delete(tag);
      return next;
    });
    setState({ status: 'idle' });
  };

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setState({ status: 'saving' });
    try {
      const saved = await api.ai.updateSettings({ excludedTags: [...chosen] });
      onSaved(saved);
      setState({ status: 'saved' });
    } catch (error) {
      log.error('Saving the excluded tags failed.', error);
      setState({ status: 'failed', reason: errorText(error) });
    }
  };

  let choices;
  const { settled } = tags;
  if (!settled) {
    choices = <p className="notes-status">{t('settings.excluded.loadingTags')}</p>;
  } else if ('error' in settled) {
    choices = (
      <LoadFailed
        message={(reason) => t('settings.excluded.tagsFailed', { reason })}
        error={settled.error}
        onRetry={() => setAttempt((n) => n + 1)}
      />
    );
  } else {
    // Tags excluded earlier stay listed even when no note carries them any more.
    const names = [
      ...new Set([...settled.value.items.map((item) => item.tag), ...settings.excludedTags]),
    ].sort((a, b) => a.localeCompare(b));
    choices =
      names.length === 0 ? (
        <p className="ai-empty">{t('settings.excluded.noTags')}</p>
      ) : (
        <ul className="ai-settings-tags">
          {names.map((tag) => (
            <li key={tag}>
              <label>
                <input
                  type="checkbox"
                  checked={chosen.has(tag)}
                  onChange={(event) => toggle(tag, event.target.checked)}
                />{' '}
                #{tag}
              </label>
            </li>
          ))}
        </ul>
      );
  }

  return (
    <section className="ai-settings-block" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('settings.excluded.heading')}</h2>
      <p>{t('settings.excluded.explain')}</p>
      <form onSubmit={(event) => void save(event)}>
        <fieldset className="ai-settings-fieldset">
          <legend className="visually-hidden">{t('settings.excluded.legend')}</legend>
          {choices}
        </fieldset>
        <div className="ai-settings-save">
          <button
            type="submit"
            className="ui-button ui-button-primary"
            disabled={state.status === 'saving'}
          >
            {state.status === 'saving'
              ? t('settings.excluded.saving')
              : t('settings.excluded.save')}
          </button>
          <p className="note-hint" role="status">
            {state.status === 'saved' ? t('settings.excluded.saved') : ''}
          </p>
        </div>
        {state.status === 'failed' ? (
          <p className="note-error" role="alert">
            {t('settings.excluded.saveFailed', { reason: state.reason })}
          </p>
        ) : null}
      </form>
    </section>
  );
}

/** `/ai`: how AI works here (provider, models, each feature), its use, and what stays out of it. */
export function AiSettingsPage({ api }: AiSettingsPageProps) {
  const { t } = useNotesMessages('ai');
  const [attempt, setAttempt] = useState(0);
  const { settled, show } = useLoad(
    `settings:${attempt}`,
    () => api.ai.settings(),
    (error) => log.error('Loading the AI settings failed.', error),
  );

  let content;
  if (!settled) {
    content = <p className="notes-status">{t('settings.loading')}</p>;
  } else if ('error' in settled) {
    content = (
      <LoadFailed
        message={(reason) => t('settings.loadFailed', { reason })}
        error={settled.error}
        onRetry={() => setAttempt((n) => n + 1)}
      />
    );
  } else {
    content = (
      <>
        <ModelsAndFeatures settings={settled.value} />
        <ExcludedTags api={api} settings={settled.value} onSaved={show} />
      </>
    );
  }

  return (
    <div className="ai-settings">
      <h1>{t('settings.heading')}</h1>
      {content}
    </div>
  );
}
