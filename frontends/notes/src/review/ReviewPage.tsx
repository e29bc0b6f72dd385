import type { Note, ReviewOutcome } from '@noted/api';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { NotesApi } from '../api';
import { log } from '../log';
import { errorMessage, excerpt } from '../text';
import { reviewStore, useReviewList } from './store';
import './review.css';
import { LoadFailed, Loading } from '../LoadStatus';

export interface ReviewPageProps {
  api: Pick<NotesApi, 'review'>;
}

/** How often the open page asks for newly due notes, until live messages bring them. */
export const REVIEW_CHECK_MS = 5 * 60 * 1000;

const titleOf = (note: Pick<Note, 'title'>) => note.title || 'Untitled';

const inDays = (days: number) => {
  if (days <= 0) return 'later today';
  return days === 1 ? 'in 1 day' : `in ${days} days`;
};

/** The notes due for review: read one again, then say whether it was remembered. */
export function ReviewPage({ api }: ReviewPageProps) {
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
      setStatus(`Next review of ${titleOf(note)} ${inDays(schedule.intervalDays)}`);
      // The note, and the button that had focus, are gone: continue from the status line.
      statusRef.current?.focus();
    } catch (failure) {
      log.error('Marking a review failed.', failure);
      setMarkError(`${titleOf(note)} could not be marked: ${errorMessage(failure)}`);
    } finally {
      setMarking(undefined);
    }
  };

  let content;
  if (error !== undefined && items.length === 0) {
    content = (
      <LoadFailed
        what="The notes to review"
        error={error}
        onRetry={() => void reviewStore.load(api)}
      />
    );
  } else if (!loaded && items.length === 0) {
    content = <Loading>Loading notes to review…</Loading>;
  } else if (items.length === 0) {
    content = <p className="review-empty">Nothing to review right now</p>;
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
                  <ul className="review-tags" aria-label="Tags">
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
                    Remembered
                  </button>
                  <button
                    type="button"
                    className="review-button"
                    onClick={() => void mark(note, 'forgot')}
                    aria-disabled={marking !== undefined}
                  >
                    Forgot
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
      <h1 id={headingId}>Review</h1>
      <p className="review-intro">
        Notes come back here when it is time to read them again; the better you remember one, the
        longer until it returns.
      </p>
      <div aria-live="polite">
        {hasNew ? (
          <div className="review-new">
            <p>New notes to review</p>
            <button type="button" className="review-button" onClick={() => reviewStore.clearNew()}>
              Dismiss
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
