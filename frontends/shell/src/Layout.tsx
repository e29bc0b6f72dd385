import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ThemeToggle } from './ThemeToggle';

/** The frame of every page: skip link, header with the brand, theme toggle and `actions`. */
export function Layout({ actions, children }: { actions?: ReactNode; children: ReactNode }) {
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <Link className="brand" to="/">
          Noted
        </Link>
        <div className="header-actions">
          <ThemeToggle />
          {actions}
        </div>
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
