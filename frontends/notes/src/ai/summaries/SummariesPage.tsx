import type { PeriodSummary, SummaryPeriodKind } from '@noted/api';
import { useId, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { Link, useSearchParams } from '@noted/router';
import type { NotesApi } from '../../api';
import { useNotesMessages, type Translate } from '../../messages';
import { useLoad } from '../../useLoad';
import { AiNotice } from '../AiNotice';
import { AnswerMethod } from '../AnswerMethod';
import {
  browserTimeZone,
  isCalendarDate,
  isPeriodKind,
  localDate,
  periodKinds,
  shiftDate,
} from './period';
import '../ai.css';
import './summaries.css';
import { MarkdownPreview } from '../../note/MarkdownPreview';

export interface SummariesPageProps {
  api: Pick<NotesApi, 'ai'>;
}

/** The period's first and last day, in the user's language and time zone. */
const periodLabel = (summary: PeriodSummary, locale: string, timeZone: string) => {
  const format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone });
  const from = new Date(summary.period.from);
  // `to` is exclusive: the period's last moment is just before it.
  const last = new Date(new Date(summary.period.to).getTime() - 1);
  if (summary.period.kind === 'day') return format.format(from);
  return format.formatRange(from, last);
};

function PeriodContent({ summary, t }: { summary: PeriodSummary; t: Translate }) {
  const keywordsId = useId();
  const notesId = useId();
  if (summary.totalNotes === 0 && summary.notes.length === 0) {
    return <p className="ai-empty">{t(`summaries.empty.${summary.period.kind}`)}</p>;
  }
  return (
    <>
      <MarkdownPreview body={summary.summary} />
      <AnswerMethod method={summary.method} model={summary.model} />
      {summary.keywords.length > 0 ? (
        <div className="ai-period-group">
          <h3 id={keywordsId}>{t('summaries.keywords')}</h3>
          <ul className="ai-keywords" aria-labelledby={keywordsId}>
            {summary.keywords.map((keyword) => (
              <li key={keyword}>{keyword}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="ai-period-group">
        <h3 id={notesId}>
          {summary.notes.length < summary.totalNotes
            ? t('summaries.notesSome', { shown: summary.notes.length, total: summary.totalNotes })
            : t('summaries.notes', { count: summary.totalNotes })}
        </h3>
        <ul className="ai-period-notes" aria-labelledby={notesId}>
          {summary.notes.map((note) => (
            <li key={note.id}>
              <Link to={`/notes/${note.id}`}>{note.title || t('common.untitled')}</Link>
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}

/**
 * `/summaries`: what the user wrote in a day, week, month or year (`?period=` and `?date=`),
 * counted in the browser's time zone.
 */
export function SummariesPage({ api }: SummariesPageProps) {
  const { t, i18n } = useNotesMessages('ai');
  const id = useId();
  const tabs = useRef<HTMLDivElement>(null);
  const [params, setParams] = useSearchParams();
  const [today] = useState(() => localDate(new Date()));
  const [openedAt] = useState(() => Date.now());
  const [timeZone] = useState(browserTimeZone);
  const [attempt, setAttempt] = useState(0);
  const requestedKind = params.get('period');
  const kind: SummaryPeriodKind = isPeriodKind(requestedKind) ? requestedKind : 'day';
  const requestedDate = params.get('date');
  const date = isCalendarDate(requestedDate) ? requestedDate : today;

  const { settled, loading } = useLoad(`${kind}:${date}:${timeZone}:${attempt}`, () =>
    api.ai.summarizePeriod(kind, { date, timeZone }),
  );

  const show = (next: { period?: SummaryPeriodKind; date?: string }) =>
    setParams((current) => {
      const params = new URLSearchParams(current);
      if (next.period) params.set('period', next.period);
      if (next.date) {
        if (next.date === today) params.delete('date');
        else params.set('date', next.date);
      }
      return params;
    });

  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = periodKinds.indexOf(kind);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : undefined;
    let next: number | undefined;
    if (step !== undefined) next = (at + step + periodKinds.length) % periodKinds.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = periodKinds.length - 1;
    if (next === undefined) return;
    event.preventDefault();
    show({ period: periodKinds[next] });
    tabs.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]')[next]?.focus();
  };

  // The next period is there once it has begun: at the latest, the one holding today.
  const later = shiftDate(date, kind, 1);
  const nextDate = later > today ? today : later;
  const shown = !loading && settled && 'value' in settled ? settled.value : undefined;
  const atLatest =
    date === today || (shown !== undefined && new Date(shown.period.to).getTime() > openedAt);

  let content;
  if (!settled || (loading && 'error' in settled)) {
    content = <p className="notes-status">{t('summaries.loading')}</p>;
  } else if ('error' in settled) {
    content = <AiNotice error={settled.error} onRetry={() => setAttempt((n) => n + 1)} />;
  } else {
    content = (
      <>
        <h2 className="ai-period-label">{periodLabel(settled.value, i18n.language, timeZone)}</h2>
        <PeriodContent summary={settled.value} t={t} />
      </>
    );
  }

  return (
    <div className="ai-summaries">
      <h1>{t('summaries.heading')}</h1>
      <div
        ref={tabs}
        role="tablist"
        aria-label={t('summaries.periodLabel')}
        className="ai-period-tabs"
        onKeyDown={onTabKey}
      >
        {periodKinds.map((each) => (
          <button
            key={each}
            type="button"
            role="tab"
            id={`${id}-${each}`}
            aria-selected={each === kind}
            aria-controls={`${id}-panel`}
            tabIndex={each === kind ? 0 : -1}
            className="ai-period-tab"
            onClick={() => show({ period: each })}
          >
            {t(`summaries.kind.${each}`)}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-${kind}`}
        aria-busy={loading}
        className="ai-period-panel"
      >
        <div className="ai-period-controls">
          <button
            type="button"
            className="ui-button"
            onClick={() => show({ date: shiftDate(date, kind, -1) })}
          >
            <span aria-hidden="true">← </span>
            {t(`summaries.previous.${kind}`)}
          </button>
          <label className="ai-period-date">
            {t('summaries.date')}
            <input
              type="date"
              value={date}
              max={today}
              required
              onChange={(event) => {
                if (isCalendarDate(event.target.value)) show({ date: event.target.value });
              }}
            />
          </label>
          <button
            type="button"
            className="ui-button"
            disabled={atLatest}
            onClick={() => show({ date: nextDate })}
          >
            {t(`summaries.next.${kind}`)}
            <span aria-hidden="true"> →</span>
          </button>
          {date !== today ? (
            <button type="button" className="ui-button" onClick={() => show({ date: today })}>
              {t('summaries.today')}
            </button>
          ) : null}
        </div>
        <p className="note-hint">{t('summaries.timeZone', { timeZone })}</p>
        {content}
      </div>
    </div>
  );
}
