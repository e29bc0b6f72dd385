import type { Note } from '@noted/api';
import { useSyncExternalStore } from 'react';
import type { NotesApi } from '../api';
import { log } from '../log';
import { errorMessage } from '../text';

/** The notes-for-review list, kept on the client for the whole session. */
export interface ReviewList {
  items: Note[];
  /** Notes arrived since the user last looked (the new-notification flag). */
  hasNew: boolean;
  /** A fetch has finished, whether it succeeded or not. */
  loaded: boolean;
  /** Why the last fetch failed (empty when the error did not say); the list is then empty. */
  error?: string;
}

/** Notes one fetch asks for. */
export const REVIEW_LIMIT = 50;

const initial: ReviewList = { items: [], hasNew: false, loaded: false };

let state = initial;
let loading: Promise<void> | undefined;
/** Bumped by reset(), so a fetch started before it cannot fill the new list. */
let epoch = 0;
const listeners = new Set<() => void>();

const set = (next: ReviewList) => {
  state = next;
  for (const listener of listeners) listener();
};

/** The notes of `incoming` not listed yet. */
const unlisted = (incoming: Note[]) => {
  const listed = new Set(state.items.map((note) => note.id));
  return incoming.filter((note) => !listed.has(note.id));
};

export const reviewStore = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },

  getSnapshot: (): ReviewList => state,

  /** Fetches the due notes, only when the list is empty; a failure empties the list. */
  load(api: Pick<NotesApi, 'review'>): Promise<void> {
    if (state.items.length > 0) return Promise.resolve();
    if (loading) return loading;
    const started = epoch;
    // A retry after a failure shows as loading again, not as the old error.
    if (state.error !== undefined) set({ items: [], hasNew: state.hasNew, loaded: false });
    loading = api.review.due({ limit: REVIEW_LIMIT }).then(
      ({ items }) => {
        if (started !== epoch) return;
        loading = undefined;
        const { error: _error, ...rest } = state;
        // Notes received while the fetch ran stay first.
        set({ ...rest, items: [...state.items, ...unlisted(items)], loaded: true });
      },
      (error: unknown) => {
        if (started !== epoch) return;
        loading = undefined;
        log.error('Loading the notes to review failed.', error);
        set({ items: [], hasNew: false, loaded: true, error: errorMessage(error) });
      },
    );
    return loading;
  },

  /** Asks again which notes are due and takes the new ones in as receive() does. */
  async check(api: Pick<NotesApi, 'review'>): Promise<void> {
    const started = epoch;
    try {
      const { items } = await api.review.due({ limit: REVIEW_LIMIT });
      if (started === epoch) reviewStore.receive(items);
    } catch (error) {
      log.warn('Checking for notes to review failed; the list is kept.', error);
    }
  },

  /** Prepends the notes not listed yet and raises the new flag (a live noteReview message). */
  receive(notes: Note[]): void {
    const added = unlisted(notes);
    if (added.length === 0) return;
    const { error: _error, ...rest } = state;
    set({ ...rest, items: [...added, ...state.items], hasNew: true });
  },

  clearNew(): void {
    if (state.hasNew) set({ ...state, hasNew: false });
  },

  remove(noteId: string): void {
    if (state.items.some((note) => note.id === noteId)) {
      set({ ...state, items: state.items.filter((note) => note.id !== noteId) });
    }
  },

  /** Forgets everything: on sign-out, and between tests. */
  reset(): void {
    epoch += 1;
    loading = undefined;
    set(initial);
  },
};

export const useReviewList = (): ReviewList =>
  useSyncExternalStore(reviewStore.subscribe, reviewStore.getSnapshot);

export const useReviewNew = (): boolean =>
  useSyncExternalStore(reviewStore.subscribe, () => reviewStore.getSnapshot().hasNew);
