import { ShellContext, signedInHintKey } from '@noted/ui';
import { useEffect, useSyncExternalStore } from 'react';
import { I18nextProvider } from 'react-i18next';
import { useLocation, useNavigate } from '@noted/router';
import { ShellAppContext, useShellApp, type ShellApp } from './context';
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

/** The hint the site's prerendered pages read (see signedInHintKey). */
const keepSignedInHint = (signedIn: boolean) => {
  try {
    if (signedIn) localStorage.setItem(signedInHintKey, '1');
    else localStorage.removeItem(signedInHintKey);
  } catch {
    // Storage refused: the site's pages offer "Sign in", which still leads here.
  }
};

/**
 * After every sign-in, the device copy of the user's notes is opened, then the account's
 * checks of spec section 4 (once per user; offline, the account as last seen here), then the
 * live connection for the user found. Signed out, the account is forgotten, the copy closed
 * (deleted already when the user chose to sign out) and the connection closed. A failure is
 * kept in the account's state, where the pages show it.
 */
function AccountSync() {
  const { auth, account, liveConnection, offline, services } = useShellApp();
  const state = useSyncExternalStore(auth.subscribe, auth.getState);
  const user = state.status === 'signedIn' ? state.user : undefined;
  const offlineStart = state.status === 'signedIn' && state.offline === true;
  const signedOut = state.status === 'signedOut';
  useEffect(() => {
    if (user) {
      // Opened (or, when the session was checked after an offline start, told it can send).
      void offline.open(user.sub).then(() => (offlineStart ? undefined : offline.sendNow()));
      account.start(user, { offline: offlineStart }).then(
        (checked) => {
          if (checked.user) liveConnection.start(checked.user.userId);
        },
        () => undefined,
      );
    } else if (signedOut) {
      liveConnection.stop();
      offline.close();
      account.reset();
    }
    if (user || signedOut) keepSignedInHint(user !== undefined);
  }, [account, liveConnection, offline, user, offlineStart, signedOut]);
  // The site's "Sign in" sends a visitor to `/?signin`: the dialog opens once the session is
  // known to be none.
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const params = new URLSearchParams(search);
    if (!signedOut || !params.has('signin')) return;
    params.delete('signin');
    const rest = params.toString();
    void navigate(`${pathname}${rest ? `?${rest}` : ''}${hash}`, { replace: true });
    services.requestSignIn();
  }, [signedOut, services, pathname, search, hash, navigate]);
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
          <AccountSync />
          <FatalErrorBoundary resetKey={pathname} onError={app.pwa.recoverFromLoadError}>
            <ShellRoutes />
          </FatalErrorBoundary>
          <ShellHosts />
        </I18nextProvider>
      </ShellContext.Provider>
    </ShellAppContext.Provider>
  );
}
