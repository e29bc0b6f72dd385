import { RssIcon } from '@noted/ui';
import { postListPath, type PostList } from '../content/model';
import { useSite } from '../site/SiteContext';
import { CoverArt, DraftBadge, formatDate } from './parts';

/** The blog: one page of posts, newest first, with the topics to narrow it to. */
export function BlogList({ list }: { list: PostList }) {
  const { t, lang, Link, navigation } = useSite();
  const title = list.tag ? t('blog.tagged', { tag: list.tag }) : t('blog.title');
  return (
    <div className="site-blog">
      <header className="site-blog-head">
        <h1>{title}</h1>
        <p className="site-article-lede">{t('blog.lede')}</p>
        <a
          className="site-feed"
          href={lang === 'en' ? '/blog/feed.xml' : `/blog/feed.xml?lang=${lang}`}
        >
          <RssIcon className="ui-icon" aria-hidden="true" />
          {t('footer.rss')}
        </a>
      </header>
      <nav className="site-topics" aria-label={t('blog.tags')}>
        <ul>
          <li>
            <Link to="/blog" className="ui-chip" aria-current={list.tag ? undefined : 'page'}>
              {t('blog.all')}
            </Link>
          </li>
          {navigation.tags.map(({ tag, count }) => (
            <li key={tag}>
              <Link
                to={`/blog/tag/${tag}`}
                className="ui-chip"
                aria-current={list.tag === tag ? 'page' : undefined}
              >
                #{tag} <span className="site-count">{count}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {list.items.length === 0 ? <p>{t('blog.empty')}</p> : null}
      <ul className="site-posts">
        {list.items.map((post, index) => (
          <li key={post.path} className="site-post-card">
            {post.cover ? (
              <CoverArt
                cover={post.cover}
                className="site-post-card-cover"
                loading={index < 2 ? 'eager' : 'lazy'}
              />
            ) : null}
            <div className="site-post-card-text">
              <p className="site-article-facts">
                {post.date ? <time dateTime={post.date}>{formatDate(post.date, lang)}</time> : null}
                {post.author ? <span>{post.author}</span> : null}
              </p>
              <h2>
                <Link to={post.path} lang={post.lang}>
                  {post.title}
                </Link>{' '}
                <DraftBadge page={post} />
              </h2>
              <p lang={post.lang}>{post.description}</p>
            </div>
          </li>
        ))}
      </ul>
      {list.pages > 1 ? (
        <nav className="site-pager" aria-label={t('blog.pagination')}>
          {list.page > 1 ? (
            <Link to={postListPath(list.page - 1, list.tag)} rel="prev">
              {t('blog.newer')}
            </Link>
          ) : (
            <span />
          )}
          <span>{t('blog.page', { page: list.page, pages: list.pages })}</span>
          {list.page < list.pages ? (
            <Link to={postListPath(list.page + 1, list.tag)} rel="next">
              {t('blog.older')}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </div>
  );
}
