import type { Note } from '@noted/api';
import { AppError } from '@noted/api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NotesApi } from '../api';
import { listed } from '../testing';
import { reviewStore } from './store';

let sequence = 0;
const makeNote = (title: string): Note => {
  sequence += 1;
  return {
    id: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    title,
    note: `About ${title}`,
    tags: [],
    images: [],
    isPinned: false,
    publicId: null,
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
  };
};

const reviewApi = (due: () => Promise<Note[]>): Pick<NotesApi, 'review'> => ({
  review: {
    due: vi.fn(async () => listed(await due())),
    dueOf: vi.fn(),
    mark: vi.fn(),
  },
});

const titles = () => reviewStore.getSnapshot().items.map((note) => note.title);

beforeEach(() => reviewStore.reset());
afterEach(() => vi.restoreAllMocks());

describe('reviewStore', () => {
  it('fetches the due notes only while the list is empty', async () => {
    const api = reviewApi(async () => [makeNote('Rust'), makeNote('Go')]);
    await reviewStore.load(api);
    expect(reviewStore.getSnapshot()).toMatchObject({ loaded: true, hasNew: false });
    expect(titles()).toEqual(['Rust', 'Go']);

    await reviewStore.load(api);
    expect(api.review.due).toHaveBeenCalledTimes(1);

    for (const note of reviewStore.getSnapshot().items) reviewStore.remove(note.id);
    await reviewStore.load(api);
    expect(api.review.due).toHaveBeenCalledTimes(2);
  });

  it('asks once for loads that overlap', async () => {
    const api = reviewApi(async () => [makeNote('Rust')]);
    await Promise.all([reviewStore.load(api), reviewStore.load(api)]);
    expect(api.review.due).toHaveBeenCalledTimes(1);
    expect(titles()).toEqual(['Rust']);
  });

  it('empties the list when the fetch fails, and logs it', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await reviewStore.load(
      reviewApi(async () => {
        throw new AppError('UNAVAILABLE', 'Try later');
      }),
    );
    expect(reviewStore.getSnapshot()).toEqual({
      items: [],
      hasNew: false,
      loaded: true,
      error: 'Try later',
    });
    expect(error).toHaveBeenCalled();
  });

  it('prepends received notes not listed yet and raises the new flag until cleared', async () => {
    const rust = makeNote('Rust');
    await reviewStore.load(reviewApi(async () => [rust]));
    const seen: boolean[] = [];
    const unsubscribe = reviewStore.subscribe(() => seen.push(reviewStore.getSnapshot().hasNew));

    reviewStore.receive([rust]);
    expect(seen).toEqual([]);

    reviewStore.receive([makeNote('Zig'), rust]);
    expect(titles()).toEqual(['Zig', 'Rust']);
    expect(reviewStore.getSnapshot().hasNew).toBe(true);

    reviewStore.clearNew();
    expect(reviewStore.getSnapshot().hasNew).toBe(false);
    expect(seen).toEqual([true, false]);
    unsubscribe();
  });

  it('keeps notes received while the first fetch runs', async () => {
    let answer: (notes: Note[]) => void = () => undefined;
    const api = reviewApi(() => new Promise((resolve) => (answer = resolve)));
    const loading = reviewStore.load(api);
    const live = makeNote('Live');
    reviewStore.receive([live]);
    answer([makeNote('Fetched'), live]);
    await loading;
    expect(titles()).toEqual(['Live', 'Fetched']);
  });

  it('takes the newly due notes of a check, and keeps the list when a check fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const rust = makeNote('Rust');
    await reviewStore.load(reviewApi(async () => [rust]));
    await reviewStore.check(reviewApi(async () => [rust, makeNote('Zig')]));
    expect(titles()).toEqual(['Zig', 'Rust']);
    expect(reviewStore.getSnapshot().hasNew).toBe(true);

    await reviewStore.check(
      reviewApi(async () => {
        throw new AppError('UNAVAILABLE', 'Try later');
      }),
    );
    expect(titles()).toEqual(['Zig', 'Rust']);
  });

  it('ignores a fetch that was started before a reset', async () => {
    let answer: (notes: Note[]) => void = () => undefined;
    const loading = reviewStore.load(reviewApi(() => new Promise((resolve) => (answer = resolve))));
    reviewStore.reset();
    answer([makeNote('Stale')]);
    await loading;
    expect(reviewStore.getSnapshot()).toEqual({ items: [], hasNew: false, loaded: false });
  });
});
