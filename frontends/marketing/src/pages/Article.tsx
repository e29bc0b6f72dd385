import { ArrowLeftIcon } from '@noted/ui';
import type { PagePayload } from '../content/model';
import { useSite } from '../site/SiteContext';
import {
  CoverArt,
  DraftBadge,
  OtherLanguageNote,
  PostTags,
  formatDate,
  readingMinutes,
} from './parts';

/** A blog post: its title and facts, its cover, its body, and the way back to the list. */
export function Article({ page }: { page: PagePayload }) {
  const { t, lang, Link } = useSite();
  return (
    <article className="site-article" lang={page.lang}>
      <header className="site-article-head">
        <Link to="/blog" className="site-back">
          <ArrowLeftIcon className="ui-icon" aria-hidden="true" />
          {t('blog.back')}
        </Link>
        <PostTags tags={page.tags} />
        <h1>
          {page.title} <DraftBadge page={page} />
        </h1>
        <p className="site-article-lede">{page.description}</p>
        <p className="site-article-facts">
          {page.date ? <time dateTime={page.date}>{formatDate(page.date, lang)}</time> : null}
          {page.author ? <span>{t('blog.by', { author: page.author })}</span> : null}
          <span>{t('blog.minutes', { count: readingMinutes(page.html) })}</span>
        </p>
        <OtherLanguageNote page={page} message="blog.otherLanguage" />
      </header>
      {page.cover ? <CoverArt cover={page.cover} className="site-cover" loading="first" /> : null}
      <div className="ui-prose site-prose" dangerouslySetInnerHTML={{ __html: page.html }} />
    </article>
  );
}
