import { ArrowUpRightIcon, Callout, EyeOffIcon, SparklesIcon } from '@noted/ui';
import { Trans } from 'react-i18next';
import { Link } from '@noted/router';
import { useErrorText, useNotesMessages } from '../messages';
import { errorCode } from '../text';
import { OfflineUnavailable, RetryButton, useOfflineFailure } from '../LoadStatus';

/** Whether an AI call failed because no language model is configured. */
export const needsModel = (error: unknown) => errorCode(error) === 'AI_MODEL_REQUIRED';

function SettingsLink() {
  const { t } = useNotesMessages('ai');
  return (
    <p>
      <Link to="/settings/ai" className="ai-notice-link">
        {t('notice.settingsLink')}
        <ArrowUpRightIcon className="ui-icon" aria-hidden="true" />
      </Link>
    </p>
  );
}

/**
 * Why an AI feature gave no answer, in words a person can act on: a missing language model and
 * a tag excluded from AI are explained, not shown as failures; anything else offers Retry.
 */
export function AiNotice({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useNotesMessages('ai');
  const errorText = useErrorText();
  const code = errorCode(error);
  const offline = useOfflineFailure(error, onRetry);
  if (offline) return <OfflineUnavailable onRetry={onRetry} />;
  if (code === 'AI_MODEL_REQUIRED') {
    return (
      <Callout
        tone="info"
        role="alert"
        icon={SparklesIcon}
        title={t('notice.modelRequired.title')}
        className="ai-notice"
      >
        <p>
          <Trans t={t} i18nKey="notice.modelRequired.how" components={{ code: <code /> }} />
        </p>
        <SettingsLink />
      </Callout>
    );
  }
  if (code === 'AI_EXCLUDED') {
    return (
      <Callout
        tone="neutral"
        role="alert"
        icon={EyeOffIcon}
        title={t('notice.excluded.title')}
        className="ai-notice"
      >
        <p>{t('notice.excluded.why')}</p>
        <SettingsLink />
      </Callout>
    );
  }
  return (
    <Callout
      tone="danger"
      role="alert"
      className="ai-notice"
      actions={onRetry ? <RetryButton onRetry={onRetry} /> : undefined}
    >
      <p>{t('notice.failed', { reason: errorText(error) })}</p>
    </Callout>
  );
}
