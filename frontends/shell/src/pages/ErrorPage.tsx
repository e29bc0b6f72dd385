import { RefreshIcon, TriangleAlertIcon, buttonClass } from '@noted/ui';
import { useTranslation } from 'react-i18next';
import { Link } from '@noted/router';

export interface ErrorPageProps {
  /** HTTP-like status; default 500. */
  status?: number;
  /** Default "Internal Server Error". */
  message?: string;
  description?: string;
  /** Offers a reload (for failures a reload may cure). */
  onReload?: () => void;
}

/**
 * The error page of a page that failed: status code, status message and description. (A path
 * nobody owns is the site's "Page not found", drawn by the marketing remote.)
 */
export function ErrorPage({ status = 500, message, description, onReload }: ErrorPageProps) {
  const { t } = useTranslation('shell');
  const shownMessage = message ?? t('error.internal');
  return (
    <section className="error-page" aria-labelledby="error-title">
      <span className="error-art" aria-hidden="true">
        <TriangleAlertIcon className="ui-icon" />
      </span>
      <p className="error-status">
        <span className="error-code" aria-hidden="true">
          {status}
        </span>
        <span>{shownMessage}</span>
      </p>
      <h1 id="error-title">{description ?? shownMessage}</h1>
      <p className="error-message">{t('error.internalHelp')}</p>
      <p className="error-actions">
        {onReload ? (
          <button type="button" className={buttonClass({ variant: 'primary' })} onClick={onReload}>
            <RefreshIcon className="ui-icon" aria-hidden="true" />
            {t('error.reload')}
          </button>
        ) : null}
        <Link className={buttonClass({ variant: onReload ? 'secondary' : 'primary' })} to="/">
          {t('error.home')}
        </Link>
      </p>
    </section>
  );
}
