import { NavLink } from '@noted/router';
import { useNotesMessages } from './messages';
import { useReviewNew } from './review/store';

const sections = [
  { to: '/', label: 'nav.notes', end: true },
  { to: '/todos', label: 'nav.todos', end: false },
  { to: '/review', label: 'nav.review', end: false },
  { to: '/mindlink', label: 'nav.mindmap', end: false },
  { to: '/chat', label: 'nav.chat', end: false },
  { to: '/summaries', label: 'nav.summaries', end: false },
  { to: '/settings/ai', label: 'nav.aiSettings', end: false },
] as const;

/** The notes remote's own sections; the current one is marked for assistive technology too. */
export function NotesNav() {
  const { t } = useNotesMessages('note');
  const reviewNew = useReviewNew();
  return (
    <nav className="notes-nav" aria-label={t('nav.label')}>
      <ul>
        {sections.map(({ to, label, end }) => (
          <li key={to}>
            <NavLink to={to} end={end} className="notes-nav-link">
              {t(label)}
              {to === '/review' && reviewNew ? (
                <span className="notes-nav-badge">{t('nav.new')}</span>
              ) : null}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
