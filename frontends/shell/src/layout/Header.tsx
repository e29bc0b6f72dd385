import { ThemeToggle } from '@noted/ui';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '@noted/router';
import { SignInButton } from '../auth/SignInButton';
import { useShellApp } from '../context';
import { Icon } from './icons';

function AccountActions() {
  const { t } = useTranslation('shell');
  const { auth } = useShellApp();
  const state = useSyncExternalStore(auth.subscribe, auth.getState);
  if (state.status === 'loading') return null;
  if (state.status === 'signedOut') return <SignInButton />;
  const { user } = state;
  return (
    <div className="account">
      <span className="account-name" title={user.email}>
        {user.name ?? user.email ?? t('auth.signedIn')}
        {user.name && user.email ? <span className="account-email"> {user.email}</span> : null}
      </span>
      <button type="button" className="ui-button" onClick={() => void auth.logout()}>
        {t('auth.signOut')}
      </button>
    </div>
  );
}

/** The top bar of every layout: menu (small screens, with a sidebar), brand, theme, account. */
export function Header({ onMenu, minimal = false }: { onMenu?: () => void; minimal?: boolean }) {
  const { t } = useTranslation('shell');
  return (
    <header className="app-header">
      {onMenu ? (
        <button
          type="button"
          className="ui-button ui-button-quiet menu-button"
          aria-haspopup="dialog"
          aria-label={t('layout.openMenu')}
          onClick={onMenu}
        >
          <Icon name="menu" />
        </button>
      ) : null}
      <Link className="brand" to="/">
        Noted
      </Link>
      <div className="header-actions">
        <ThemeToggle />
        {minimal ? null : <AccountActions />}
      </div>
    </header>
  );
}
