import { SparklesIcon } from '@noted/ui';
import { useId, useState } from 'react';
import { Link } from '@noted/router';
import type { NotesApi } from '../api';
import { Loading } from '../LoadStatus';
import { useNotesMessages } from '../messages';
import { useLoad } from '../useLoad';
import { AiNotice } from './AiNotice';
import './ai.css';

const RELATED_LIMIT = 5;

export interface RelatedNotesProps {
  api: Pick<NotesApi, 'ai'>;
  noteId: string;
  /** Counts the note's saves: each one looks again, as the note's words have changed. */
  generation: number;
}

/** Notes close in meaning to this one, beside it; each opens its note. */
export function RelatedNotes({ api, noteId, generation }: RelatedNotesProps) {
  const { t } = useNotesMessages('ai');
  const headingId = useId();
  const [attempt, setAttempt] = useState(0);
  const { settled, loading } = useLoad(`${noteId}:${generation}:${attempt}`, () =>
    api.ai.related({ noteId, limit: RELATED_LIMIT }),
  );

  let content;
  if (!settled) {
    content = <Loading lines={4}>{t('related.loading')}</Loading>;
  } else if ('error' in settled) {
    content = <AiNotice error={settled.error} onRetry={() => setAttempt((n) => n + 1)} />;
  } else if (settled.value.items.length === 0) {
    content = <p className="ai-empty">{t('related.empty')}</p>;
  } else {
    content = (
      <ul className="ai-hits">
        {settled.value.items.map(({ note }) => (
          <li key={note.id} className="ai-hit">
            <Link to={`/notes/${note.id}`} className="ai-hit-title">
              {note.title || t('common.untitled')}
            </Link>
            {note.snippet ? <p className="ai-hit-snippet">{note.snippet}</p> : null}
          </li>
        ))}
      </ul>
    );
  }

  return (
    <aside className="ai-related ai-panel ui-card" aria-labelledby={headingId} aria-busy={loading}>
      <div className="ai-panel-head">
        <SparklesIcon className="ui-icon ai-panel-icon" aria-hidden="true" />
        <h2 id={headingId} className="ai-panel-title">
          {t('related.heading')}
        </h2>
      </div>
      {content}
    </aside>
  );
}
