import { aiFeatures, type AiSettings } from '@noted/api';
import {
  Button,
  Callout,
  CheckIcon,
  CircleCheckIcon,
  CpuIcon,
  EyeOffIcon,
  GaugeIcon,
  PageHeader,
  SparklesIcon,
  type IconComponent,
} from '@noted/ui';
import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import type { FormEvent } from 'react';
import { Trans } from 'react-i18next';
import type { NotesApi } from '../../api';
import { LoadFailed, Loading } from '../../LoadStatus';
import { log } from '../../log';
import { useErrorText, useNotesMessages } from '../../messages';
import { useLoad } from '../../useLoad';
import '../ai.css';
import './settings.css';

export interface AiSettingsPageProps {
  api: Pick<NotesApi, 'ai' | 'tags'>;
}

const MODELS = ['chat', 'embeddings', 'retrieval', 'transcription', 'vision'] as const;
/** Features whose model is the embedding models, not a language model. */
const BY_MEANING: ReadonlySet<string> = new Set(['search', 'related']);

/** One group of settings: a card with an icon, a heading and what it holds. */
function SettingsCard({
  id,
  icon: Icon,
  title,
  description,
  children,
}: {
  id: string;
  icon: IconComponent;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="ai-settings-card ui-card" aria-labelledby={id}>
      <header className="ai-settings-card-head">
        <span className="ai-settings-card-icon" aria-hidden="true">
          <Icon className="ui-icon" />
        </span>
        <div className="ai-settings-card-text">
          <h2 id={id}>{title}</h2>
          {description ? <div className="ai-settings-card-description">{description}</div> : null}
        </div>
      </header>
      <div className="ai-settings-card-body">{children}</div>
    </section>
  );
}

function ModelsAndFeatures({ settings }: { settings: AiSettings }) {
  const { t, i18n } = useNotesMessages('ai');
  const number = new Intl.NumberFormat(i18n.language);
  const ids = useId();
  return (
    <>
      <SettingsCard
        id={`${ids}-provider`}
        icon={CpuIcon}
        title={t('settings.provider.heading')}
        description={t(`settings.provider.${settings.provider}`)}
      >
        {settings.models.chat === null ? (
          <Callout tone="info" icon={SparklesIcon} className="ai-settings-how">
            <p>
              <Trans t={t} i18nKey="settings.provider.howToModel" components={{ code: <code /> }} />
            </p>
          </Callout>
        ) : null}
        <h3 className="ai-settings-subheading">{t('settings.models.heading')}</h3>
        <dl className="ai-settings-list">
          {MODELS.map((kind) => (
            <div key={kind}>
              <dt>{t(`settings.models.${kind}`)}</dt>
              <dd>
                {settings.models[kind] ? (
                  <code className="ai-settings-model">{settings.models[kind]}</code>
                ) : (
                  <span className="ai-settings-off">{t('settings.models.none')}</span>
                )}
              </dd>
            </div>
          ))}
        </dl>
      </SettingsCard>
      <SettingsCard
        id={`${ids}-features`}
        icon={SparklesIcon}
        title={t('settings.features.heading')}
      >
        <dl className="ai-settings-list">
          {aiFeatures
            .filter((feature) => settings.features[feature] !== undefined)
            .map((feature) => {
              const mode = settings.features[feature] ?? 'unavailable';
              return (
                <div key={feature}>
                  <dt>{t(`settings.features.name.${feature}`)}</dt>
                  <dd className="ai-settings-mode" data-mode={mode}>
                    {t(
                      `settings.features.mode.${mode === 'model' && BY_MEANING.has(feature) ? 'meaning' : mode}`,
                    )}
                  </dd>
                </div>
              );
            })}
        </dl>
      </SettingsCard>
      <SettingsCard id={`${ids}-usage`} icon={GaugeIcon} title={t('settings.usage.heading')}>
        <p className="ai-settings-line">
          {t('settings.usage.tokens', {
            month: settings.usage.month,
            prompt: number.format(settings.usage.promptTokens),
            completion: number.format(settings.usage.completionTokens),
          })}
        </p>
        <h3 className="ai-settings-subheading">{t('settings.index.heading')}</h3>
        <p className="ai-settings-line">
          {t('settings.index.notes', { count: settings.index.notes })}{' '}
          {settings.index.pending > 0
            ? t('settings.index.pending', { count: settings.index.pending })
            : t('settings.index.upToDate')}
        </p>
        {settings.index.retrievalPending > 0 ? (
          <p className="ai-settings-line">
            {t('settings.index.retrievalPending', {
              count: settings.index.retrievalPending,
              model: settings.models.retrieval,
            })}
          </p>
        ) : null}
      </SettingsCard>
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
    choices = <Loading lines={2}>{t('settings.excluded.loadingTags')}</Loading>;
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
              <label className="ui-chip ai-settings-tag">
                <input
                  type="checkbox"
                  checked={chosen.has(tag)}
                  onChange={(event) => toggle(tag, event.target.checked)}
                />
                <EyeOffIcon className="ui-icon ai-settings-tag-off" aria-hidden="true" />#{tag}
              </label>
            </li>
          ))}
        </ul>
      );
  }

  return (
    <SettingsCard
      id={headingId}
      icon={EyeOffIcon}
      title={t('settings.excluded.heading')}
      description={t('settings.excluded.explain')}
    >
      <form className="ai-settings-form" onSubmit={(event) => void save(event)}>
        <fieldset className="ai-settings-fieldset">
          <legend className="visually-hidden">{t('settings.excluded.legend')}</legend>
          {choices}
        </fieldset>
        {state.status === 'failed' ? (
          <Callout tone="danger" role="alert">
            {t('settings.excluded.saveFailed', { reason: state.reason })}
          </Callout>
        ) : null}
        <div className="ai-settings-save">
          <Button
            type="submit"
            variant="primary"
            icon={CheckIcon}
            loading={state.status === 'saving'}
            disabled={state.status === 'saving'}
          >
            {state.status === 'saving'
              ? t('settings.excluded.saving')
              : t('settings.excluded.save')}
          </Button>
          <p className="ai-settings-saved" role="status">
            {state.status === 'saved' ? (
              <>
                <CircleCheckIcon className="ui-icon" aria-hidden="true" />
                {t('settings.excluded.saved')}
              </>
            ) : null}
          </p>
        </div>
      </form>
    </SettingsCard>
  );
}

/** `/ai`: how AI works here (provider, models, each feature), its use, and what stays out of it. */
export function AiSettingsPage({ api }: AiSettingsPageProps) {
  const { t } = useNotesMessages('ai');
  const headingId = useId();
  const [attempt, setAttempt] = useState(0);
  const { settled, show } = useLoad(
    `settings:${attempt}`,
    () => api.ai.settings(),
    (error) => log.error('Loading the AI settings failed.', error),
  );

  let content;
  if (!settled) {
    content = (
      <Loading blocks={3} lines={4}>
        {t('settings.loading')}
      </Loading>
    );
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
    <section className="ai-settings" aria-labelledby={headingId}>
      <PageHeader
        titleId={headingId}
        title={t('settings.heading')}
        description={t('settings.description')}
      />
      {content}
    </section>
  );
}
