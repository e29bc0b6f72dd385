import type { Note } from '@noted/api';
import { EmptyState, FileQuestionIcon, buttonClass, takeCurrentNote } from '@noted/ui';
import { Suspense, useState } from 'react';
import { Link } from '@noted/router';
import type { NotesApi } from '../api';
import { log } from '../log';
import { useNotesMessages } from '../messages';
import { errorCode } from '../text';
import { useLoad } from '../useLoad';
import { CapturingNote } from '../capture/CapturingNote';
import { NoteDetail } from './NoteDetail';
import { LoadFailed, Loading } from '../LoadStatus';

/** Not found, or not even a note id (which cannot name a note either). */
const isMissing = (error: unknown) => {
  const code = errorCode(error);
  return code === 'NOT_FOUND' || code === 'VALIDATION_FAILED';
};

export interface NotePageProps {
  id: string;
  api: NotesApi;
}

/** A note another page handed over (the shell's note link popup), if it is this one. */
const handedOver = (id: string): Note | undefined => {
  const note = takeCurrentNote(id);
  if (typeof note !== 'object' || note === null) return undefined;
  const fields = note as Partial<Record<keyof Note, unknown>>;
  const complete =
    fields.id === id &&
    typeof fields.title === 'string' &&
    typeof fields.note === 'string' &&
    typeof fields.updatedAt === 'string' &&
    Array.isArray(fields.tags) &&
    Array.isArray(fields.images);
  return complete ? (note as Note) : undefined;
};

/**
 * `/notes/:id`: shows the note for editing, at once when the page that opened it handed it
 * over, otherwise once it is loaded.
 */
export function NotePage({ id, api }: NotePageProps) {
  const [handed] = useState(() => handedOver(id));
  if (handed) return <NoteView initial={handed} api={api} />;
  return <LoadedNotePage id={id} api={api} />;
}

function LoadedNotePage({ id, api }: NotePageProps) {
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
    return <Loading lines={8}>{t('note.loading')}</Loading>;
  }
  if ('error' in settled && isMissing(settled.error)) {
    return (
      <section className="note-missing">
        <EmptyState
          icon={FileQuestionIcon}
          title={t('note.missing')}
          level={1}
          action={
            <Link className={buttonClass({ variant: 'primary' })} to="/">
              {t('note.backToList')}
            </Link>
          }
        />
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
  return <NoteView initial={settled.value} api={api} />;
}

/**
 * The note to edit, or, while its capture is being read, the note read-only with how far it
 * is: the editor starts only once the text is there, so nothing typed can be overwritten by
 * it (and Retry after a failure goes back to read-only until the text comes).
 */
function NoteView({ initial, api }: { initial: Note; api: NotesApi }) {
  const { t } = useNotesMessages('note');
  const [note, setNote] = useState(initial);
  if (note.capture?.status === 'processing') {
    return (
      <Suspense fallback={<Loading lines={8}>{t('note.loading')}</Loading>}>
        <CapturingNote note={note} api={api} onChanged={setNote} />
      </Suspense>
    );
  }
  return <NoteDetail initial={note} api={api} onCaptureRetried={setNote} />;
}
