import { IconButton, SparklesIcon, XIcon } from '@noted/ui';
import { useId } from 'react';
import type { NotesApi } from '../api';
import { Loading } from '../LoadStatus';
import { useNotesMessages } from '../messages';
import { useLoad } from '../useLoad';
import { AiNotice } from './AiNotice';
import { AnswerMethod } from './AnswerMethod';
import './ai.css';

export interface NoteSummaryPanelProps {
  api: Pick<NotesApi, 'ai'>;
  noteId: string;
  /** Counts the times Summarize was asked for; each asks again. */
  request: number;
  onRetry: () => void;
  onClose: () => void;
}

/** The summary of one note, and whether a model wrote it or it is the note's own sentences. */
export function NoteSummaryPanel({
  api,
  noteId,
  request,
  onRetry,
  onClose,
}: NoteSummaryPanelProps) {
  const { t } = useNotesMessages('ai');
  const headingId = useId();
  const { settled, loading } = useLoad(`${noteId}:${request}`, () => api.ai.summarizeNote(noteId));

  let content;
  if (!settled || (loading && 'error' in settled)) {
    content = <Loading lines={3}>{t('summary.loading')}</Loading>;
  } else if ('error' in settled) {
    content = <AiNotice error={settled.error} onRetry={onRetry} />;
  } else {
    const { summary, method, model } = settled.value;
    content = (
      <>
        <p className="ai-summary-text">{summary || t('summary.empty')}</p>
        <AnswerMethod method={method} model={model} />
      </>
    );
  }

  return (
    <section
      className="ai-summary ai-panel ui-card"
      aria-labelledby={headingId}
      aria-busy={loading}
    >
      <div className="ai-panel-head">
        <SparklesIcon className="ui-icon ai-panel-icon" aria-hidden="true" />
        <h2 id={headingId} className="ai-panel-title">
          {t('summary.heading')}
        </h2>
        <IconButton label={t('summary.hide')} icon={XIcon} size="sm" onClick={onClose} />
      </div>
      {content}
    </section>
  );
}
