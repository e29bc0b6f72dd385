import { NavLink } from 'react-router';
import { useReviewNew } from './review/store';

const sections = [
  { to: '/', label: 'Notes', end: true },
  { to: '/todos', label: 'Todos', end: false },
  { to: '/review', label: 'Review', end: false },
  { to: '/mindlink', label: 'Mind map', end: false },
];

/** The notes remote's own sections; the current one is marked for assistive technology too. */
export function NotesNav() {
  const reviewNew = useReviewNew();
  return (
    <nav className="notes-nav" aria-label="Notes sections">
      <ul>
        {sections.map(({ to, label, end }) => (
          <li key={to}>
            <NavLink to={to} end={end} className="notes-nav-link">
              {label}
              {to === '/review' && reviewNew ? <span className="notes-nav-badge">new</span> : null}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
