import { ArrowUpRightIcon, ChevronLeftIcon, ChevronRightIcon } from '@noted/ui';
import type { PagePayload } from '../content/model';
import { useSite } from '../site/SiteContext';
import { DraftBadge, OtherLanguageNote } from './parts';

/** The guide: its chapters beside the page, the index's chapter list, the way on. */
export function Guide({ page }: { page: PagePayload }) {
  const { t, Link, navigation } = useSite();
  const isIndex = page.path === '/guide';
  const sections = page.headings.filter((heading) => heading.depth === 2);
  return (
    <div className="site-guide">
      <nav className="site-guide-nav" aria-label={t('guide.chapters')}>
        <p className="ui-overline">{t('guide.title')}</p>
        <ol>
          <li>
            <Link to="/guide" aria-current={isIndex ? 'page' : undefined}>
              {t('guide.title')}
            </Link>
          </li>
          {navigation.guide.map((chapter) => (
            <li key={chapter.path}>
              <Link
                to={chapter.path}
                aria-current={chapter.path === page.path ? 'page' : undefined}
              >
                {chapter.title}
              </Link>
            </li>
          ))}
        </ol>
      </nav>
      <article className="site-guide-page" lang={page.lang}>
        <header className="site-article-head">
          <h1>
            {page.title} <DraftBadge page={page} />
          </h1>
          <p className="site-article-lede">{page.description}</p>
          <OtherLanguageNote page={page} message="guide.otherLanguage" />
        </header>
        {!isIndex && sections.length > 2 ? (
          <nav className="site-toc" aria-label={t('guide.onThisPage')}>
            <p className="ui-overline">{t('guide.onThisPage')}</p>
            <ul>
              {sections.map((heading) => (
                <li key={heading.id}>
                  <a href={`#${heading.id}`}>{heading.text}</a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <div className="ui-prose site-prose" dangerouslySetInnerHTML={{ __html: page.html }} />
        {isIndex ? (
          <ol className="site-chapters">
            {navigation.guide.map((chapter, index) => (
              <li key={chapter.path}>
                <Link to={chapter.path}>
                  <span className="site-chapter-number" aria-hidden="true">
                    {index + 1}
                  </span>
                  <span>{chapter.title}</span>
                  <ArrowUpRightIcon className="ui-icon" aria-hidden="true" />
                </Link>
              </li>
            ))}
          </ol>
        ) : null}
        <nav className="site-pager" aria-label={t('guide.pager')}>
          {page.previous ? (
            <Link to={page.previous.path} className="site-pager-previous">
              <span>
                <ChevronLeftIcon className="ui-icon" aria-hidden="true" />
                {t('guide.previous')}
              </span>
              <strong>{page.previous.title}</strong>
            </Link>
          ) : (
            <span />
          )}
          {page.next ? (
            <Link to={page.next.path} className="site-pager-next">
              <span>
                {t('guide.next')}
                <ChevronRightIcon className="ui-icon" aria-hidden="true" />
              </span>
              <strong>{page.next.title}</strong>
            </Link>
          ) : null}
        </nav>
      </article>
    </div>
  );
}
