/**
 * A prerendered page of the site on its own: hydrates the HTML the build rendered with the same
 * components, without the shell and its Module Federation chain. Links between the site's pages
 * are plain page loads (each one prerendered); the app's pages load the shell.
 */
import '@noted/ui/styles.css';
import './marketing.css';
import { applyTheme, followSystemTheme, readThemePreference } from '@noted/ui';
import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { takePreviewToken } from './content/client';
import { siteDataId, type SiteData } from './site/data';
import { SiteRoot } from './site/SiteRoot';

const data = JSON.parse(
  document.getElementById(siteDataId)?.textContent ?? 'null',
) as SiteData | null;
const root = document.getElementById('root');

applyTheme(readThemePreference());
followSystemTheme();
if (root && data) {
  // As a transition, hydration yields to the browser every few milliseconds instead of holding
  // the main thread for the whole page: the page it takes over is already on screen.
  startTransition(() => {
    hydrateRoot(
      root,
      <SiteRoot
        data={data}
        path={decodeURIComponent(window.location.pathname)}
        token={takePreviewToken(window.location.search)}
      />,
    );
  });
}
