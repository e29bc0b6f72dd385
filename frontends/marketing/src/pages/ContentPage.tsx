import type { PagePayload } from '../content/model';
import { useSite } from '../site/SiteContext';
import { DraftBadge, OtherLanguageNote, formatDate } from './parts';

/** A page of its own (about, privacy, terms, the FAQ): title, lede, body. */
export function ContentPage({ page }: { page: PagePayload }) {
  const { t, lang } = useSite();
  return (
    <article className="site-article" lang={page.lang}>
      <header className="site-article-head">
        <h1>
          {page.title} <DraftBadge page={page} />
        </h1>
        <p className="site-article-lede">{page.description}</p>
        {page.updated ? (
          <p className="site-article-facts">
            {t('page.updated', { date: formatDate(page.updated, lang) })}
          </p>
        ) : null}
        <OtherLanguageNote page={page} message="page.otherLanguage" />
      </header>
      <div className="ui-prose site-prose" dangerouslySetInnerHTML={{ __html: page.html }} />
    </article>
  );
}
