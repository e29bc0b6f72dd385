import type { Note } from '@noted/api';
import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import type { NotesApi } from './api';
import { log } from './log';
import { errorMessage } from './text';

export interface NoteActionsOptions {
  note: Note;
  api: NotesApi;
  /** The note changed (pinned, shared, ...): show the new version. */
  onChanged: (note: Note) => void;
  onDeleted: (note: Note) => void;
}

export const shareUrl = (publicId: string) => `${window.location.origin}/notes/s/${publicId}`;

/** Pin, share, copy the link, stop sharing and delete: one implementation for list and page. */
export function useNoteActions({ note, api, onChanged, onDeleted }: NoteActionsOptions) {
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

  return {
    busy,
    error,
    confirming,
    copied,
    togglePin: () =>
      run(async () => onChanged(await (note.isPinned ? api.notes.unpin : api.notes.pin)(note.id))),
    share: () =>
      run(async () => {
        const { publicId } = await api.notes.share(note.id);
        onChanged({ ...note, publicId });
      }),
    unshare: () => run(async () => onChanged(await api.notes.unshare(note.id))),
    askDelete: () => setConfirming(true),
    cancelDelete: () => setConfirming(false),
    remove: () =>
      run(async () => {
        await api.notes.remove(note.id);
        onDeleted(note);
      }),
    copy: async (url: string) => {
      try {
        await navigator.clipboard.writeText(url);
        setCopied(true);
      } catch (failure) {
        log.warn('Copying the link failed.', failure);
        setError('The link could not be copied; select it and copy it by hand.');
      }
    },
  };
}

export type NoteActions = ReturnType<typeof useNoteActions>;

interface NoteActionsProps {
  note: Note;
  actions: NoteActions;
}

/** Pin or Unpin, Share (while not shared), any `children`, then Delete. */
export function NoteActionButtons({
  note,
  actions,
  children,
}: NoteActionsProps & { children?: ReactNode }) {
  const { busy, confirming } = actions;
  return (
    <div className="note-actions">
      <button type="button" className="notes-button" onClick={actions.togglePin} disabled={busy}>
        {note.isPinned ? 'Unpin' : 'Pin'}
      </button>
      {note.publicId ? null : (
        <button type="button" className="notes-button" onClick={actions.share} disabled={busy}>
          Share
        </button>
      )}
      {children}
      <button
        type="button"
        className="notes-button"
        onClick={actions.askDelete}
        disabled={busy || confirming}
      >
        Delete
      </button>
    </div>
  );
}

/** The share link with Copy link and Stop sharing, the delete confirmation, and what failed. */
export function NoteActionPanels({ note, actions }: NoteActionsProps) {
  const linkId = useId();
  const { busy } = actions;
  const { publicId } = note;
  return (
    <>
      {publicId ? (
        <div className="note-share">
          <label htmlFor={linkId}>Anyone with this link can read the note</label>
          <div className="note-share-row">
            <input id={linkId} readOnly value={shareUrl(publicId)} />
            <button
              type="button"
              className="notes-button"
              onClick={() => void actions.copy(shareUrl(publicId))}
            >
              {actions.copied ? 'Copied' : 'Copy link'}
            </button>
            <button
              type="button"
              className="notes-button"
              onClick={actions.unshare}
              disabled={busy}
            >
              Stop sharing
            </button>
          </div>
        </div>
      ) : null}
      {actions.confirming ? (
        <div className="note-confirm" role="alertdialog" aria-label="Delete this note?">
          <p>Delete this note? This cannot be undone.</p>
          <button
            type="button"
            className="notes-button notes-danger"
            onClick={actions.remove}
            disabled={busy}
          >
            Delete note
          </button>
          <button type="button" className="notes-button" onClick={actions.cancelDelete}>
            Cancel
          </button>
        </div>
      ) : null}
      {actions.error ? (
        <p className="note-error" role="alert">
          {actions.error}
        </p>
      ) : null}
    </>
  );
}
