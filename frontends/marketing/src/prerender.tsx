import { renderToString } from 'react-dom/server';
import type { SiteData } from './site/data';
import { SiteRoot } from './site/SiteRoot';

/**
 * A page of the site as HTML: the very tree `site.tsx` hydrates, as it first renders (signed
 * out, no preview), so that hydration takes it over unchanged.
 */
export const renderSitePage = (data: SiteData, path: string): string =>
  renderToString(<SiteRoot data={data} path={path} token={undefined} />);
