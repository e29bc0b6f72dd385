import { renderToString } from 'react-dom/server';
import { translator } from './i18n';
import { SitePage } from './pages/SitePage';
import type { SiteData } from './site/data';
import { AnchorLink, SiteContext, type Site } from './site/SiteContext';
import { SiteLayout } from './site/SiteLayout';

const never = () => {
  throw new Error('Not while prerendering');
};

/**
 * A page of the site as HTML, exactly as `site.tsx` first renders it in the browser (signed
 * out, no preview), so that hydration takes it over unchanged.
 */
export const renderSitePage = (data: SiteData, path: string): string => {
  const site: Site = {
    lang: data.lang,
    t: translator(data.lang),
    navigation: data.navigation,
    signedIn: false,
    preview: 'off',
    leavePreview: never,
    path,
    Link: AnchorLink,
    signIn: never,
    switchLanguage: never,
    fetchPlans: () => new Promise(() => undefined),
  };
  return renderToString(
    <SiteContext.Provider value={site}>
      <SiteLayout>
        <SitePage view={data.view} />
      </SiteLayout>
    </SiteContext.Provider>,
  );
};
