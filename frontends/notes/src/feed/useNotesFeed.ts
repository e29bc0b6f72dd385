import type { Note, SearchHit } from '@noted/api';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { NotesApi } from '../api';
import { log } from '../log';

/** Notes asked for at a time (the spec's page size). */
export const PAGE_SIZE = 10;

/** The most notes one request may ask for (the list's limit). */
const MOST_AT_ONCE = 100;

/**
 * How far down each list the user was when they left it (pages loaded, scroll offset), so
 * Back comes to the same place: the pages are asked for again in one request, fresh, and the
 * page scrolls to where it was.
 */
const leftAt = new Map<string, { pages: number; scrollY: number }>();

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

/** Counted exactly, the total says; otherwise a full last page says there may be more. */
const hasMoreAfter = (loaded: number, total: number, exact: boolean, fullPage: boolean) =>
  exact ? loaded < total : fullPage;

/**
 * The list as one feed that grows page by page (`loadMore`), started afresh whenever the
 * query or `generation` changes; the last feed stays shown (with `loading`) until the new
 * one arrives. A page loaded for an older query is dropped. Local changes (a note created,
 * changed or deleted here) are applied without asking again.
 */
export function useNotesFeed(
  api: Pick<NotesApi, 'notes'>,
  query: FeedQuery,
  generation: number,
  /** Coming back (Back/Forward): load as much as was loaded and scroll to where it was. */
  returning = false,
) {
  const place = JSON.stringify([query.search, query.tag ?? '', query.sharedOnly]);
  const key = JSON.stringify([place, generation]);
  const [state, setState] = useState<FeedState>();
  const [loadingMore, setLoadingMore] = useState(false);
  const latest = useRef({ api, query, key });
  useEffect(() => {
    latest.current = { api, query, key };
  });

  const returnTo = useRef(returning ? leftAt.get(place) : undefined);
  /** Where to scroll once the list that was there is on the page again. */
  const scrollTo = useRef<number>(undefined);

  useEffect(() => {
    let active = true;
    const { api: client, query: asked } = latest.current;
    const back = returnTo.current;
    const pages = Math.min(back?.pages ?? 1, MOST_AT_ONCE / PAGE_SIZE);
    client.notes.list({ ...pageParams(asked, 1), limit: pages * PAGE_SIZE }).then(
      (page) => {
        if (!active) return;
        setState({
          key,
          nextPage: pages + 1,
          feed: {
            items: page.items,
            total: page.total,
            totalExact: page.totalExact,
            hasMore: hasMoreAfter(
              page.items.length,
              page.total,
              page.totalExact,
              page.items.length === pages * PAGE_SIZE,
            ),
          },
        });
        if (back) {
          returnTo.current = undefined;
          scrollTo.current = back.scrollY;
        }
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

  // After the commit that shows the list again (a frame callback could come before it).
  useLayoutEffect(() => {
    if (scrollTo.current === undefined || !state || state.key !== key) return;
    window.scrollTo(0, scrollTo.current);
    scrollTo.current = undefined;
  }, [state, key]);

  // Read while leaving, before the next page's layout scrolls the window to its top.
  const pagesLoaded = state && !('error' in state) ? state.nextPage - 1 : 1;
  const pagesRef = useRef(pagesLoaded);
  useEffect(() => {
    pagesRef.current = pagesLoaded;
  }, [pagesLoaded]);
  useLayoutEffect(
    () => () => {
      leftAt.set(place, { pages: pagesRef.current, scrollY: window.scrollY });
    },
    [place],
  );

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
            hasMore: hasMoreAfter(
              items.length,
              page.total,
              totalExact,
              page.items.length === PAGE_SIZE,
            ),
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
          // Listed already (its live message came before the answer to its creation).
          total: feed.total + (others.length < feed.items.length ? 0 : 1),
        };
      }),
  };
}
