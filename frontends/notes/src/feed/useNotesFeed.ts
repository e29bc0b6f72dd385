import type { Note, SearchHit } from '@noted/api';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { NotesApi } from '../api';
import { log } from '../log';

/** Notes asked for at a time (the spec's page size). */
export const PAGE_SIZE = 10;

export interface FeedQuery {
  search: string;
  tag: string | undefined;
  sharedOnly: boolean;
}

export interface Feed {
  /** The notes loaded so far, in the list's order. */
  items: SearchHit[];
  total: number;
  /** False when the service stopped counting: `total` is then a lower bound. */
  totalExact: boolean;
  /** More notes can be loaded after these. */
  hasMore: boolean;
}

type FeedState =
  | { key: string; feed: Feed; nextPage: number; moreError?: unknown }
  | { key: string; error: unknown };

const pageParams = ({ search, tag, sharedOnly }: FeedQuery, page: number) => ({
  page,
  limit: PAGE_SIZE,
  ...(search ? { search } : { pinnedFirst: true }),
  ...(tag ? { tag } : {}),
  ...(sharedOnly ? { sharedOnly } : {}),
});

const hasMoreAfter = (loaded: number, total: number, exact: boolean, lastPageSize: number) =>
  exact ? loaded < total : lastPageSize === PAGE_SIZE;

/**
 * The list as one feed that grows page by page (`loadMore`), started afresh whenever the
 * query or `generation` changes; the last feed stays shown (with `loading`) until the new
 * one arrives. A page loaded for an older query is dropped. Local changes (a note created,
 * changed or deleted here) are applied without asking again.
 */
export function useNotesFeed(api: Pick<NotesApi, 'notes'>, query: FeedQuery, generation: number) {
  const key = JSON.stringify([query.search, query.tag ?? '', query.sharedOnly, generation]);
  const [state, setState] = useState<FeedState>();
  const [loadingMore, setLoadingMore] = useState(false);
  const latest = useRef({ api, query, key });
  useEffect(() => {
    latest.current = { api, query, key };
  });

  useEffect(() => {
    let active = true;
    const { api: client, query: asked } = latest.current;
    client.notes.list(pageParams(asked, 1)).then(
      (page) => {
        if (!active) return;
        setState({
          key,
          nextPage: 2,
          feed: {
            items: page.items,
            total: page.total,
            totalExact: page.totalExact,
            hasMore: hasMoreAfter(
              page.items.length,
              page.total,
              page.totalExact,
              page.items.length,
            ),
          },
        });
      },
      (error: unknown) => {
        if (!active) return;
        log.error('Loading notes failed.', error);
        setState({ key, error });
      },
    );
    return () => {
      active = false;
    };
  }, [key]);

  const loadMore = useCallback(async () => {
    if (loadingMore || !state || 'error' in state || state.key !== key || !state.feed.hasMore) {
      return;
    }
    setLoadingMore(true);
    const asked = state.key;
    try {
      const page = await latest.current.api.notes.list(
        pageParams(latest.current.query, state.nextPage),
      );
      setState((current) => {
        if (!current || 'error' in current || current.key !== asked) return current;
        const seen = new Set(current.feed.items.map((note) => note.id));
        const items = [...current.feed.items, ...page.items.filter((note) => !seen.has(note.id))];
        const { totalExact } = page;
        return {
          key: asked,
          nextPage: current.nextPage + 1,
          feed: {
            items,
            total: page.total,
            totalExact,
            hasMore: hasMoreAfter(items.length, page.total, totalExact, page.items.length),
          },
        };
      });
    } catch (error) {
      log.error('Loading more notes failed.', error);
      setState((current) =>
        current && !('error' in current) && current.key === asked
          ? { ...current, moreError: error }
          : current,
      );
    } finally {
      setLoadingMore(false);
    }
  }, [key, loadingMore, state]);

  const edit = (change: (feed: Feed) => Feed) =>
    setState((current) =>
      current && !('error' in current) ? { ...current, feed: change(current.feed) } : current,
    );

  return {
    state,
    /** A new query's first page is on its way. */
    loading: state?.key !== key,
    loadingMore,
    loadMore,
    /** Shows the new version of a listed note (its search marks kept). */
    replace: (note: Note) =>
      edit((feed) => ({
        ...feed,
        items: feed.items.map((item) =>
          item.id === note.id ? { ...note, highlights: item.highlights } : item,
        ),
      })),
    /** Takes a deleted note out of the list. */
    remove: (noteId: string) =>
      edit((feed) => ({
        ...feed,
        items: feed.items.filter((item) => item.id !== noteId),
        total: Math.max(0, feed.total - 1),
      })),
    /** Puts a new note first (after the pinned ones). */
    prepend: (note: Note) =>
      edit((feed) => {
        const others = feed.items.filter((item) => item.id !== note.id);
        const pinned = others.filter((item) => item.isPinned);
        const rest = others.filter((item) => !item.isPinned);
        return {
          ...feed,
          items: note.isPinned ? [note, ...others] : [...pinned, note, ...rest],
          total: feed.total + 1,
        };
      }),
  };
}
