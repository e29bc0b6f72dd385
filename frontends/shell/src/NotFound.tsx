import { Link } from 'react-router';

/** What any path the app does not know shows, inside the layout. */
export function NotFound({ path }: { path: string }) {
  return (
    <section className="not-found" aria-labelledby="not-found-title">
      <h1 id="not-found-title">Page not found: {path}</h1>
      <p>
        <Link to="/">Go to your notes</Link>
      </p>
    </section>
  );
}
