import { useId } from 'react';
import { Link } from 'react-router';
import type { NoteLinksState } from './useNoteLinks';
import { LoadFailed } from '../LoadStatus';

/** The notes that link to this one, by `[[Title]]` or by hand. */
export function Backlinks({ state }: { state: NoteLinksState }) {
  const headingId = useId();
  const { links, error, loading, reload } = state;
  let content;
  if (links) {
    // A note that links here both by [[Title]] and by hand is listed once.
    const notes = [...new Map(links.backlinks.map((link) => [link.id, link])).values()];
    content =
      notes.length === 0 ? (
        <p className="notes-empty">No note links here yet.</p>
      ) : (
        <ul className="note-link-list">
          {notes.map((link) => (
            <li key={link.id}>
              <Link to={`/notes/${link.id}`}>{link.title || 'Untitled'}</Link>
            </li>
          ))}
        </ul>
      );
  } else if (error && !loading) {
    content = <LoadFailed what="The backlinks" error={error} onRetry={reload} />;
  } else {
    content = (
      <p className="notes-status" role="status">
        Loading backlinks…
      </p>
    );
  }
  return (
    <section className="note-backlinks" aria-labelledby={headingId}>
      <h2 id={headingId}>Backlinks</h2>
      {content}
    </section>
  );
}
