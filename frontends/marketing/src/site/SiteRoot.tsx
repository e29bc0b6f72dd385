import { rememberLocale } from '@noted/ui';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { forgetPreviewToken, loadView, type PreviewState } from '../content/client';
import { translator } from '../i18n';
import { SitePage } from '../pages/SitePage';
import type { SiteData } from './data';
import { fetchPlans } from './plans';
import { readSignedInHint } from './session';
import { AnchorLink, SiteContext, type Site } from './SiteContext';
import { SiteLayout } from './SiteLayout';

const subscribeToStorage = (listener: () => void) => {
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
};

export interface SiteRootProps {
  data: SiteData;
  /** The path the browser is at (a 404 names it). */
  path: string;
  /** The preview token, when one is kept: the page is read again with it. */
  token: string | undefined;
}

/**
 * A prerendered page, as the site script hydrates it: first exactly as the build rendered it
 * (signed out, no preview), then as this browser is (the shell's signed-in hint, drafts).
 */
export function SiteRoot({ data, path, token }: SiteRootProps) {
  const [shown, setShown] = useState({
    view: data.view.kind === 'notFound' ? { kind: 'notFound' as const, path } : data.view,
    navigation: data.navigation,
    preview: 'off' as PreviewState,
  });
  const signedIn = useSyncExternalStore(subscribeToStorage, readSignedInHint, () => false);
  useEffect(() => {
    if (token) loadView(path, data.lang, token).then(setShown, () => undefined);
  }, [path, data.lang, token]);
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
