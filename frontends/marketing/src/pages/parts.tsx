import { formatDay } from '@noted/ui';
import type { Cover, PageSummary, SiteLanguage } from '../content/model';
import { useSite } from '../site/SiteContext';

/** Minutes to read a body of HTML: 230 words a minute, or 400 Chinese characters. */
export const readingMinutes = (html: string): number => {
  const text = html.replace(/<[^>]+>/g, ' ');
  const han = (text.match(/\p{Script=Han}/gu) ?? []).length;
  const words = text
    .replace(/\p{Script=Han}/gu, ' ')
    .split(/\s+/)
    .filter(Boolean).length;
  return Math.max(1, Math.round(words / 230 + han / 400));
};

/** A date of the content (YYYY-MM-DD) as the page's language writes it, in UTC. */
export const formatDate = (date: string, lang: SiteLanguage) =>
  formatDay(`${date}T12:00:00Z`, lang);

/** The note that a page is shown in English because its language has no version of it. */
export function OtherLanguageNote({
  page,
  message,
}: {
  page: Pick<PageSummary, 'lang'>;
  message: 'blog.otherLanguage' | 'guide.otherLanguage' | 'page.otherLanguage';
}) {
  const { t, lang } = useSite();
  if (page.lang === lang) return null;
  return <p className="site-language-note">{t(message)}</p>;
}

export function DraftBadge({ page }: { page: Pick<PageSummary, 'draft'> }) {
  const { t } = useSite();
  return page.draft ? <span className="site-draft">{t('preview.draft')}</span> : null;
}

/** The tags of a post, each leading to its list. */
export function PostTags({ tags }: { tags: string[] }) {
  const { Link } = useSite();
  if (tags.length === 0) return null;
  return (
    <ul className="site-tags">
      {tags.map((tag) => (
        <li key={tag}>
          <Link to={`/blog/tag/${tag}`} className="ui-chip">
            #{tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * A post's cover, decoration only. An SVG cover is its markup, drawn in the page: its colours
 * are the theme's (marketing.css), so it is dark in the dark theme, prerendered or hydrated,
 * and changes with the theme switch; an `<img>` could not see the theme class. A raster cover
 * is an image.
 */
export function CoverArt({
  cover,
  className,
  loading,
}: {
  cover: Cover;
  className: string;
  loading: 'eager' | 'lazy' | 'first';
}) {
  if (cover.svg) {
    return (
      <div
        className={`${className} site-cover-art`}
        dangerouslySetInnerHTML={{ __html: cover.svg }}
      />
    );
  }
  return (
    <img
      className={className}
      src={cover.src}
      width={cover.width}
      height={cover.height}
      alt=""
      {...(loading === 'first' ? { fetchPriority: 'high' as const } : { loading })}
    />
  );
}
