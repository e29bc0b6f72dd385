import type { PagePayload } from '../content/model';
import { DraftBadge, OtherLanguageNote } from './parts';
import { Pricing } from './Pricing';

/**
 * `/pricing`: the plans on a page of their own (the landing page has them as a section), or,
 * on a server that sells none, that it is free to use; then the page's own words.
 */
export function PricingPage({ page }: { page: PagePayload }) {
  return (
    <article className="site-pricing" lang={page.lang}>
      <header className="site-article-head">
        <h1>
          {page.title} <DraftBadge page={page} />
        </h1>
        <OtherLanguageNote page={page} message="page.otherLanguage" />
      </header>
      <Pricing lede={<p className="site-article-lede">{page.description}</p>} level={2} />
      {page.html ? (
        <div
          className="ui-prose site-prose site-pricing-more"
          dangerouslySetInnerHTML={{ __html: page.html }}
        />
      ) : null}
    </article>
  );
}
