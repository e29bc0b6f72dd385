import type { ApiClient, PublicNote } from '@noted/api';
import { ShellContext, useShell, type ShellServices } from '@noted/ui';
import { useEffect, useState } from 'react';
import { log } from './log';
import { MarkdownPreview } from './note/MarkdownPreview';
import { errorCode, errorMessage, formatDate } from './text';
import './notes.css';

/** Props of the module exposed as './SharedNote': the page at /notes/s/:publicId. */
export interface SharedNoteProps {
  api: Pick<ApiClient, 'public'>;
  publicId: string;
  shell: ShellServices;
}

type Loaded = { note: PublicNote } | { missing: true } | { error: unknown };

const isMissing = (error: unknown) => {
  const code = errorCode(error);
  return code === 'NOT_FOUND' || code === 'VALIDATION_FAILED';
};

/** The shared note's images; their addresses are public while the note is shared. */
function SharedImages({ note }: { note: PublicNote }) {
  const shell = useShell();
  if (note.images.length === 0) return null;
  return (
    <ul className="shared-note-images" aria-label="Images">
      {note.images.map((url, index) => {
        const title = `Image ${index + 1} of ${note.title || 'the note'}`;
        return (
          <li key={url}>
            <button
              type="button"
              className="shared-note-image"
              aria-label={`Open image ${index + 1}`}
              onClick={() => shell.previewImage(url, { title })}
            >
              <img src={url} alt={title} loading="lazy" />
            </button>
          </li>
        );
      })}
    </ul>
  );
}

function SharedNoteView({ api, publicId }: Omit<SharedNoteProps, 'shell'>) {
  const [loaded, setLoaded] = useState<Loaded>();
  const [attempt, setAttempt] = useState(0);

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
  }, [api, publicId, attempt]);

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
      <div className="notes-error" role="alert">
        <p>The note could not be loaded: {errorMessage(loaded.error)}</p>
        <button
          type="button"
          className="notes-button"
          onClick={() => {
            setLoaded(undefined);
            setAttempt((n) => n + 1);
          }}
        >
          Try again
        </button>
      </div>
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
      <MarkdownPreview body={note.note} />
      <SharedImages note={note} />
    </article>
  );
}

/** A note someone shared: readable without an account, nothing to edit. */
export function SharedNote({ shell, ...props }: SharedNoteProps) {
  return (
    <ShellContext.Provider value={shell}>
      <SharedNoteView {...props} />
    </ShellContext.Provider>
  );
}

export default SharedNote;
