import { Dialog, useShell } from '@noted/ui';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from '@noted/router';
import { Icon, type IconName } from './icons';

interface NavItem {
  to: string;
  icon: IconName;
  /** Key in the sidebar message set. */
  label: string;
  /** Whether a path belongs to this item, for aria-current. */
  owns: (pathname: string) => boolean;
}

const notesArea = /^\/($|notes\/(?!s\/)|todos$|review$|summaries$|ai$)/;

const items: NavItem[] = [
  { to: '/', icon: 'notes', label: 'notes', owns: (path) => notesArea.test(path) },
  { to: '/mindlink', icon: 'mindlink', label: 'mindlink', owns: (path) => path === '/mindlink' },
  {
    to: '/chat',
    icon: 'chat',
    label: 'chat',
    owns: (path) => path === '/chat' || path.startsWith('/chat/'),
  },
  { to: '/feedback', icon: 'feedback', label: 'feedback', owns: (path) => path === '/feedback' },
  { to: '/guide', icon: 'guide', label: 'guide', owns: (path) => path === '/guide' },
  { to: '/blog', icon: 'blog', label: 'blog', owns: (path) => path.startsWith('/blog') },
];

/** The app's areas; in the collapsed rail only their icons show, named for assistive tech. */
function SidebarNav({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation('sidebar');
  const { pathname } = useLocation();
  return (
    <nav className="sidebar-nav" aria-label={t('label')}>
      <ul>
        {items.map((item) => (
          <li key={item.to}>
            <Link
              to={item.to}
              className="sidebar-link"
              aria-current={item.owns(pathname) ? 'page' : undefined}
              title={collapsed ? t(item.label) : undefined}
              onClick={onNavigate}
            >
              <Icon name={item.icon} />
              <span className={collapsed ? 'visually-hidden' : 'sidebar-text'}>
                {t(item.label)}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function SettingsButton({ collapsed, onOpen }: { collapsed: boolean; onOpen?: () => void }) {
  const { t } = useTranslation('sidebar');
  const shell = useShell();
  return (
    <button
      type="button"
      className="sidebar-link"
      aria-haspopup="dialog"
      title={collapsed ? t('settings') : undefined}
      onClick={() => {
        onOpen?.();
        shell.openSettings();
      }}
    >
      <Icon name="settings" />
      <span className={collapsed ? 'visually-hidden' : 'sidebar-text'}>{t('settings')}</span>
    </button>
  );
}

export const sidebarId = 'sidebar';

/** The sidebar on wide screens: expanded with names, or collapsed to a rail of icons. */
export function Sidebar({ collapsed, onToggle }: { collapsed: boolean; onToggle: () => void }) {
  const { t } = useTranslation('sidebar');
  return (
    <aside id={sidebarId} className="sidebar" data-collapsed={collapsed} aria-label={t('region')}>
      <SidebarNav collapsed={collapsed} />
      <div className="sidebar-foot">
        <SettingsButton collapsed={collapsed} />
        <button
          type="button"
          className="sidebar-link sidebar-toggle"
          aria-expanded={!collapsed}
          aria-controls={sidebarId}
          onClick={onToggle}
        >
          <Icon name={collapsed ? 'expand' : 'collapse'} />
          <span className={collapsed ? 'visually-hidden' : 'sidebar-text'}>
            {collapsed ? t('expand') : t('collapse')}
          </span>
        </button>
      </div>
    </aside>
  );
}

/** The sidebar on small screens: a drawer over the page, closed by Escape, Close or a choice. */
export function SidebarDrawer({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('sidebar');
  return (
    <Dialog title={t('menu')} onClose={onClose} className="sidebar-drawer">
      <SidebarNav collapsed={false} onNavigate={onClose} />
      <SettingsButton collapsed={false} onOpen={onClose} />
    </Dialog>
  );
}
