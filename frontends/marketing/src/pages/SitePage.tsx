import type { PagePayload, PostList } from '../content/model';
import { Article } from './Article';
import { BlogList } from './BlogList';
import { ContentPage } from './ContentPage';
import { Guide } from './Guide';
import { Landing } from './Landing';
import { NotFound } from './NotFound';
import { PricingPage } from './PricingPage';

/** What one path of the site shows: a page, a list of posts, or that nothing is there. */
export type SiteView =
  | { kind: 'page'; page: PagePayload }
  | { kind: 'list'; list: PostList }
  | { kind: 'notFound'; path: string };

export function SitePage({ view }: { view: SiteView }) {
  if (view.kind === 'notFound') return <NotFound path={view.path} />;
  if (view.kind === 'list') return <BlogList list={view.list} />;
  const { page } = view;
  switch (page.kind) {
    case 'landing':
      return <Landing page={page} />;
    case 'guide':
      return <Guide page={page} />;
    case 'post':
      return <Article page={page} />;
    case 'pricing':
      return <PricingPage page={page} />;
    default:
      return <ContentPage page={page} />;
  }
}
