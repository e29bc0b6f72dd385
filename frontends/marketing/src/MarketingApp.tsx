import './marketing.css';
import type { ApiClient } from '@noted/api';
import {
  ShellContext,
  Skeleton,
  Callout,
  buttonClass,
  changeLocale,
  isLocale,
  type ShellServices,
} from '@noted/ui';
import { Link as RouterLink, useLocation } from '@noted/router';
import { useCallback, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import {
  forgetPreviewToken,
  loadView,
  normalPath,
  takePreviewToken,
  type LoadedView,
} from './content/client';
import { defaultSiteLanguage, type SiteLanguage } from './content/model';
import { translator } from './i18n';
import { SitePage } from './pages/SitePage';
import { SiteContext, type Site } from './site/SiteContext';
import { SiteLayout } from './site/SiteLayout';

export interface MarketingAppProps {
  api: ApiClient;
  shell: ShellServices;
}

const emptyNavigation = { guide: [], tags: [], pages: [] };

function InAppLink({
  to,
  children,
  ...rest
}: { to: string; children: ReactNode } & React.AnchorHTMLAttributes<HTMLAnchorElement>) {
  return (
    <RouterLink to={to} {...rest}>
      {children}
    </RouterLink>
  );
}

/** The language the shell shows, when the site has it. */
const useLanguage = (shell: ShellServices): SiteLanguage => {
  const subscribe = useCallback(
    (listener: () => void) => {
      shell.i18n.on('languageChanged', listener);
      return () => shell.i18n.off('languageChanged', listener);
    },
    [shell.i18n],
  );
  const language = useSyncExternalStore(subscribe, () => shell.i18n.language);
  return isLocale(language) ? language : defaultSiteLanguage;
};

/**
 * The site's pages inside the shell (reached by a link in the app): the same pages the
 * prerendered documents show, fetched as page payloads, post lists and navigation files.
 */
export default function MarketingApp({ api, shell }: MarketingAppProps) {
  const { pathname, search, hash } = useLocation();
  const path = normalPath(pathname);
  const lang = useLanguage(shell);
  const account = useSyncExternalStore(shell.account.subscribe, shell.account.get);
  const [token, setToken] = useState(() => takePreviewToken(search));
  const [attempt, setAttempt] = useState(0);
  // What was fetched, for which path, language, token and attempt: another key is still loading.
  const key = `${lang} ${path} ${token ?? ''} ${attempt}`;
  const [fetched, setFetched] = useState<{ key: string; value: LoadedView | 'failed' }>();
  const loaded = fetched?.key === key ? fetched.value : undefined;

  useEffect(() => {
    let current = true;
    loadView(path, lang, token).then(
      (view) => current && setFetched({ key, value: view }),
      () => current && setFetched({ key, value: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [path, lang, token, key]);

  const title = loaded && loaded !== 'failed' ? titleOf(loaded, lang) : undefined;
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
  useEffect(() => {
    if (!loaded || loaded === 'failed' || !hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [loaded, hash]);

  const t = translator(lang);
  const site: Site = {
    lang,
    t,
    navigation: loaded && loaded !== 'failed' ? loaded.navigation : emptyNavigation,
    signedIn: account.phase !== 'signedOut',
    preview: loaded && loaded !== 'failed' ? loaded.preview : 'off',
    leavePreview: () => {
      forgetPreviewToken();
      setToken(undefined);
    },
    path,
    Link: InAppLink,
    signIn: shell.requestSignIn,
    switchLanguage: (next) => void changeLocale(shell.i18n, next),
    fetchPlans: () => api.billing.plans(),
    choosePlan: () => shell.account.openBilling('upgrade'),
  };
  return (
    <ShellContext.Provider value={shell}>
      <SiteContext.Provider value={site}>
        <SiteLayout>
          {loaded === undefined ? (
            <div className="site-loading">
              <Skeleton lines={6} label={t('loading')} />
            </div>
          ) : loaded === 'failed' ? (
            <div className="site-loading">
              <Callout
                tone="danger"
                role="alert"
                actions={
                  <button
                    type="button"
                    className={buttonClass({ size: 'sm' })}
                    onClick={() => setAttempt((count) => count + 1)}
                  >
                    {t('retry')}
                  </button>
                }
              >
                {t('failed')}
              </Callout>
            </div>
          ) : (
            <SitePage view={loaded.view} />
          )}
        </SiteLayout>
      </SiteContext.Provider>
    </ShellContext.Provider>
  );
}

const titleOf = ({ view }: LoadedView, lang: SiteLanguage) => {
  const t = translator(lang);
  if (view.kind === 'notFound') return t('notFound.title', { path: view.path });
  if (view.kind === 'list') {
    return `${view.list.tag ? t('blog.tagged', { tag: view.list.tag }) : t('blog.title')} · Noted`;
  }
  return view.page.kind === 'landing' ? view.page.title : `${view.page.title} · Noted`;
};
