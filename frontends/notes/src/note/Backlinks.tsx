import { useShell } from '@noted/ui';
import { useId } from 'react';
import { Link } from '@noted/router';
import { useNotesMessages } from '../messages';
import type { NoteLinksState } from './useNoteLinks';
import { LoadFailed } from '../LoadStatus';

/** The notes that link to this one, by `[[Title]]` or by hand. */
export function Backlinks({ state }: { state: NoteLinksState }) {
  const { t } = useNotesMessages('note');
  const shell = useShell();
  const headingId = useId();
  const { links, error, loading, reload } = state;
  let content;
  if (links) {
    // A note that links here both by [[Title]] and by hand is listed once.
    const notes = [...new Map(links.backlinks.map((link) => [link.id, link])).values()];
    content =
      notes.length === 0 ? (
        <p className="notes-empty">{t('backlinks.empty')}</p>
      ) : (
        <ul className="note-link-list">
          {notes.map((link) => (
            <li key={link.id}>
              <Link to={`/notes/${link.id}`}>{link.title || t('common.untitled')}</Link>
              <button
                type="button"
                className="ui-button ui-button-sm"
                onClick={() => shell.showNoteLink(link.id)}
                aria-label={t('backlinks.peekLabel', { title: link.title || t('common.untitled') })}
              >
                {t('backlinks.peek')}
              </button>
            </li>
          ))}
        </ul>
      );
  } else if (error && !loading) {
    content = (
      <LoadFailed
        message={(reason) => t('backlinks.loadFailed', { reason })}
        error={error}
        onRetry={reload}
      />
    );
  } else {
    content = (
      <p className="notes-status" role="status">
        {t('backlinks.loading')}
      </p>
    );
  }
  return (
    <section className="note-backlinks" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('backlinks.heading')}</h2>
      {content}
    </section>
  );
}
