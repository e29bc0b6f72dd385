import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { InstallPrompt } from '../pwa/PwaNotices';
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

function Main({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="app-main" tabIndex={-1}>
      {children}
    </main>
  );
}

/** The default layout: header, the sidebar (a drawer on small screens) and the page. */
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
      {drawerOpen ? <SidebarDrawer onClose={() => setDrawerOpen(false)} /> : null}
    </div>
  );
}

/** The default layout without sidebar: public and marketing pages, a shared note. */
export function PlainLayout({ children }: { children: ReactNode }) {
  return (
    <div className="app">
      <SkipLink />
      <Header />
      <div className="app-body">
        <Main>{children}</Main>
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
        <Main>{children}</Main>
      </div>
    </div>
  );
}
