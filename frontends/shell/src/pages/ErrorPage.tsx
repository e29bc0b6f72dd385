import { useTranslation } from 'react-i18next';
import { Link } from '@noted/router';

export interface ErrorPageProps {
  /** HTTP-like status; default 500. */
  status?: number;
  /** Default "Page Not Found" for 404, "Internal Server Error" otherwise. */
  message?: string;
  description?: string;
  /** Offers a reload (for failures a reload may cure). */
  onReload?: () => void;
}

/** The generic error page: status code, status message and description. */
export function ErrorPage({ status = 500, message, description, onReload }: ErrorPageProps) {
  const { t } = useTranslation('shell');
  const shownMessage = message ?? (status === 404 ? t('error.notFound') : t('error.internal'));
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-status" aria-hidden="true">
        {status}
      </p>
      <h1 id="error-title">{description ?? shownMessage}</h1>
      {description ? <p className="error-message">{shownMessage}</p> : null}
      <p className="error-actions">
        {onReload ? (
          <button type="button" className="ui-button ui-button-primary" onClick={onReload}>
            {t('error.reload')}
          </button>
        ) : null}
        <Link className="ui-button" to="/">
          {t('error.home')}
        </Link>
      </p>
    </section>
  );
}

/** What any path the app does not know shows: "Page not found: {path}". */
export function NotFound({ path }: { path: string }) {
  const { t } = useTranslation('shell');
  return <ErrorPage status={404} description={t('error.pageNotFound', { path })} />;
}
