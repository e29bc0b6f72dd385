import { EyeIcon, FileTextIcon, IconButton, useShell } from '@noted/ui';
import { useId } from 'react';
import { Link } from '@noted/router';
import { useNotesMessages } from '../messages';
import type { NoteLinksState } from './useNoteLinks';
import { LoadFailed, Loading } from '../LoadStatus';

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
        <p className="note-side-empty">{t('backlinks.empty')}</p>
      ) : (
        <ul className="note-side-list">
          {notes.map((link) => (
            <li key={link.id}>
              <FileTextIcon className="ui-icon" aria-hidden="true" />
              <Link to={`/notes/${link.id}`}>{link.title || t('common.untitled')}</Link>
              <IconButton
                size="sm"
                icon={EyeIcon}
                onClick={() => shell.showNoteLink(link.id)}
                label={t('backlinks.peekLabel', { title: link.title || t('common.untitled') })}
              />
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
    content = <Loading lines={2}>{t('backlinks.loading')}</Loading>;
  }
  return (
    <section className="note-side-card note-backlinks" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('backlinks.heading')}</h2>
      {content}
    </section>
  );
}
