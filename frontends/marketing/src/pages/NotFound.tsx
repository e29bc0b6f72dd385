import { FileQuestionIcon, buttonClass } from '@noted/ui';
import { useSite } from '../site/SiteContext';

/** What a path without content shows: which path, and the ways on. */
export function NotFound({ path }: { path: string }) {
  const { t, Link } = useSite();
  // The path kept whole on a line of its own when it does not fit ("/no-such-" | "page" reads
  // as two words), broken anywhere only when longer than a line.
  const [before, after] = t('notFound.title').split('{path}');
  return (
    <section className="site-not-found" aria-labelledby="not-found-title">
      <span className="site-not-found-art" aria-hidden="true">
        <FileQuestionIcon className="ui-icon" />
      </span>
      <h1 id="not-found-title">
        {before}
        <span className="site-not-found-path">{path}</span>
        {after}
      </h1>
      <p>{t('notFound.body')}</p>
      <p className="site-not-found-actions">
        <Link className={buttonClass({ variant: 'primary' })} to="/landing">
          {t('notFound.home')}
        </Link>
        <Link className={buttonClass()} to="/guide">
          {t('notFound.guide')}
        </Link>
        <Link className={buttonClass({ variant: 'ghost' })} to="/blog">
          {t('notFound.blog')}
        </Link>
      </p>
    </section>
  );
}
