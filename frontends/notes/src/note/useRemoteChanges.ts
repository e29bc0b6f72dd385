import type { LiveNote } from '@noted/api';
import { useLiveMessages, useShell } from '@noted/ui';
import { useEffect, useRef, useState } from 'react';
import type { Autosave, Draft } from './autosave';

/** What happened to the open note elsewhere (another tab or device) that the page must show. */
export type RemoteChange = { kind: 'changed'; note: LiveNote } | { kind: 'deleted' };

const sameTags = (a: string[], b: string[]) =>
  a.length === b.length && a.every((tag, index) => tag === b[index]);

/** The text of a version is what is being edited: nothing to show or take. */
const sameText = (note: LiveNote, draft: Draft) =>
  note.title === draft.title && note.note === draft.note && sameTags(note.tags, draft.tags);

/**
 * The open note as the live connection reports it changed elsewhere. A newer version is taken
 * in at once when nothing typed here waits to be saved; otherwise the page offers the choice it
 * offers on a 409 (keep mine, or take theirs), so nothing typed is overwritten. A version that
 * arrives while a save is on its way, or while changes made here wait in the device copy, is
 * judged once they have landed: it is most often their own echo.
 */
export const useRemoteChanges = ({
  noteId,
  autosave,
  take,
  adoptFields,
}: {
  noteId: string;
  /** What is edited, on which version (the last saved, taken or chosen to overwrite). */
  autosave: Autosave;
  /** Shows `note` as the page's note and text. */
  take: (note: LiveNote) => void;
  /** Takes the version's other fields (pin, sharing, images) and its version, text untouched. */
  adoptFields: (note: LiveNote) => void;
}) => {
  const [remote, setRemote] = useState<RemoteChange>();
  const waiting = useRef<LiveNote | undefined>(undefined);
  const { offline } = useShell();
  const busy = () =>
    autosave.isSaving() || offline.pending().some((change) => change.noteId === noteId);

  const judge = (incoming: LiveNote) => {
    if (incoming.updatedAt <= (autosave.version() ?? '')) return;
    if (busy()) {
      waiting.current = incoming;
      return;
    }
    if (sameText(incoming, autosave.values())) {
      adoptFields(incoming);
      setRemote((change) => (change?.kind === 'changed' ? undefined : change));
    } else if (!autosave.isDirty()) {
      take(incoming);
      setRemote(undefined);
    } else {
      setRemote({ kind: 'changed', note: incoming });
    }
  };
  const judgeRef = useRef(judge);
  useEffect(() => {
    judgeRef.current = judge;
  });

  // A version held back while a save ran is judged when the save has landed.
  const busyRef = useRef(busy);
  useEffect(() => {
    busyRef.current = busy;
  });
  useEffect(() => {
    const judgeHeld = () => {
      const held = waiting.current;
      if (!held || busyRef.current()) return;
      waiting.current = undefined;
      judgeRef.current(held);
    };
    const unsubscribeSaves = autosave.subscribe(judgeHeld);
    const unsubscribeQueue = offline.subscribe(judgeHeld);
    return () => {
      unsubscribeSaves();
      unsubscribeQueue();
    };
  }, [autosave, offline]);

  useLiveMessages((message) => {
    if (message.type === 'noteDeleted' && message.noteId === noteId) {
      setRemote({ kind: 'deleted' });
    } else if (message.type === 'noteUpdated' && message.note.id === noteId) {
      judge(message.note);
    }
  });

  return { remote, dismiss: () => setRemote(undefined) };
};
