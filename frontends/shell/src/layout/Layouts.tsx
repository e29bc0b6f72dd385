import { useLayoutEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigationType } from '@noted/router';
import { InstallPrompt } from '../pwa/PwaNotices';
import { BottomNav } from './BottomNav';
import { Header } from './Header';
import { Sidebar, SidebarDrawer } from './Sidebar';
import { readSidebarCollapsed, saveSidebarCollapsed } from './sidebarState';

function SkipLink() {
  const { t } = useTranslation('shell');
  return (
    <a className="skip-link" href="#main">
      {t('layout.skipToContent')}
    </a>
  );
}

/**
 * A new page starts at its top; Back and Forward keep the place the browser restores (a list
 * scrolled down and left for a note is where it was when the user comes back).
 */
function useScrollToTopOnNavigation() {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  useLayoutEffect(() => {
    if (navigationType !== 'POP') window.scrollTo(0, 0);
  }, [pathname, navigationType]);
}

function Main({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  useScrollToTopOnNavigation();
  return (
    <main id="main" className={wide ? 'app-main app-main-wide' : 'app-main'} tabIndex={-1}>
      {children}
    </main>
  );
}

/** The default layout: header, the sidebar (a drawer and a tab bar on a phone) and the page. */
export function DefaultLayout({ children }: { children: ReactNode }) {
  const [collapsed, setCollapsed] = useState(readSidebarCollapsed);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const toggle = () => {
    saveSidebarCollapsed(!collapsed);
    setCollapsed(!collapsed);
  };
  return (
    <div className="app app-with-sidebar" data-sidebar={collapsed ? 'collapsed' : 'expanded'}>
      <SkipLink />
      <Header onMenu={() => setDrawerOpen(true)} />
      <div className="app-body">
        <Sidebar collapsed={collapsed} onToggle={toggle} />
        <Main>
          <InstallPrompt />
          {children}
        </Main>
      </div>
      <BottomNav />
      {drawerOpen ? <SidebarDrawer onClose={() => setDrawerOpen(false)} /> : null}
    </div>
  );
}

/** The default layout without sidebar: public and marketing pages, a shared note. */
export function PlainLayout({ children }: { children: ReactNode }) {
  return (
    <div className="app app-plain">
      <SkipLink />
      <Header />
      <div className="app-body">
        <Main wide>{children}</Main>
      </div>
    </div>
  );
}

/** The error layout: the brand and the theme only, so it works whatever failed. */
export function ErrorLayout({ children }: { children: ReactNode }) {
  return (
    <div className="app app-error">
      <SkipLink />
      <Header minimal />
      <div className="app-body">
        <Main wide>{children}</Main>
      </div>
    </div>
  );
}
