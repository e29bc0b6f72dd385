import type { ApiClient } from '@noted/api';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { AccountCheck } from './account';
import type { Auth, AuthState, AuthUser } from './auth/auth';
import { isProviderCallback } from './auth/loginRedirect';
import { log } from './log';
import { NotFound } from './NotFound';
import type { NotesAppModule, NotesAppProps } from './remotes/contracts';
import { RemoteModule } from './remotes/RemoteModule';
import { isNotesPage } from './routes';
import { Layout } from './Layout';

export interface AppProps {
  auth: Auth;
  api: ApiClient;
  checkAccount: AccountCheck;
  loadNotesApp: () => Promise<NotesAppModule>;
}

function Welcome({ onSignIn, notice }: { onSignIn: () => void; notice?: string }) {
  return (
    <section className="welcome" aria-labelledby="welcome-title">
      <h1 id="welcome-title">Your notes, in one place</h1>
      <p>
        Noted is where you write things down and find them again: jot a note, tag it, and come back
        to it from any device.
      </p>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <button type="button" className="button button-primary" onClick={onSignIn}>
        Sign in
      </button>
    </section>
  );
}

function Account({ user, onSignOut }: { user: AuthUser; onSignOut: () => void }) {
  const shown = user.name ?? user.email ?? 'Signed in';
  return (
    <div className="account">
      <span className="account-name" title={user.email}>
        {shown}
        {user.name && user.email ? <span className="account-email"> {user.email}</span> : null}
      </span>
      <button type="button" className="button" onClick={onSignOut}>
        Sign out
      </button>
    </div>
  );
}

function SignedIn({
  user,
  api,
  checkAccount,
  loadNotesApp,
}: Omit<AppProps, 'auth'> & { user: AuthUser }) {
  const [accountError, setAccountError] = useState<string>();
  const notesProps = useMemo<NotesAppProps>(() => ({ api }), [api]);

  useEffect(() => {
    let active = true;
    checkAccount(user.sub).catch((error: unknown) => {
      log.error('Loading your account failed.', error);
      if (active) setAccountError(error instanceof Error ? error.message : String(error));
    });
    return () => {
      active = false;
    };
  }, [checkAccount, user.sub]);

  return (
    <>
      {accountError ? (
        <p className="notice notice-error" role="alert">
          Your account could not be loaded: {accountError}
        </p>
      ) : null}
      <RemoteModule load={loadNotesApp} props={notesProps} title="notes" />
    </>
  );
}

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

/** Every page but a shared note's: the notes remote for signed-in users, or "not found". */
export function App({ auth, api, checkAccount, loadNotesApp }: AppProps) {
  const state = useSyncExternalStore(auth.subscribe, auth.getState);
  const { pathname } = useLocation();
  const known = isNotesPage(pathname);
  const signIn = () => void auth.login();
  const signOut = () => void auth.logout();

  useEffect(() => {
    void auth.start();
  }, [auth]);
  useAddressAfterSessionCheck(state.status);

  return (
    <Layout
      actions={
        <>
          {state.status === 'signedIn' ? <Account user={state.user} onSignOut={signOut} /> : null}
          {state.status === 'signedOut' ? (
            <button type="button" className="button" onClick={signIn}>
              Sign in
            </button>
          ) : null}
        </>
      }
    >
      {known ? null : <NotFound path={pathname} />}
      {known && state.status === 'loading' ? (
        <p className="status" role="status">
          Checking your session…
        </p>
      ) : null}
      {known && state.status === 'signedOut' ? (
        <Welcome onSignIn={signIn} notice={state.notice} />
      ) : null}
      {known && state.status === 'signedIn' ? (
        <SignedIn
          user={state.user}
          api={api}
          checkAccount={checkAccount}
          loadNotesApp={loadNotesApp}
        />
      ) : null}
    </Layout>
  );
}
