import { PlusIcon } from '@noted/ui';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from '@noted/router';
import { newNoteTarget, tabBarNav, useNavBadges } from './navigation';

/**
 * The tab bar of a phone: the four places used most, and New note in the middle, where a
 * thumb reaches; the rest is in the menu drawer.
 */
export function BottomNav() {
  const { t } = useTranslation('sidebar');
  const { pathname } = useLocation();
  const badges = useNavBadges();
  const [first, second, third, fourth] = tabBarNav;
  const tab = (item: typeof first) => {
    if (!item) return null;
    const Icon = item.icon;
    const badge = badges[item.to];
    return (
      <li>
        <Link
          to={item.to}
          className="tab-bar-link"
          aria-current={item.owns(pathname) ? 'page' : undefined}
        >
          <span className="tab-bar-icon">
            <Icon className="ui-icon" aria-hidden="true" />
            {badge ? <span className="tab-bar-dot" aria-hidden="true" /> : null}
          </span>
          <span>{t(item.label)}</span>
          {badge ? <span className="visually-hidden">{badge}</span> : null}
        </Link>
      </li>
    );
  };
  return (
    <nav className="tab-bar" aria-label={t('tabBar')}>
      <ul>
        {tab(first)}
        {tab(second)}
        <li>
          <Link
            to={newNoteTarget.pathname}
            state={newNoteTarget.state}
            replace={pathname === '/'}
            className="tab-bar-new"
            aria-label={t('newNote')}
          >
            <PlusIcon className="ui-icon" aria-hidden="true" />
          </Link>
        </li>
        {tab(third)}
        {tab(fourth)}
      </ul>
    </nav>
  );
}
