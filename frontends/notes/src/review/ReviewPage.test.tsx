import type { Note, ReviewMark } from '@noted/api';
import { AppError } from '@noted/api';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useParams } from '@noted/router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestShell, TestShell } from '@noted/ui/testing';
import type { NotesApi } from '../api';
import { createNotesTestI18n, listed } from '../testing';
import { REVIEW_CHECK_MS, ReviewPage } from './ReviewPage';
import { reviewStore, useReviewNew } from './store';

let sequence = 0;
const makeNote = (title: string, overrides: Partial<Note> = {}): Note => {
  sequence += 1;
  return {
    id: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    title,
    note: `## ${title}\n\nWhat **${title}** is about.`,
    tags: [],
    images: [],
    isPinned: false,
    publicId: null,
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
};

/** The review calls over a list of due notes; marking one takes it off the due list. */
const fakeReview = (initial: Note[]) => {
  let due = [...initial];
  const review: NotesApi['review'] = {
    due: vi.fn(async () => listed(due)),
    dueOf: vi.fn(),
    mark: vi.fn(async (mark: ReviewMark) => {
      const { noteId } = mark;
      due = due.filter((note) => note.id !== noteId);
      const intervalDays = 'outcome' in mark && mark.outcome === 'remembered' ? 6 : 1;
      return {
        noteId,
        dueAt: new Date(Date.UTC(2026, 10, 22 + intervalDays)).toISOString(),
        intervalDays,
        repetitions: 2,
        ease: 2.5,
      };
    }),
  };
  return {
    review,
    add: (note: Note) => {
      due = [note, ...due];
    },
  };
};

function NotePage() {
  return <p>Note page {useParams().id}</p>;
}

function NewBadge() {
  return useReviewNew() ? <span>new</span> : null;
}

const renderPage = (api: Pick<NotesApi, 'review'>) =>
  render(
    <TestShell shell={createTestShell(createNotesTestI18n())}>
      <MemoryRouter initialEntries={['/review']}>
        <NewBadge />
        <Routes>
          <Route path="/review" element={<ReviewPage api={api} />} />
          <Route path="/notes/:id" element={<NotePage />} />
        </Routes>
      </MemoryRouter>
    </TestShell>,
  );

const dueList = () => screen.getByRole('region', { name: /^Due now/ });

/** The titles in the list of due notes, in order. */
const queue = () =>
  within(dueList())
    .getAllByRole('button')
    .map((button) => button.querySelector('.review-queue-title')?.textContent);

beforeEach(() => {
  reviewStore.reset();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('ReviewPage', () => {
  it('shows the first due note as a card with a link, its tags and its body rendered', async () => {
    const rust = makeNote('Rust ownership', { tags: ['rust', 'memory'] });
    renderPage(fakeReview([rust, makeNote('')]));
    expect(screen.getByText('Loading notes to review…')).toBeTruthy();

    const article = await screen.findByRole('article', { name: 'Rust ownership' });
    // The heading that only repeats the title is left out; the Markdown is rendered.
    expect(article.querySelector('.review-excerpt')?.textContent).toBe(
      'What Rust ownership is about.',
    );
    expect(within(article).getByText('Rust ownership', { selector: 'strong' })).toBeTruthy();
    expect(within(article).getByRole('list', { name: 'Tags' }).textContent).toBe('#rust#memory');
    expect(within(article).getByRole('button', { name: 'Remembered' })).toBeTruthy();
    expect(within(article).getByRole('button', { name: 'Forgot' })).toBeTruthy();
    expect(queue()).toEqual(['Rust ownership', 'Untitled']);

    fireEvent.click(within(article).getByRole('link', { name: 'Rust ownership' }));
    expect(screen.getByText(`Note page ${rust.id}`)).toBeTruthy();
  });

  it('shows the note picked from the list of due notes', async () => {
    renderPage(fakeReview([makeNote('Rust'), makeNote('Go')]));
    await screen.findByRole('article', { name: 'Rust' });

    fireEvent.click(within(dueList()).getByRole('button', { name: /^Go/ }));

    expect(screen.getByRole('article', { name: 'Go' })).toBeTruthy();
    expect(screen.queryByRole('article', { name: 'Rust' })).toBeNull();
    expect(
      within(dueList()).getByRole('button', { name: /^Go/ }).getAttribute('aria-current'),
    ).toBe('true');
  });

  it('marks the note shown with the keys 1 (forgot) and 2 (remembered)', async () => {
    const api = fakeReview([makeNote('Rust'), makeNote('Go')]);
    renderPage(api);
    const rust = await screen.findByRole('article', { name: 'Rust' });
    expect(within(rust).getByRole('button', { name: 'Remembered' }).textContent).toContain('2');

    fireEvent.keyDown(document.body, { key: '2' });
    expect(await screen.findByText('Next review of Rust in 6 days')).toBeTruthy();
    expect(api.review.mark).toHaveBeenLastCalledWith({
      noteId: expect.any(String),
      outcome: 'remembered',
    });

    await screen.findByRole('article', { name: 'Go' });
    fireEvent.keyDown(document.body, { key: '1', ctrlKey: true });
    expect(api.review.mark).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(document.body, { key: '1' });
    expect(await screen.findByText('Next review of Go in 1 day')).toBeTruthy();
    expect(api.review.mark).toHaveBeenLastCalledWith({
      noteId: expect.any(String),
      outcome: 'forgot',
    });
  });

  it('marks a note, takes it off the list and says when it comes back', async () => {
    const api = fakeReview([makeNote('Rust'), makeNote('Go')]);
    renderPage(api);
    const rust = await screen.findByRole('article', { name: 'Rust' });

    fireEvent.click(within(rust).getByRole('button', { name: 'Remembered' }));
    expect(await screen.findByText('Next review of Rust in 6 days')).toBeTruthy();
    expect(screen.queryByRole('article', { name: 'Rust' })).toBeNull();
    expect(api.review.mark).toHaveBeenCalledWith({
      noteId: expect.any(String),
      outcome: 'remembered',
    });

    const go = screen.getByRole('article', { name: 'Go' });
    fireEvent.click(within(go).getByRole('button', { name: 'Forgot' }));
    expect(await screen.findByText('Next review of Go in 1 day')).toBeTruthy();
    expect(screen.getByText('Nothing to review right now')).toBeTruthy();
  });

  it('keeps the note and shows the error when marking fails', async () => {
    const api = fakeReview([makeNote('Rust')]);
    vi.mocked(api.review.mark).mockRejectedValueOnce(new AppError('NOT_FOUND', 'No such note'));
    renderPage(api);
    const rust = await screen.findByRole('article', { name: 'Rust' });
    fireEvent.click(within(rust).getByRole('button', { name: 'Forgot' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Rust could not be marked: No such note',
    );
    expect(screen.getByRole('article', { name: 'Rust' })).toBeTruthy();
  });

  it('says when there is nothing to review', async () => {
    renderPage(fakeReview([]));
    expect(await screen.findByText('Nothing to review right now')).toBeTruthy();
  });

  it('shows a failed load with a retry', async () => {
    const api = fakeReview([makeNote('Rust')]);
    vi.mocked(api.review.due).mockRejectedValueOnce(new AppError('INTERNAL', 'Boom'));
    renderPage(api);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The notes to review could not be loaded: Boom',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('article', { name: 'Rust' })).toBeTruthy();
  });

  it('does not fetch again while the list kept on the client has notes', async () => {
    const api = fakeReview([makeNote('Rust')]);
    renderPage(api);
    await screen.findByRole('article', { name: 'Rust' });
    cleanup();
    renderPage(api);
    expect(screen.getByRole('article', { name: 'Rust' })).toBeTruthy();
    expect(api.review.due).toHaveBeenCalledTimes(1);
  });

  it('checks every 5 minutes, flags new notes, and clears the flag on dismiss', async () => {
    vi.useFakeTimers();
    const api = fakeReview([makeNote('Rust')]);
    renderPage(api);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByRole('article', { name: 'Rust' })).toBeTruthy();

    api.add(makeNote('Zig'));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(REVIEW_CHECK_MS);
    });
    expect(api.review.due).toHaveBeenCalledTimes(2);
    expect(queue()).toEqual(['Zig', 'Rust']);
    expect(screen.getByRole('article', { name: 'Zig' })).toBeTruthy();
    expect(screen.getByText('New notes to review')).toBeTruthy();
    expect(screen.getByText('new')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('New notes to review')).toBeNull();
    expect(screen.queryByText('new')).toBeNull();
  });

  it('clears the new flag when a note is marked', async () => {
    const api = fakeReview([makeNote('Rust')]);
    renderPage(api);
    await screen.findByRole('article', { name: 'Rust' });
    act(() => reviewStore.receive([makeNote('Zig')]));
    expect(screen.getByText('New notes to review')).toBeTruthy();

    const zig = screen.getByRole('article', { name: 'Zig' });
    fireEvent.click(within(zig).getByRole('button', { name: 'Remembered' }));
    await screen.findByText('Next review of Zig in 6 days');
    expect(screen.queryByText('New notes to review')).toBeNull();
  });
});
