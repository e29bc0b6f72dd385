import type { Note } from '@noted/api';
import { Button, CheckIcon, CopyIcon, GlobeIcon, useShell } from '@noted/ui';
import { useId, useState } from 'react';
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
    /**
     * Shares the note once the user confirms: a public link is readable by anyone who gets it
     * (and whoever they pass it to), so it is not made by one stray click.
     */
    share: async () => {
      const confirmed = await shell.confirm({
        title: t('actions.confirmShare.title'),
        message: t('actions.confirmShare.message'),
        confirmLabel: t('actions.confirmShare.confirm'),
      });
      if (!confirmed) return;
      await run(async () => {
        const { publicId } = await api.notes.share(note.id);
        onChanged({ ...note, publicId });
      });
    },
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
    /** Copies the share link; says so in a toast when `announce`, as from a menu. */
    copy: async (url: string, announce = false) => {
      try {
        await navigator.clipboard.writeText(url);
        setCopied(true);
        if (announce) shell.toast(t('actions.linkCopied'), { type: 'success' });
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
          <label htmlFor={linkId} className="note-share-label">
            <GlobeIcon className="ui-icon" aria-hidden="true" />
            {t('actions.shareLink')}
          </label>
          <div className="note-share-row">
            <input
              id={linkId}
              className="ui-input ui-input-sm"
              readOnly
              value={shareUrl(publicId)}
              onFocus={(event) => event.currentTarget.select()}
            />
            <Button
              size="sm"
              icon={actions.copied ? CheckIcon : CopyIcon}
              onClick={() => void actions.copy(shareUrl(publicId))}
            >
              {actions.copied ? t('actions.copied') : t('actions.copyLink')}
            </Button>
            <Button size="sm" variant="danger-ghost" onClick={actions.unshare} disabled={busy}>
              {t('actions.stopSharing')}
            </Button>
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
