import { ShellContext } from '@noted/ui';
import { useEffect } from 'react';
import { I18nextProvider } from 'react-i18next';
import { useLocation, useNavigate } from '@noted/router';
import { ShellAppContext, type ShellApp } from './context';
import { FatalErrorBoundary } from './pages/FatalErrorBoundary';
import { ShellHosts } from './ShellHosts';
import { ShellRoutes } from './ShellRoutes';

/** Hands the router's navigate to the services, which live outside the router. */
function RouterBridge({
  onNavigate,
}: {
  onNavigate: (navigate: ReturnType<typeof useNavigate>) => void;
}) {
  const navigate = useNavigate();
  useEffect(() => onNavigate(navigate), [navigate, onNavigate]);
  return null;
}

export interface ShellProps {
  app: ShellApp;
  onNavigate: (navigate: ReturnType<typeof useNavigate>) => void;
}

/** The whole app inside the router: contexts, the routes in their layouts, the popups. */
export function Shell({ app, onNavigate }: ShellProps) {
  const { pathname } = useLocation();
  return (
    <ShellAppContext.Provider value={app}>
      <ShellContext.Provider value={app.services}>
        <I18nextProvider i18n={app.services.i18n}>
          <RouterBridge onNavigate={onNavigate} />
          <FatalErrorBoundary resetKey={pathname} onError={app.pwa.recoverFromLoadError}>
            <ShellRoutes />
          </FatalErrorBoundary>
          <ShellHosts />
        </I18nextProvider>
      </ShellContext.Provider>
    </ShellAppContext.Provider>
  );
}
