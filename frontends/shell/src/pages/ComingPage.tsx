import { buttonClass, BookOpenIcon, FeedbackIcon, NewspaperIcon, SparklesIcon } from '@noted/ui';
import type { IconComponent } from '@noted/ui';
import { useTranslation } from 'react-i18next';
import { Link } from '@noted/router';

/** Pages whose frontend (marketing) is not built yet. */
export type ComingPageName = 'landing' | 'guide' | 'blog' | 'article' | 'feedback';

const icons: Record<ComingPageName, IconComponent> = {
  landing: SparklesIcon,
  guide: BookOpenIcon,
  blog: NewspaperIcon,
  article: NewspaperIcon,
  feedback: FeedbackIcon,
};

/**
 * A real page for a route whose remote does not exist yet: it says what will be here and
 * what works today, in the route's own layout.
 */
export function ComingPage({ page }: { page: ComingPageName }) {
  const { t } = useTranslation('landing');
  const Icon = icons[page];
  return (
    <section className="coming-page" aria-labelledby="coming-title">
      <span className="error-art" aria-hidden="true">
        <Icon className="ui-icon" />
      </span>
      <h1 id="coming-title">{t(`coming.${page}.title`)}</h1>
      <p>{t(`coming.${page}.body`)}</p>
      <p className="coming-note">{t('coming.note')}</p>
      <p className="error-actions">
        <Link className={buttonClass({ variant: 'primary' })} to="/">
          {t('coming.toNotes')}
        </Link>
      </p>
    </section>
  );
}
