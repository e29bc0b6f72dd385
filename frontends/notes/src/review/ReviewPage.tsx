import type { Note, ReviewOutcome } from '@noted/api';
import {
  ArrowUpRightIcon,
  Button,
  Callout,
  CheckIcon,
  CircleCheckIcon,
  EmptyState,
  PageHeader,
  PencilIcon,
  RotateCcwIcon,
  TagChips,
  buttonClass,
  useShell,
} from '@noted/ui';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from '@noted/router';
import type { NotesApi } from '../api';
import { log } from '../log';
import { useErrorText, useNotesMessages } from '../messages';
import { excerpt } from '../text';
import { ReviewExcerpt, excerptBody } from './ReviewExcerpt';
import { reviewStore, useReviewList } from './store';
import './review.css';
import { LoadFailed, Loading } from '../LoadStatus';

export interface ReviewPageProps {
  api: Pick<NotesApi, 'review'>;
}

/** How often the open page asks for newly due notes while the live connection is not open. */
export const REVIEW_CHECK_MS = 5 * 60 * 1000;

/** The keys that mark the note shown, without reaching for the mouse. */
export const REVIEW_KEYS: Record<ReviewOutcome, string> = { forgot: '1', remembered: '2' };

/** One line of a note's text for the list, without the boxes of its tasks. */
const queueExcerpt = (note: Note) =>
  excerpt(excerptBody(note.note, note.title).replace(/^(\s*[-*+]\s+)\[[ xX]\]\s+/gm, '$1'), 90);

