import { useTranslation } from 'react-i18next';
import { Link } from '@noted/router';

/** Pages whose frontend (marketing or billing) is not built yet. */
export type ComingPageName =
  | 'landing'
  | 'guide'
  | 'blog'
  | 'article'
  | 'feedback'
  | 'subscriptionSuccess'
  | 'subscriptionCancel';

/**
 * A real page for a route whose remote does not exist yet: it says what will be here and
 * what works today, in the route's own layout.
 */
export function ComingPage({ page }: { page: ComingPageName }) {
  const { t } = useTranslation('landing');
  return (
    <section className="coming-page" aria-labelledby="coming-title">
      <h1 id="coming-title">{t(`coming.${page}.title`)}</h1>
      <p>{t(`coming.${page}.body`)}</p>
      <p className="coming-note">{t('coming.note')}</p>
      <p>
        <Link className="ui-button ui-button-primary" to="/">
          {t('coming.toNotes')}
        </Link>
      </p>
    </section>
  );
}
