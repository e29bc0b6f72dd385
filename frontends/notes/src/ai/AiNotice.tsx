import { Trans } from 'react-i18next';
import { Link } from '@noted/router';
import { useErrorText, useNotesMessages } from '../messages';
import { errorCode } from '../text';

/** Whether an AI call failed because no language model is configured. */
export const needsModel = (error: unknown) => errorCode(error) === 'AI_MODEL_REQUIRED';

/**
 * Why an AI feature gave no answer, in words a person can act on: a missing language model and
 * a tag excluded from AI are explained, not shown as failures; anything else offers Retry.
 */
export function AiNotice({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useNotesMessages('ai');
  const errorText = useErrorText();
  const code = errorCode(error);
  if (code === 'AI_MODEL_REQUIRED') {
    return (
      <div className="ai-notice" role="alert">
        <p className="ai-notice-title">{t('notice.modelRequired.title')}</p>
        <p>
          <Trans t={t} i18nKey="notice.modelRequired.how" components={{ code: <code /> }} />
        </p>
        <p>
          <Link to="/settings/ai">{t('notice.settingsLink')}</Link>
        </p>
      </div>
    );
  }
  if (code === 'AI_EXCLUDED') {
    return (
      <div className="ai-notice" role="alert">
        <p className="ai-notice-title">{t('notice.excluded.title')}</p>
        <p>{t('notice.excluded.why')}</p>
        <p>
          <Link to="/settings/ai">{t('notice.settingsLink')}</Link>
        </p>
      </div>
    );
  }
  return (
    <div className="notes-error" role="alert">
      <p>{t('notice.failed', { reason: errorText(error) })}</p>
      {onRetry ? (
        <button type="button" className="ui-button" onClick={onRetry}>
          {t('common.retry')}
        </button>
      ) : null}
    </div>
  );
}
