import { useCallback, useState } from 'react';
import type { NotesApi } from '../api';
import { log } from '../log';
import { useLoad } from '../useLoad';

/** The links of a note, out and back; reload() after anything that may change them. */
export function useNoteLinks(api: NotesApi, noteId: string) {
  const [generation, setGeneration] = useState(0);
  const { settled, loading, show } = useLoad(
    `${noteId}:${generation}`,
    () => api.links.get(noteId),
    (error) => log.error('Loading the links of the note failed.', error),
  );
  const reload = useCallback(() => setGeneration((n) => n + 1), []);

  return {
    // The links known stay shown while newer ones load, so nothing flickers.
    links: settled && 'value' in settled ? settled.value : undefined,
    error: settled && 'error' in settled ? settled.error : undefined,
    loading,
    reload,
    /** Links as an add or remove answered them. */
    show,
  };
}

export type NoteLinksState = ReturnType<typeof useNoteLinks>;
