import type { ApiClient, PublicNote } from '@noted/api';
import { useEffect, useState } from 'react';
import { log } from './log';
import { errorMessage, formatDate } from './text';
import './notes.css';

/** Props of the module exposed as './SharedNote': the page at /notes/s/:publicId. */
export interface SharedNoteProps {
  api: Pick<ApiClient, 'public'>;
  publicId: string;
}

type Loaded = { note: PublicNote } | { missing: true } | { error: unknown };

const isMissing = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  'code' in error &&
  ((error as { code: unknown }).code === 'NOT_FOUND' ||
    (error as { code: unknown }).code === 'VALIDATION_FAILED');

/** A note someone shared: readable without an account, nothing to edit. */
export function SharedNote({ api, publicId }: SharedNoteProps) {
  const [loaded, setLoaded] = useState<Loaded>();

  useEffect(() => {
    let active = true;
    api.public.note(publicId).then(
      (note) => {
        if (active) setLoaded({ note });
      },
      (error: unknown) => {
        if (!active) return;
        if (isMissing(error)) {
          setLoaded({ missing: true });
          return;
        }
        log.error('Loading the shared note failed.', error);
        setLoaded({ error });
      },
    );
    return () => {
      active = false;
    };
  }, [api, publicId]);

  if (!loaded) {
    return (
      <p className="notes-status" role="status">
        Loading the note…
      </p>
    );
  }
  if ('missing' in loaded) {
    return (
      <section className="shared-note">
        <h1>This note is not shared</h1>
        <p>The link is wrong, or its owner stopped sharing the note.</p>
      </section>
    );
  }
  if ('error' in loaded) {
    return (
      <p className="notes-error" role="alert">
        The note could not be loaded: {errorMessage(loaded.error)}
      </p>
    );
  }
  const { note } = loaded;
  return (
    <article className="shared-note" aria-labelledby="shared-note-title">
      <h1 id="shared-note-title">{note.title || 'Untitled'}</h1>
      <p className="note-meta">
        <span>
          Updated <time dateTime={note.updatedAt}>{formatDate(note.updatedAt)}</time>
        </span>
        {note.tags.length > 0 ? (
          <span className="note-tags" aria-label="Tags">
            {note.tags.map((tag) => `#${tag}`).join(' ')}
          </span>
        ) : null}
      </p>
      <div className="shared-note-body">{note.note}</div>
    </article>
  );
}

export default SharedNote;
