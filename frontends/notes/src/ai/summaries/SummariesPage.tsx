import type { PeriodSummary, SummaryPeriodKind } from '@noted/api';
import {
  Button,
  ChevronLeftIcon,
  ChevronRightIcon,
  EmptyState,
  FileTextIcon,
  GlobeIcon,
  IconButton,
  PageHeader,
  PencilIcon,
  ScrollTextIcon,
  TagIcon,
  buttonClass,
} from '@noted/ui';
import { useId, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { Link, useSearchParams } from '@noted/router';
import type { NotesApi } from '../../api';
import { Loading } from '../../LoadStatus';
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

function PeriodContent({
  summary,
  label,
  t,
}: {
  summary: PeriodSummary;
  label: string;
  t: Translate;
}) {
  const labelId = useId();
  const keywordsId = useId();
  const notesId = useId();
  if (summary.totalNotes === 0 && summary.notes.length === 0) {
    return (
      <>
        <h2 className="ai-period-label">{label}</h2>
        <EmptyState
          level={3}
          icon={ScrollTextIcon}
          title={t(`summaries.empty.${summary.period.kind}`)}
          action={
            <Link to="/" className={buttonClass({ variant: 'primary' })}>
              <PencilIcon className="ui-icon" aria-hidden="true" />
              {t('summaries.write')}
            </Link>
          }
        >
          {t('summaries.emptyHint')}
        </EmptyState>
      </>
    );
  }
  return (
    <div className="ai-period-grid">
      <article className="ai-period-summary ui-card" aria-labelledby={labelId}>
        <header className="ai-period-summary-head">
          <h2 id={labelId} className="ai-period-label">
            {label}
          </h2>
          <AnswerMethod method={summary.method} model={summary.model} />
        </header>
        <MarkdownPreview body={summary.summary} />
      </article>
      <div className="ai-period-side">
        {summary.keywords.length > 0 ? (
          <section className="ai-period-group ui-card" aria-labelledby={keywordsId}>
            <h3 id={keywordsId} className="ai-period-group-title">
              <TagIcon className="ui-icon" aria-hidden="true" />
              {t('summaries.keywords')}
            </h3>
            <ul className="ai-keywords" aria-labelledby={keywordsId}>
              {summary.keywords.map((keyword) => (
                <li key={keyword} className="ui-chip">
                  {keyword}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <section className="ai-period-group ui-card" aria-labelledby={notesId}>
          <h3 id={notesId} className="ai-period-group-title">
            <FileTextIcon className="ui-icon" aria-hidden="true" />
            {summary.notes.length < summary.totalNotes
              ? t('summaries.notesSome', {
                  shown: summary.notes.length,
                  total: summary.totalNotes,
                })
              : t('summaries.notes', { count: summary.totalNotes })}
          </h3>
          <ul className="ai-period-notes" aria-labelledby={notesId}>
            {summary.notes.map((note) => (
              <li key={note.id}>
                <Link to={`/notes/${note.id}`}>{note.title || t('common.untitled')}</Link>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
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
    content = (
      <Loading blocks={1} lines={5}>
        {t('summaries.loading')}
      </Loading>
    );
  } else if ('error' in settled) {
    content = <AiNotice error={settled.error} onRetry={() => setAttempt((n) => n + 1)} />;
  } else {
    content = (
      <PeriodContent
        summary={settled.value}
        label={periodLabel(settled.value, i18n.language, timeZone)}
        t={t}
      />
    );
  }

  return (
    <section className="ai-summaries" aria-labelledby={`${id}-heading`}>
      <PageHeader
        titleId={`${id}-heading`}
        title={t('summaries.heading')}
        description={t('summaries.description')}
      />
      <div className="ai-period-bar">
        <div
          ref={tabs}
          role="tablist"
          aria-label={t('summaries.periodLabel')}
          className="ui-segmented ai-period-tabs"
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
              onClick={() => show({ period: each })}
            >
              {t(`summaries.kind.${each}`)}
            </button>
          ))}
        </div>
        <div className="ai-period-controls">
          <IconButton
            label={t(`summaries.previous.${kind}`)}
            icon={ChevronLeftIcon}
            variant="secondary"
            onClick={() => show({ date: shiftDate(date, kind, -1) })}
          />
          <label htmlFor={`${id}-date`} className="visually-hidden">
            {t('summaries.date')}
          </label>
          <input
            id={`${id}-date`}
            type="date"
            className="ui-input ai-period-date"
            value={date}
            max={today}
            required
            onChange={(event) => {
              if (isCalendarDate(event.target.value)) show({ date: event.target.value });
            }}
          />
          <IconButton
            label={t(`summaries.next.${kind}`)}
            icon={ChevronRightIcon}
            variant="secondary"
            disabled={atLatest}
            onClick={() => show({ date: nextDate })}
          />
          {date !== today ? (
            <Button variant="ghost" onClick={() => show({ date: today })}>
              {t('summaries.today')}
            </Button>
          ) : null}
        </div>
      </div>
      <div
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-${kind}`}
        aria-busy={loading}
        className="ai-period-panel"
      >
        {content}
        <p className="ai-period-zone">
          <GlobeIcon className="ui-icon" aria-hidden="true" />
          {t('summaries.timeZone', { timeZone })}
        </p>
      </div>
    </section>
  );
}
