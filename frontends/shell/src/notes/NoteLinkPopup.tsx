import type { Note } from '@noted/api';
import { Button, Callout, Dialog, ExternalLinkIcon, Skeleton, TagChips, useShell } from '@noted/ui';
import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShellApp } from '../context';

const NoteMarkdown = lazy(() => import('./NoteMarkdown'));

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
      {loaded.status === 'loading' ? <Skeleton lines={4} label={t('noteLink.loading')} /> : null}
      {loaded.status === 'failed' ? (
        <Callout tone="danger" role="alert">
          {t('noteLink.failed', { reason: loaded.reason })}
        </Callout>
      ) : null}
      {note ? (
        <>
          <TagChips tags={note.tags} label={t('noteLink.tags')} />
          <Suspense
            fallback={
              <p className="note-link-text note-link-plain">
                {text.length > excerptLength ? `${text.slice(0, excerptLength)}…` : text}
              </p>
            }
          >
            <NoteMarkdown
              text={text.length > excerptLength ? `${text.slice(0, excerptLength)}…` : text}
            />
          </Suspense>
          <div className="ui-dialog-actions">
            <Button
              icon={ExternalLinkIcon}
              onClick={() => {
                onClose();
                shell.openNote(note.id, { newTab: true });
              }}
            >
              {t('noteLink.openInNewTab')}
            </Button>
            <Button
              ref={openRef}
              variant="primary"
              onClick={() => {
                onClose();
                shell.openNote(note.id, { note });
              }}
            >
              {t('noteLink.open')}
            </Button>
          </div>
        </>
      ) : null}
    </Dialog>
  );
}
