import type { Note } from '@noted/api';
import { useShell } from '@noted/ui';
import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import type { NotesApi } from './api';
import { log } from './log';
import { useErrorText, useNotesMessages } from './messages';

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
  const shell = useShell();
  const { t } = useNotesMessages('note');
  const errorText = useErrorText();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [copied, setCopied] = useState(false);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (failure) {
      log.error('A note action failed.', failure);
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  return {
    busy,
    error,
    copied,
    togglePin: () =>
      run(async () => onChanged(await (note.isPinned ? api.notes.unpin : api.notes.pin)(note.id))),
    share: () =>
      run(async () => {
        const { publicId } = await api.notes.share(note.id);
        onChanged({ ...note, publicId });
      }),
    unshare: () => run(async () => onChanged(await api.notes.unshare(note.id))),
    /** Deletes the note once the user confirms in the shell's popup. */
    remove: async () => {
      const confirmed = await shell.confirm({
        title: t('actions.confirmDelete.title'),
        message: t('actions.confirmDelete.message'),
        confirmLabel: t('actions.confirmDelete.confirm'),
        danger: true,
      });
      if (!confirmed) return;
      await run(async () => {
        await api.notes.remove(note.id);
        onDeleted(note);
      });
    },
    copy: async (url: string) => {
      try {
        await navigator.clipboard.writeText(url);
        setCopied(true);
      } catch (failure) {
        log.warn('Copying the link failed.', failure);
        setError(t('actions.copyFailed'));
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
  const { t } = useNotesMessages('note');
  const { busy } = actions;
  return (
    <div className="note-actions">
      <button type="button" className="ui-button" onClick={actions.togglePin} disabled={busy}>
        {note.isPinned ? t('actions.unpin') : t('actions.pin')}
      </button>
      {note.publicId ? null : (
        <button type="button" className="ui-button" onClick={actions.share} disabled={busy}>
          {t('actions.share')}
        </button>
      )}
      {children}
      <button
        type="button"
        className="ui-button"
        onClick={() => void actions.remove()}
        disabled={busy}
      >
        {t('actions.delete')}
      </button>
    </div>
  );
}

/** The share link with Copy link and Stop sharing, and what failed. */
export function NoteActionPanels({ note, actions }: NoteActionsProps) {
  const { t } = useNotesMessages('note');
  const linkId = useId();
  const { busy } = actions;
  const { publicId } = note;
  return (
    <>
      {publicId ? (
        <div className="note-share">
          <label htmlFor={linkId}>{t('actions.shareLink')}</label>
          <div className="note-share-row">
            <input id={linkId} readOnly value={shareUrl(publicId)} />
            <button
              type="button"
              className="ui-button"
              onClick={() => void actions.copy(shareUrl(publicId))}
            >
              {actions.copied ? t('actions.copied') : t('actions.copyLink')}
            </button>
            <button
              type="button"
              className="ui-button"
              onClick={actions.unshare}
              disabled={busy}
            >
              {t('actions.stopSharing')}
            </button>
          </div>
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
