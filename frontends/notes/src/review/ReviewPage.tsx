import type { Note, ReviewOutcome } from '@noted/api';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from '@noted/router';
import type { NotesApi } from '../api';
import { log } from '../log';
import { useErrorText, useNotesMessages } from '../messages';
import { excerpt } from '../text';
import { reviewStore, useReviewList } from './store';
import './review.css';
import { LoadFailed, Loading } from '../LoadStatus';

export interface ReviewPageProps {
  api: Pick<NotesApi, 'review'>;
}

/** How often the open page asks for newly due notes, until live messages bring them. */
export const REVIEW_CHECK_MS = 5 * 60 * 1000;

/** The notes due for review: read one again, then say whether it was remembered. */
export function ReviewPage({ api }: ReviewPageProps) {
  const { t } = useNotesMessages('note');
  const errorText = useErrorText();
  const titleOf = (note: Pick<Note, 'title'>) => note.title || t('common.untitled');
  const headingId = useId();
  const { items, hasNew, loaded, error } = useReviewList();
  const [marking, setMarking] = useState<string>();
  const [status, setStatus] = useState<string>();
  const [markError, setMarkError] = useState<string>();
  const statusRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    void reviewStore.load(api);
    const timer = setInterval(() => void reviewStore.check(api), REVIEW_CHECK_MS);
    return () => clearInterval(timer);
  }, [api]);

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
    content = <Loading>{t('review.loading')}</Loading>;
  } else if (items.length === 0) {
    content = <p className="review-empty">{t('review.empty')}</p>;
  } else {
    content = (
      <ul className="review-list">
        {items.map((note) => {
          const titleId = `review-${note.id}-title`;
          const busy = marking === note.id;
          const preview = excerpt(note.note);
          return (
            <li key={note.id}>
              <article className="review-note" aria-labelledby={titleId} aria-busy={busy}>
                <h2 id={titleId}>
                  <Link to={`/notes/${note.id}`}>{titleOf(note)}</Link>
                </h2>
                {preview ? <p className="review-excerpt">{preview}</p> : null}
                {note.tags.length > 0 ? (
                  <ul className="review-tags" aria-label={t('common.tags')}>
                    {note.tags.map((tag) => (
                      <li key={tag}>#{tag}</li>
                    ))}
                  </ul>
                ) : null}
                <div className="review-actions" role="group" aria-labelledby={titleId}>
                  <button
                    type="button"
                    className="review-button review-button-primary"
                    onClick={() => void mark(note, 'remembered')}
                    aria-disabled={marking !== undefined}
                  >
                    {t('review.remembered')}
                  </button>
                  <button
                    type="button"
                    className="review-button"
                    onClick={() => void mark(note, 'forgot')}
                    aria-disabled={marking !== undefined}
                  >
                    {t('review.forgot')}
                  </button>
                </div>
              </article>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <section className="review-page" aria-labelledby={headingId}>
      <h1 id={headingId}>{t('review.heading')}</h1>
      <p className="review-intro">{t('review.intro')}</p>
      <div aria-live="polite">
        {hasNew ? (
          <div className="review-new">
            <p>{t('review.newNotes')}</p>
            <button type="button" className="review-button" onClick={() => reviewStore.clearNew()}>
              {t('common.dismiss')}
            </button>
          </div>
        ) : null}
      </div>
      <p ref={statusRef} className="review-status" role="status" tabIndex={-1}>
        {status}
      </p>
      {markError ? (
        <p className="review-error" role="alert">
          {markError}
        </p>
      ) : null}
      {content}
    </section>
  );
}