/** Keys typed into a field, or with a modifier held, are not review shortcuts. */
const isShortcut = (event: KeyboardEvent) => {
  if (event.defaultPrevented || event.repeat) return false;
  if (event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return false;
  const target = event.target as HTMLElement | null;
  return !target?.closest('input, textarea, select, [contenteditable="true"], [role="dialog"]');
};

/** The notes due for review: read one again, then say whether it was remembered. */
export function ReviewPage({ api }: ReviewPageProps) {
  const { t } = useNotesMessages('note');
  const errorText = useErrorText();
  const titleOf = (note: Pick<Note, 'title'>) => note.title || t('common.untitled');
  const headingId = useId();
  const queueId = useId();
  const { items, hasNew, loaded, error } = useReviewList();
  const { live } = useShell();
  const [chosenId, setChosenId] = useState<string>();
  const [marking, setMarking] = useState<string>();
  const [status, setStatus] = useState<string>();
  const [markError, setMarkError] = useState<string>();
  const statusRef = useRef<HTMLParagraphElement>(null);
  const cardRef = useRef<HTMLElement>(null);
  // The note chosen from the list, or the first one due once it has been marked.
  const current = items.find((note) => note.id === chosenId) ?? items[0];

  useEffect(() => {
    void reviewStore.load(api);
    // Live noteReview messages bring them; without the connection the page asks now and then.
    const timer = setInterval(() => {
      if (live.status() !== 'open') void reviewStore.check(api);
    }, REVIEW_CHECK_MS);
    return () => clearInterval(timer);
  }, [api, live]);

  const mark = async (note: Note, outcome: ReviewOutcome) => {
    if (marking !== undefined) return;
    setMarking(note.id);
    setMarkError(undefined);
    try {
      const schedule = await api.review.mark({ noteId: note.id, outcome });
      reviewStore.remove(note.id);
      reviewStore.clearNew();
      const title = titleOf(note);
      const days = schedule.intervalDays;
      setStatus(
        days <= 0
          ? t('review.nextToday', { title })
          : t('review.nextInDays', { title, count: days }),
      );
      // The note, and the button that had focus, are gone: continue from the status line.
      statusRef.current?.focus();
    } catch (failure) {
      log.error('Marking a review failed.', failure);
      setMarkError(t('review.markFailed', { title: titleOf(note), reason: errorText(failure) }));
    } finally {
      setMarking(undefined);
    }
  };

  const markRef = useRef(mark);
  useEffect(() => {
    markRef.current = mark;
  });

  useEffect(() => {
    if (!current) return;
    const onKeyDown = (event: KeyboardEvent) => {
      const outcome = (Object.keys(REVIEW_KEYS) as ReviewOutcome[]).find(
        (each) => REVIEW_KEYS[each] === event.key,
      );
      if (!outcome || !isShortcut(event)) return;
      event.preventDefault();
      void markRef.current(current, outcome);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [current]);

  const choose = (note: Note) => {
    setChosenId(note.id);
    cardRef.current?.focus();
  };

  let content;
  if (error !== undefined && items.length === 0) {
    content = (
      <LoadFailed
        message={(reason) => t('review.loadFailed', { reason })}
        error={error}
        onRetry={() => void reviewStore.load(api)}
      />
    );
  } else if (!loaded && items.length === 0) {
    content = (
      <div className="review-layout">
        <Loading blocks={1} lines={6}>
          {t('review.loading')}
        </Loading>
      </div>
    );
  } else if (!current) {
    content = (
      <EmptyState
        icon={CircleCheckIcon}
        title={t('review.empty')}
        action={
          <Link to="/" className={buttonClass({ variant: 'primary' })}>
            <PencilIcon className="ui-icon" aria-hidden="true" />
            {t('review.write')}
          </Link>
        }
      >
        {t('review.emptyHint')}
      </EmptyState>
    );
  } else {
    const titleId = `review-${current.id}-title`;
    const busy = marking === current.id;
    const title = titleOf(current);
    content = (
      <div className="review-layout">
        <article
          ref={cardRef}
          key={current.id}
          className="review-card ui-card"
          aria-labelledby={titleId}
          aria-busy={busy}
          tabIndex={-1}
        >
          <div className="review-card-body">
            <h2 id={titleId} className="review-card-title">
              <Link to={`/notes/${current.id}`}>
                {title}
                <ArrowUpRightIcon className="ui-icon review-card-arrow" aria-hidden="true" />
              </Link>
            </h2>
            <TagChips tags={current.tags} label={t('common.tags')} />
            <ReviewExcerpt body={current.note} title={current.title} />
          </div>
          <footer className="review-card-foot">
            <p className="review-ask">{t('review.ask')}</p>
            <div className="review-actions" role="group" aria-labelledby={titleId}>
              <Button
                icon={RotateCcwIcon}
                size="lg"
                shortcut={REVIEW_KEYS.forgot}
                aria-keyshortcuts={REVIEW_KEYS.forgot}
                aria-disabled={marking !== undefined}
                onClick={() => void mark(current, 'forgot')}
              >
                {t('review.forgot')}
              </Button>
              <Button
                variant="primary"
                icon={CheckIcon}
                size="lg"
                loading={busy}
                shortcut={REVIEW_KEYS.remembered}
                aria-keyshortcuts={REVIEW_KEYS.remembered}
                aria-disabled={marking !== undefined}
                onClick={() => void mark(current, 'remembered')}
              >
                {t('review.remembered')}
              </Button>
            </div>
          </footer>
        </article>
        <section className="review-queue" aria-labelledby={queueId}>
          <h2 id={queueId} className="review-queue-heading">
            {t('review.queue')}
          </h2>
          <ol className="review-queue-list">
            {items.map((note) => (
              <li key={note.id}>
                <button
                  type="button"
                  className="review-queue-item"
                  aria-current={note.id === current.id ? 'true' : undefined}
                  onClick={() => choose(note)}
                >
                  <span className="review-queue-title">{titleOf(note)}</span>
                  <span className="review-queue-excerpt">{queueExcerpt(note)}</span>
                </button>
              </li>
            ))}
          </ol>
        </section>
      </div>
    );
  }

  return (
    <section className="review-page" aria-labelledby={headingId}>
      <PageHeader
        titleId={headingId}
        title={t('review.heading')}
        description={t('review.intro')}
        actions={
          items.length > 0 ? (
            <span className="ui-badge ui-badge-accent review-due">
              {t('review.dueCount', { count: items.length })}
            </span>
          ) : null
        }
      />
      <div aria-live="polite" className="review-live">
        {hasNew ? (
          <Callout
            tone="info"
            title={t('review.newNotes')}
            actions={
              <Button size="sm" variant="ghost" onClick={() => reviewStore.clearNew()}>
                {t('common.dismiss')}
              </Button>
            }
          />
        ) : null}
      </div>
      <p ref={statusRef} className="review-status" role="status" tabIndex={-1}>
        {status ? <CircleCheckIcon className="ui-icon" aria-hidden="true" /> : null}
        {status}
      </p>
      {markError ? (
        <Callout
          tone="danger"
          role="alert"
          onDismiss={() => setMarkError(undefined)}
          dismissLabel={t('common.dismiss')}
        >
          {markError}
        </Callout>
      ) : null}
      {content}
    </section>
  );
}
