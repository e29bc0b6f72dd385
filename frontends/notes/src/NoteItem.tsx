import type { Note } from '@noted/api';
import { useState } from 'react';
import type { NotesApi } from './api';
import { log } from './log';
import { errorMessage, excerpt, formatDate } from './text';

export interface NoteItemProps {
  note: Note;
  api: NotesApi;
  /** The note changed (pinned, shared, ...): the list shows the new version. */
  onChanged: (note: Note) => void;
  onDeleted: (note: Note) => void;
  onTag: (tag: string) => void;
}

const shareUrl = (publicId: string) => `${window.location.origin}/notes/s/${publicId}`;

export function NoteItem({ note, api, onChanged, onDeleted, onTag }: NoteItemProps) {
  const titleId = `note-${note.id}-title`;
  const preview = excerpt(note.note);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const [copied, setCopied] = useState(false);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (failure) {
      log.error('A note action failed.', failure);
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const togglePin = () =>
    run(async () => onChanged(await (note.isPinned ? api.notes.unpin : api.notes.pin)(note.id)));
  const share = () =>
    run(async () => {
      const { publicId } = await api.notes.share(note.id);
      onChanged({ ...note, publicId });
    });
  const unshare = () => run(async () => onChanged(await api.notes.unshare(note.id)));
  const remove = () =>
    run(async () => {
      await api.notes.remove(note.id);
      onDeleted(note);
    });
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch (failure) {
      log.warn('Copying the link failed.', failure);
      setError('The link could not be copied; select it and copy it by hand.');
    }
  };

  return (
    <li>
      <article className="note-item" aria-labelledby={titleId} aria-busy={busy}>
        <div className="note-item-head">
          <h3 id={titleId}>
            {note.isPinned ? <span className="note-badge">Pinned</span> : null}
            {note.title || 'Untitled'}
          </h3>
          <div className="note-actions">
            <button type="button" className="notes-button" onClick={togglePin} disabled={busy}>
              {note.isPinned ? 'Unpin' : 'Pin'}
            </button>
            {note.publicId ? null : (
              <button type="button" className="notes-button" onClick={share} disabled={busy}>
                Share
              </button>
            )}
            <button
              type="button"
              className="notes-button"
              onClick={() => setConfirming(true)}
              disabled={busy || confirming}
            >
              Delete
            </button>
          </div>
        </div>
        {preview ? <p className="note-excerpt">{preview}</p> : null}
        {note.publicId ? (
          <div className="note-share">
            <label htmlFor={`note-${note.id}-link`}>Anyone with this link can read the note</label>
            <div className="note-share-row">
              <input id={`note-${note.id}-link`} readOnly value={shareUrl(note.publicId)} />
              <button
                type="button"
                className="notes-button"
                onClick={() => void copy(shareUrl(note.publicId ?? ''))}
              >
                {copied ? 'Copied' : 'Copy link'}
              </button>
              <button type="button" className="notes-button" onClick={unshare} disabled={busy}>
                Stop sharing
              </button>
            </div>
          </div>
        ) : null}
        {confirming ? (
          <div className="note-confirm" role="alertdialog" aria-label="Delete this note?">
            <p>Delete this note? This cannot be undone.</p>
            <button
              type="button"
              className="notes-button notes-danger"
              onClick={remove}
              disabled={busy}
            >
              Delete note
            </button>
            <button type="button" className="notes-button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        ) : null}
        {error ? (
          <p className="note-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="note-meta">
          <time dateTime={note.createdAt}>{formatDate(note.createdAt)}</time>
          {note.tags.length > 0 ? (
            <ul className="note-tags" aria-label="Tags">
              {note.tags.map((tag) => (
                <li key={tag}>
                  <button
                    type="button"
                    className="note-tag"
                    onClick={() => onTag(tag)}
                    aria-label={`Show notes tagged ${tag}`}
                  >
                    #{tag}
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </article>
    </li>
  );
}
