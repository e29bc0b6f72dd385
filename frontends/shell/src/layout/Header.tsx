import {
  IconButton,
  LogOutIcon,
  Menu,
  MenuIcon,
  SettingsIcon,
  SparklesIcon,
  ThemeToggle,
  useShell,
} from '@noted/ui';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuthUser } from '../auth/auth';
import { SignInButton } from '../auth/SignInButton';
import { useShellApp } from '../context';
import { Brand } from './Brand';

/** Up to two letters of a name (or of an email) for the avatar. */
export const initials = (user: Pick<AuthUser, 'name' | 'email'>): string => {
  const source = (user.name ?? user.email ?? '?').trim();
  const words = source.split(/[\s@._-]+/).filter(Boolean);
  const letters =
    words.length >= 2 ? `${words[0]?.[0] ?? ''}${words[1]?.[0] ?? ''}` : source.slice(0, 2);
  return letters.toLocaleUpperCase();
};

/** The signed-in user's menu: who is signed in (and on which paid plan), settings, AI settings, sign out. */
function AccountMenu({ user }: { user: AuthUser }) {
  const { t } = useTranslation('shell');
  const { auth, account } = useShellApp();
  const shell = useShell();
  const { subscription } = useSyncExternalStore(account.subscribe, account.get);
  const name = user.name ?? user.email ?? t('auth.signedIn');
  /** Signing out deletes the device copy: changes not sent yet are named and confirmed first. */
  const signOut = async () => {
    const waiting = shell.offline.pending().length;
    if (waiting > 0) {
      const confirmed = await shell.confirm({
        title: t('auth.unsent.title'),
        message: t('auth.unsent.message', { count: waiting }),
        confirmLabel: t('auth.unsent.confirm'),
        danger: true,
      });
      if (!confirmed) return;
    }
    await auth.logout();
  };
  // A paid plan is named quietly beside the name in the menu; the free plan goes unsaid.
  const paidPlan =
    subscription?.isActive && subscription.planName !== 'free'
      ? t(`plans.${subscription.planName}`)
      : undefined;
  return (
    <Menu
      label={t('account.menu', { name })}
      look={{ variant: 'ghost', className: 'account-button' }}
      trigger={
        <>
          <span className="avatar" aria-hidden="true">
            {initials(user)}
          </span>
          <span className="account-name">{name}</span>
        </>
      }
      header={
        <>
          <span className="account-menu-name">
            {name}
            {paidPlan ? (
              <span className="ui-badge ui-badge-accent account-plan">{paidPlan}</span>
            ) : null}
          </span>
          {user.email && user.email !== name ? (
            <span className="account-menu-email">{user.email}</span>
          ) : null}
        </>
      }
      entries={[
        { label: t('account.settings'), icon: SettingsIcon, onSelect: shell.openSettings },
        {
          label: t('account.aiSettings'),
          icon: SparklesIcon,
          onSelect: () => shell.navigate('/settings/ai'),
        },
        'separator',
        { label: t('auth.signOut'), icon: LogOutIcon, onSelect: () => void signOut() },
      ]}
    />
  );
}

function AccountActions() {
  const { auth } = useShellApp();
  const state = useSyncExternalStore(auth.subscribe, auth.getState);
  if (state.status === 'loading') return null;
  if (state.status === 'signedOut') return <SignInButton />;
  return <AccountMenu user={state.user} />;
}

/** The top bar of every layout: menu (small screens, with a sidebar), brand, theme, account. */
export function Header({ onMenu, minimal = false }: { onMenu?: () => void; minimal?: boolean }) {
  const { t } = useTranslation('shell');
  return (
    <header className="app-header">
      {onMenu ? (
        <IconButton
          className="menu-button"
          label={t('layout.openMenu')}
          icon={MenuIcon}
          aria-haspopup="dialog"
          onClick={onMenu}
        />
      ) : null}
      <Brand />
      <div className="header-actions">
        <ThemeToggle />
        {minimal ? null : <AccountActions />}
      </div>
    </header>
  );
}
