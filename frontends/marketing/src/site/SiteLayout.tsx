import {
  BrandMark,
  MenuIcon,
  MonitorIcon,
  MoonIcon,
  SunIcon,
  buttonClass,
  onThemeChanged,
  readThemePreference,
  saveThemePreference,
  themePreferences,
  type IconComponent,
  type ThemePreference,
} from '@noted/ui';
import { useSyncExternalStore, type ReactNode } from 'react';
import { siteLanguages, type SiteLanguage } from '../content/model';
import { useSite } from './SiteContext';

const themeIcons: Record<ThemePreference, IconComponent> = {
  light: SunIcon,
  dark: MoonIcon,
  system: MonitorIcon,
};

const subscribeToTheme = (listener: () => void) => onThemeChanged(listener);

/**
 * Light → dark → system, like the app's own toggle. Hydrated as 'system' (what the prerendered
 * page shows), then as stored.
 */
function ThemeButton() {
  const { t } = useSite();
  const preference = useSyncExternalStore(
    subscribeToTheme,
    readThemePreference,
    () => 'system' as ThemePreference,
  );
  const following =
    themePreferences[(themePreferences.indexOf(preference) + 1) % themePreferences.length] ??
    'system';
  const Icon = themeIcons[preference];
  const name = t('theme.toggle', {
    current: t(`theme.${preference}`),
    next: t(`theme.${following}`),
  });
  return (
    <button
      type="button"
      className={buttonClass({ variant: 'ghost', iconOnly: true })}
      onClick={() => saveThemePreference(following)}
      aria-label={name}
      title={name}
    >
      <Icon className="ui-icon" aria-hidden="true" />
    </button>
  );
}

const languageNames: Record<SiteLanguage, string> = { en: 'English', zh: '中文' };

function SiteHeader() {
  const { t, Link, signedIn, signIn } = useSite();
  const links = (
    <>
      <Link to="/landing#features">{t('nav.features')}</Link>
      <Link to="/pricing">{t('nav.pricing')}</Link>
      <Link to="/guide">{t('nav.guide')}</Link>
      <Link to="/blog">{t('nav.blog')}</Link>
    </>
  );
  return (
    <header className="site-header">
      <div className="site-bar">
        <Link to="/landing" className="site-brand" aria-label={t('nav.home')}>
          <BrandMark />
          <span aria-hidden="true">Noted</span>
        </Link>
        <nav className="site-nav" aria-label={t('nav.label')}>
          {links}
        </nav>
        <div className="site-actions">
          <ThemeButton />
          {signedIn ? (
            <a className={buttonClass({ variant: 'primary', size: 'sm' })} href="/">
              {t('nav.openApp')}
            </a>
          ) : (
            <>
              <button
                type="button"
                className={buttonClass({ variant: 'ghost', size: 'sm', className: 'site-sign-in' })}
                onClick={signIn}
              >
                {t('nav.signIn')}
              </button>
              <button
                type="button"
                className={buttonClass({ variant: 'primary', size: 'sm' })}
                onClick={signIn}
              >
                {t('nav.start')}
              </button>
            </>
          )}
          <details className="site-menu">
            <summary className={buttonClass({ variant: 'ghost', iconOnly: true })}>
              <MenuIcon className="ui-icon" aria-hidden="true" />
              <span className="visually-hidden">{t('nav.label')}</span>
            </summary>
            <nav className="site-menu-panel" aria-label={t('nav.label')}>
              {links}
              {signedIn ? null : (
                <button type="button" className="site-menu-action" onClick={signIn}>
                  {t('nav.signIn')}
                </button>
              )}
            </nav>
          </details>
        </div>
      </div>
    </header>
  );
}

function SiteFooter() {
  const { t, Link, navigation, lang, switchLanguage, path } = useSite();
  return (
    <footer className="site-footer">
      <div className="site-footer-inner">
        <div className="site-footer-brand">
          <Link to="/landing" className="site-brand">
            <BrandMark />
            <span>Noted</span>
          </Link>
          <p>{t('footer.tagline')}</p>
        </div>
        <nav aria-label={t('footer.product')}>
          <h2>{t('footer.product')}</h2>
          <ul>
            <li>
              <Link to="/landing#features">{t('nav.features')}</Link>
            </li>
            <li>
              <Link to="/pricing">{t('nav.pricing')}</Link>
            </li>
            {navigation.guide.slice(0, 4).map((chapter) => (
              <li key={chapter.path}>
                <Link to={chapter.path}>{chapter.title}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-label={t('footer.resources')}>
          <h2>{t('footer.resources')}</h2>
          <ul>
            <li>
              <Link to="/guide">{t('nav.guide')}</Link>
            </li>
            <li>
              <Link to="/blog">{t('nav.blog')}</Link>
            </li>
            <li>
              <a href={lang === 'en' ? '/blog/feed.xml' : `/blog/feed.xml?lang=${lang}`}>
                {t('footer.rss')}
              </a>
            </li>
            <li>
              <Link to="/feedback">{t('footer.feedback')}</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label={t('footer.company')}>
          <h2>{t('footer.company')}</h2>
          <ul>
            {navigation.pages.map((page) => (
              <li key={page.path}>
                <Link to={page.path}>{page.title}</Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="site-footer-bottom">
        <p>{t('footer.openSource')}</p>
        <p className="site-languages">
          <span>{t('footer.language')}:</span>
          {siteLanguages.map((other) =>
            other === lang ? (
              <span key={other} aria-current="true">
                {languageNames[other]}
              </span>
            ) : (
              <a
                key={other}
                href={`${path}?lang=${other}`}
                hrefLang={other}
                lang={other}
                onClick={(event) => {
                  event.preventDefault();
                  switchLanguage(other);
                }}
              >
                {languageNames[other]}
              </a>
            ),
          )}
        </p>
      </div>
    </footer>
  );
}

function PreviewBanner() {
  const { t, preview, leavePreview } = useSite();
  if (preview === 'off') return null;
  return (
    <div className="site-preview" role="status">
      <span>{preview === 'on' ? t('preview.on') : t('preview.refused')}</span>
      <button type="button" className={buttonClass({ size: 'sm' })} onClick={leavePreview}>
        {t('preview.leave')}
      </button>
    </div>
  );
}

/** The site's frame: skip link, header, the page as `main`, footer. */
export function SiteLayout({ children }: { children: ReactNode }) {
  const { t } = useSite();
  return (
    <div className="site">
      <a className="skip-link" href="#main">
        {t('skip')}
      </a>
      <PreviewBanner />
      <SiteHeader />
      <main id="main" className="site-main" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
