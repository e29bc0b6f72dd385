/**
 * A prerendered page of the site on its own: hydrates the HTML the build rendered with the same
 * components, without the shell and its Module Federation chain. Links between the site's pages
 * are plain page loads (each one prerendered); the app's pages load the shell.
 */
import '@noted/ui/styles.css';
import './marketing.css';
import { applyTheme, followSystemTheme, readThemePreference, rememberLocale } from '@noted/ui';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { hydrateRoot } from 'react-dom/client';
import {
  forgetPreviewToken,
  loadView,
  takePreviewToken,
  type PreviewState,
} from './content/client';
import { translator } from './i18n';
import { SitePage } from './pages/SitePage';
import { siteDataId, type SiteData } from './site/data';
import { fetchPlans } from './site/plans';
import { readSignedInHint } from './site/session';
import { AnchorLink, SiteContext, type Site } from './site/SiteContext';
import { SiteLayout } from './site/SiteLayout';

const data = JSON.parse(document.getElementById(siteDataId)?.textContent ?? 'null') as SiteData;
const path = decodeURIComponent(window.location.pathname);
const token = takePreviewToken(window.location.search);

const subscribeToStorage = (listener: () => void) => {
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
};

function SiteRoot() {
  const [shown, setShown] = useState({
    view: data.view.kind === 'notFound' ? { kind: 'notFound' as const, path } : data.view,
    navigation: data.navigation,
    preview: 'off' as PreviewState,
  });
  // Hydrated signed out, as prerendered; then as the shell last found this browser.
  const signedIn = useSyncExternalStore(subscribeToStorage, readSignedInHint, () => false);
  useEffect(() => {
    // Drafts exist only behind the preview token: the page is read again with it.
    if (token) {
      loadView(path, data.lang, token).then(setShown, () => undefined);
    }
  }, []);
  const site: Site = {
    lang: data.lang,
    t: translator(data.lang),
    navigation: shown.navigation,
    signedIn,
    preview: shown.preview,
    leavePreview: () => {
      forgetPreviewToken();
      window.location.assign(path);
    },
    path,
    Link: AnchorLink,
    signIn: () => window.location.assign('/?signin'),
    switchLanguage: (lang) => {
      rememberLocale(lang);
      window.location.assign(`${path}?lang=${lang}`);
    },
    fetchPlans,
  };
  return (
    <SiteContext.Provider value={site}>
      <SiteLayout>
        <SitePage view={shown.view} />
      </SiteLayout>
    </SiteContext.Provider>
  );
}

applyTheme(readThemePreference());
followSystemTheme();
const root = document.getElementById('root');
if (root && data) hydrateRoot(root, <SiteRoot />);
