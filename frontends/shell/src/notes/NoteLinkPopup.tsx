import type { Note } from '@noted/api';
import { Dialog, useShell } from '@noted/ui';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShellApp } from '../context';

type Loaded =
  { status: 'loading' } | { status: 'shown'; note: Note } | { status: 'failed'; reason: string };

/** How much of the body the popup shows; the note page has the rest. */
const excerptLength = 1200;

/**
 * The note link popup: a linked note read in place (title, tags, the start of its text),
 * with Open (this tab, handing the note over) and Open in a new tab.
 */
export function NoteLinkPopup({ noteId, onClose }: { noteId: string; onClose: () => void }) {
  const { t } = useTranslation('shell');
  const { api } = useShellApp();
  const shell = useShell();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const openRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    let active = true;
    api.notes.get(noteId).then(
      (note) => {
        if (active) setLoaded({ status: 'shown', note });
      },
      (error: unknown) => {
        if (active) {
          setLoaded({
            status: 'failed',
            reason: error instanceof Error ? error.message : String(error),
          });
        }
      },
    );
    return () => {
      active = false;
    };
  }, [api, noteId]);

  const note = loaded.status === 'shown' ? loaded.note : undefined;
  const text = note?.note ?? '';
  return (
    <Dialog
      title={note ? note.title || t('noteLink.untitled') : t('noteLink.title')}
      onClose={onClose}
      className="note-link-popup"
      initialFocus={openRef}
    >
      {loaded.status === 'loading' ? (
        <p className="status" role="status">
          {t('noteLink.loading')}
        </p>
      ) : null}
      {loaded.status === 'failed' ? (
        <p className="notice notice-error" role="alert">
          {t('noteLink.failed', { reason: loaded.reason })}
        </p>
      ) : null}
      {note ? (
        <>
          {note.tags.length > 0 ? (
            <ul className="note-link-tags" aria-label={t('noteLink.tags')}>
              {note.tags.map((tag) => (
                <li key={tag}>#{tag}</li>
              ))}
            </ul>
          ) : null}
          <p className="note-link-text">
            {text.length > excerptLength ? `${text.slice(0, excerptLength)}…` : text}
          </p>
          <div className="ui-dialog-actions">
            <button
              type="button"
              className="ui-button"
              onClick={() => {
                onClose();
                shell.openNote(note.id, { newTab: true });
              }}
            >
              {t('noteLink.openInNewTab')}
            </button>
            <button
              ref={openRef}
              type="button"
              className="ui-button ui-button-primary"
              onClick={() => {
                onClose();
                shell.openNote(note.id, { note });
              }}
            >
              {t('noteLink.open')}
            </button>
          </div>
        </>
      ) : null}
    </Dialog>
  );
}
