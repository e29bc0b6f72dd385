import { Callout, ExternalNavigationRefused, Skeleton, useShell } from '@noted/ui';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from '@noted/router';
import type { AuthState } from '../auth/auth';
import { isProviderCallback } from '../auth/loginRedirect';
import { useShellApp } from '../context';
import { DefaultLayout, PlainLayout } from '../layout/Layouts';
import type { NotesAppProps } from '../remotes/contracts';
import { RemoteModule } from '../remotes/RemoteModule';
import { Welcome } from './Welcome';

/**
 * The session check takes the provider's code and state out of the address behind the
 * router's back; once it has run, a router still showing them catches up with the address.
 */
function useAddressAfterSessionCheck(status: AuthState['status']) {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (status === 'loading') return;
    if (!isProviderCallback(new URL(location.search, window.location.origin))) return;
    const { pathname, search, hash } = window.location;
    void navigate({ pathname, search, hash }, { replace: true });
  }, [status, location, navigate]);
}

/**
 * `?next=/path` sends a signed-in user on to that page of the app (a link that needed a
 * sign-in first); an address outside the app is refused and said so.
 */
function useNextAddress() {
  const { t } = useTranslation('shell');
  const shell = useShell();
  const { search } = useLocation();
  useEffect(() => {
    const next = new URLSearchParams(search).get('next');
    if (next === null) return;
    try {
      shell.navigate(next, { replace: true });
    } catch (error) {
      if (!(error instanceof ExternalNavigationRefused)) throw error;
      shell.toast(t('navigation.externalRefused', { address: next }), { type: 'warning' });
      shell.navigate('/', { replace: true });
    }
  }, [search, shell, t]);
}

/**
 * `?settings=plan` (where Stripe's customer portal sends the user back) opens Settings, whose
 * plan panel shows what changed there, and leaves the address clean.
 */
function useSettingsAddress() {
  const shell = useShell();
  const { search, pathname } = useLocation();
  useEffect(() => {
    const params = new URLSearchParams(search);
    if (params.get('settings') !== 'plan') return;
    params.delete('settings');
    const rest = params.toString();
    shell.navigate(`${pathname}${rest ? `?${rest}` : ''}`, { replace: true });
    shell.openSettings('plan');
  }, [search, pathname, shell]);
}

function SignedIn() {
  useNextAddress();
  useSettingsAddress();
  const { t } = useTranslation('shell');
  const { api, account, loadNotesApp, pwa } = useShellApp();
  const shell = useShell();
  const { error: accountError } = useSyncExternalStore(account.subscribe, account.get);
  const notesProps = useMemo<NotesAppProps>(() => ({ api, shell }), [api, shell]);

  return (
    <>
      {accountError ? (
        <Callout tone="danger" role="alert" className="notice">
          {t('account.loadFailed', { reason: accountError })}
        </Callout>
      ) : null}
      <RemoteModule
        load={loadNotesApp}
        props={notesProps}
        name="notes"
        onError={pwa.recoverFromLoadError}
      />
    </>
  );
}

/**
 * The pages of the notes remote (`/`, `/notes/:id`, `/todos`, `/review`, `/mindlink`): with
 * the sidebar once signed in; the welcome page (without sidebar) for visitors.
 */
export function NotesArea() {
  const { t } = useTranslation('shell');
  const { auth } = useShellApp();
  const state = useSyncExternalStore(auth.subscribe, auth.getState);
  const { pathname } = useLocation();
  useAddressAfterSessionCheck(state.status);

  if (state.status === 'signedIn') {
    return (
      <DefaultLayout>
        <SignedIn />
      </DefaultLayout>
    );
  }
  // A visitor who never signed in here sees the visitors' page while the check runs.
  const checking = state.status === 'loading' && auth.wasSignedIn();
  return (
    <PlainLayout>
      {checking ? (
        <Skeleton blocks={3} label={t('auth.checking')} />
      ) : (
        <Welcome
          notice={state.status === 'signedOut' ? state.notice : undefined}
          privatePage={pathname !== '/'}
        />
      )}
    </PlainLayout>
  );
}
