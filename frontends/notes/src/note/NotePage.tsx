import { useState } from 'react';
import { Link } from '@noted/router';
import type { NotesApi } from '../api';
import { log } from '../log';
import { useNotesMessages } from '../messages';
import { errorCode } from '../text';
import { useLoad } from '../useLoad';
import { NoteDetail } from './NoteDetail';
import { LoadFailed } from '../LoadStatus';

/** Not found, or not even a note id (which cannot name a note either). */
const isMissing = (error: unknown) => {
  const code = errorCode(error);
  return code === 'NOT_FOUND' || code === 'VALIDATION_FAILED';
};

export interface NotePageProps {
  id: string;
  api: NotesApi;
}

/** `/notes/:id`: loads the note, then shows it for editing. */
export function NotePage({ id, api }: NotePageProps) {
  const { t } = useNotesMessages('note');
  const [attempt, setAttempt] = useState(0);
  const { settled, loading } = useLoad(
    `${id}:${attempt}`,
    () => api.notes.get(id),
    (error) => {
      if (!isMissing(error)) log.error('Loading the note failed.', error);
    },
  );

  if (!settled || loading) {
    return (
      <p className="notes-status" role="status">
        {t('note.loading')}
      </p>
    );
  }
  if ('error' in settled && isMissing(settled.error)) {
    return (
      <section className="note-missing">
        <h1>{t('note.missing')}</h1>
        <p>
          <Link to="/">{t('note.backToList')}</Link>
        </p>
      </section>
    );
  }
  if ('error' in settled) {
    return (
      <LoadFailed
        message={(reason) => t('note.loadFailed', { reason })}
        error={settled.error}
        onRetry={() => setAttempt((n) => n + 1)}
      />
    );
  }
  return <NoteDetail initial={settled.value} api={api} />;
}
