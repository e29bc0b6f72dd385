import {
  Dialog,
  PanelLeftCloseIcon,
  PanelLeftOpenIcon,
  SettingsIcon,
  SquarePenIcon,
  useShell,
  type IconComponent,
} from '@noted/ui';
import type { ButtonHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from '@noted/router';
import { Brand } from './Brand';
import { newNoteTarget, primaryNav, secondaryNav, useNavBadges, type NavItem } from './navigation';

/** One entry of the sidebar: icon and name (only the icon, named for assistive tech, when collapsed). */
function NavLinkItem({
  item,
  collapsed,
  onNavigate,
}: {
  item: NavItem;
  collapsed: boolean;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation('sidebar');
  const { pathname } = useLocation();
  const badges = useNavBadges();
  const badge = badges[item.to];
  const Icon = item.icon;
  return (
    <li>
      <Link
        to={item.to}
        className="sidebar-link"
        aria-current={item.owns(pathname) ? 'page' : undefined}
        title={collapsed ? t(item.label) : undefined}
        onClick={onNavigate}
      >
        <Icon className="ui-icon" aria-hidden="true" />
        <span className={collapsed ? 'visually-hidden' : 'sidebar-text'}>{t(item.label)}</span>
        {badge ? (
          <span className={collapsed ? 'sidebar-dot' : 'ui-badge ui-badge-accent sidebar-badge'}>
            <span className={collapsed ? 'visually-hidden' : undefined}>{badge}</span>
          </span>
        ) : null}
      </Link>
    </li>
  );
}

/** The app's places in two groups; in the collapsed rail only their icons show. */
function SidebarNav({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation('sidebar');
  return (
    <nav className="sidebar-nav" aria-label={t('label')}>
      <ul>
        {primaryNav.map((item) => (
          <NavLinkItem key={item.to} item={item} collapsed={collapsed} onNavigate={onNavigate} />
        ))}
      </ul>
      <ul className="sidebar-secondary">
        {secondaryNav.map((item) => (
          <NavLinkItem key={item.to} item={item} collapsed={collapsed} onNavigate={onNavigate} />
        ))}
      </ul>
    </nav>
  );
}

function SidebarButton({
  icon: Icon,
  label,
  collapsed,
  ...rest
}: {
  icon: IconComponent;
  label: string;
  collapsed: boolean;
} & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button type="button" className="sidebar-link" title={collapsed ? label : undefined} {...rest}>
      <Icon className="ui-icon" aria-hidden="true" />
      <span className={collapsed ? 'visually-hidden' : 'sidebar-text'}>{label}</span>
    </button>
  );
}

function SettingsButton({ collapsed, onOpen }: { collapsed: boolean; onOpen?: () => void }) {
  const { t } = useTranslation('sidebar');
  const shell = useShell();
  return (
    <SidebarButton
      icon={SettingsIcon}
      label={t('settings')}
      collapsed={collapsed}
      aria-haspopup="dialog"
      onClick={() => {
        onOpen?.();
        shell.openSettings();
      }}
    />
  );
}

/** "New note": to the list with its composer focused. */
function NewNoteLink({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation('sidebar');
  const { pathname } = useLocation();
  return (
    <Link
      to={newNoteTarget.pathname}
      state={newNoteTarget.state}
      replace={pathname === '/'}
      className="ui-button ui-button-primary sidebar-new"
      title={collapsed ? t('newNote') : undefined}
      aria-label={collapsed ? t('newNote') : undefined}
      onClick={onNavigate}
    >
      <SquarePenIcon className="ui-icon" aria-hidden="true" />
      {collapsed ? null : <span>{t('newNote')}</span>}
      {collapsed ? null : (
        <kbd className="ui-kbd" aria-hidden="true">
          N
        </kbd>
      )}
    </Link>
  );
}

export const sidebarId = 'sidebar';

/** The sidebar on wide screens: expanded with names, or collapsed to a rail of icons. */
export function Sidebar({ collapsed, onToggle }: { collapsed: boolean; onToggle: () => void }) {
  const { t } = useTranslation('sidebar');
  return (
    <aside id={sidebarId} className="sidebar" data-collapsed={collapsed} aria-label={t('region')}>
      <NewNoteLink collapsed={collapsed} />
      <SidebarNav collapsed={collapsed} />
      <div className="sidebar-foot">
        <SettingsButton collapsed={collapsed} />
        <SidebarButton
          icon={collapsed ? PanelLeftOpenIcon : PanelLeftCloseIcon}
          label={collapsed ? t('expand') : t('collapse')}
          collapsed={collapsed}
          className="sidebar-link sidebar-toggle"
          aria-expanded={!collapsed}
          aria-controls={sidebarId}
          onClick={onToggle}
        />
      </div>
    </aside>
  );
}

/** The sidebar on small screens: a drawer over the page, closed by Escape, Close or a choice. */
export function SidebarDrawer({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('sidebar');
  return (
    <Dialog title={t('menu')} onClose={onClose} variant="sheet" className="sidebar-drawer">
      <Brand />
      <NewNoteLink collapsed={false} onNavigate={onClose} />
      <SidebarNav collapsed={false} onNavigate={onClose} />
      <div className="sidebar-foot">
        <SettingsButton collapsed={false} onOpen={onClose} />
      </div>
    </Dialog>
  );
}
