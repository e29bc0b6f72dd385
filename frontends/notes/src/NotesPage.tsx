import type { Note, SearchHit } from '@noted/api';
import {
  Button,
  EmptyState,
  IconButton,
  KeyboardIcon,
  NotebookPenIcon,
  PageHeader,
  PinIcon,
  SearchXIcon,
  TagIcon,
  useLiveMessages,
  useLiveReconnect,
  useShell,
} from '@noted/ui';
import { Suspense, lazy, useEffect, useId, useRef, useState } from 'react';
import { useLocation, useNavigationType, useSearchParams } from '@noted/router';
import { AddressedSwitch } from './AddressedSwitch';
import { MeaningFound, MeaningToggle } from './ai/MeaningSearch';
import type { NotesApi } from './api';
import type { CaptureChoice } from './capture/captureFiles';
import { CaptureMenu } from './capture/CaptureMenu';
import { Composer, type ComposerHandle } from './composer/Composer';
import { useNotesFeed, type Feed } from './feed/useNotesFeed';
import { useListShortcuts } from './feed/useListShortcuts';
import { ShortcutsDialog } from './feed/ShortcutsDialog';
import { LoadFailed, Loading } from './LoadStatus';
import { OfflineNotice } from './offline/OfflineNotice';
import { useNotesMessages, type Translate } from './messages';
import { NoteList } from './NoteList';
import { SearchBox } from './search/SearchBox';
import { TagBar } from './TagBar';

// The capture dialogs (and what they check files with) come when one is first opened.
const CaptureDialog = lazy(() => import('./capture/CaptureDialog'));

/** A total the service stopped counting at is "at least". */
const countLabel = (t: Translate, total: number, exact: boolean) =>
  exact ? t('list.count', { count: total }) : t('list.countAtLeast', { total });

const emptyText = (t: Translate, search: string, tag: string | undefined, sharedOnly: boolean) => {
  const values = { search, tag };
  if (search) {
    if (sharedOnly && tag) return t('list.empty.searchSharedTagged', values);
    if (sharedOnly) return t('list.empty.searchShared', values);
    if (tag) return t('list.empty.searchTagged', values);
    return t('list.empty.search', values);
  }
  if (sharedOnly && tag) return t('list.empty.sharedTagged', values);
  if (sharedOnly) return t('list.empty.shared');
  if (tag) return t('list.empty.tagged', values);
  return t('list.empty.none');
};

/** Loads the next notes when the end of the list comes into view (and on a click). */
function MoreNotes({
  feed,
  loading,
  failed,
  onMore,
}: {
  feed: Feed;
  loading: boolean;
  failed: boolean;
  onMore: () => void;
}) {
  const { t } = useNotesMessages('note');
  const ref = useRef<HTMLDivElement>(null);
  const latest = useRef(onMore);
  useEffect(() => {
    latest.current = onMore;
  });
  useEffect(() => {
    const element = ref.current;
    if (!element || !feed.hasMore || failed || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) latest.current();
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [feed.hasMore, failed, feed.items.length]);

  if (!feed.hasMore) {
    return feed.items.length > 10 ? (
      <p className="notes-end">{t('list.end', { count: feed.items.length })}</p>
    ) : null;
  }
  return (
    <div ref={ref} className="notes-more">
      {failed ? <p className="note-error">{t('list.moreFailed')}</p> : null}
      <Button onClick={onMore} loading={loading} disabled={loading}>
        {loading ? t('list.loadingMore') : t('list.loadMore')}
      </Button>
    </div>
  );
}

/**
 * The list at `/`: the quick composer, search (`?q=`) with search by meaning (`?meaning=1`),
 * tag filter (`?tag=`) and shared notes only (`?shared=1`); pinned notes first, in their own
 * group; more notes load as the end of the list comes into view. Keys: `/` searches, `n`
 * writes, `j`/`k` move between notes, `?` lists them.
 */
export function NotesPage({ api }: { api: NotesApi }) {
  const { t } = useNotesMessages('note');
  const headingId = useId();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const search = params.get('q')?.trim() ?? '';
  const tag = params.get('tag') || undefined;
  const sharedOnly = params.get('shared') === '1';
  const byMeaning = params.get('meaning') === '1';
  // Search by meaning with words typed: its results are the list's, and its count the header's.
  const meaningResults = byMeaning && search !== '';
  const [meaningCount, setMeaningCount] = useState<number>();
  const [generation, setGeneration] = useState(0);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const [capture, setCapture] = useState<CaptureChoice>();
  const shell = useShell();
  const composerRef = useRef<ComposerHandle>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLElement>(null);
  const returning = useNavigationType() === 'POP';
  const feed = useNotesFeed(api, { search, tag, sharedOnly }, generation, returning);
  const { state, loading } = feed;

  const reload = () => setGeneration((n) => n + 1);

  // "New note" (sidebar, tab bar) leads here with the composer to focus.
  const composeRequested = (location.state as { compose?: boolean } | null)?.compose === true;
  useEffect(() => {
    if (composeRequested) composerRef.current?.focus();
  }, [composeRequested, location.key]);

  useListShortcuts({
    list: listRef,
    onSearch: () => searchRef.current?.focus(),
    onCompose: () => composerRef.current?.focus(),
    onHelp: () => setShortcutsOpen(true),
  });

  // The newest address, including one asked for but not rendered yet: changes made in quick
  // succession (a debounced search, then the meaning box) each build on the one before, where
  // react-router would hand each the address of its own, older render.
  const latest = useRef(params);
  useEffect(() => {
    latest.current = params;
  }, [params]);
  const setAddress = (changes: Record<string, string | undefined>, replace = false) => {
    const next = new URLSearchParams(latest.current);
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    latest.current = next;
    setParams(next, { replace });
  };
  const showTag = (next: string | undefined) => setAddress({ tag: next });
  const showShared = (only: boolean) => setAddress({ shared: only ? '1' : undefined });
  // Typing replaces the entry: the history keeps searches, not keystrokes.
  const showSearch = (next: string) => setAddress({ q: next }, true);

  const onChanged = (note: Note) => {
    const listed =
      state && !('error' in state) ? state.feed.items.find((item) => item.id === note.id) : null;
    // Pinning moves a note between the groups: ask again for the order.
    if (!search && listed && listed.isPinned !== note.isPinned) reload();
    else feed.replace(note);
  };

  const onCreated = (note: Note) => {
    const fits = !search && !sharedOnly && (!tag || note.tags.some((noteTag) => noteTag === tag));
    if (fits && !loading) feed.prepend(note);
    else reload();
  };

  // Notes created, changed or deleted in another tab or on another device (the live
  // connection); after the connection was down, the list is read again.
  useLiveMessages((message) => {
    if (!state || 'error' in state) return;
    if (message.type === 'noteDeleted') {
      if (state.feed.items.some((item) => item.id === message.noteId)) feed.remove(message.noteId);
    } else if (message.type === 'noteUpdated') {
      const { note } = message;
      const listed = state.feed.items.find((item) => item.id === note.id);
      if (listed) {
        if (note.updatedAt > listed.updatedAt) onChanged({ ...listed, ...note });
      } else if (message.change === 'created' && !search && !sharedOnly && !loading) {
        if (!tag || note.tags.includes(tag)) feed.prepend(note);
      }
    }
  });
  useLiveReconnect(reload);

  let content;
  if (!state || (loading && 'error' in state)) {
    content = <Loading blocks={3}>{t('list.loading')}</Loading>;
  } else if ('error' in state) {
    content = (
      <LoadFailed
        message={(reason) => t('list.loadFailed', { reason })}
        error={state.error}
        onRetry={reload}
      />
    );
  } else if (state.feed.items.length === 0) {
    const filtered = Boolean(search || tag || sharedOnly);
    content = (
      <EmptyState
        icon={search ? SearchXIcon : tag ? TagIcon : NotebookPenIcon}
        title={emptyText(t, search, tag, sharedOnly)}
        level={3}
        action={
          filtered ? (
            <Button onClick={() => setAddress({ q: undefined, tag: undefined, shared: undefined })}>
              {t('list.clearFilters')}
            </Button>
          ) : (
            <Button variant="primary" onClick={() => composerRef.current?.focus()}>
              {t('list.writeFirst')}
            </Button>
          )
        }
      >
        {filtered ? t('list.emptyFilteredHelp') : t('list.emptyHelp')}
      </EmptyState>
    );
  } else {
    const { items } = state.feed;
    const handlers = {
      api,
      onChanged,
      onDeleted: (note: Note) => feed.remove(note.id),
      onTag: showTag,
    };
    const pinned: SearchHit[] = search ? [] : items.filter((item) => item.isPinned);
    const others = items.filter((item) => !pinned.includes(item));
    content = (
      <>
        {pinned.length > 0 ? (
          <section className="notes-group" aria-labelledby={`${headingId}-pinned`}>
            <h3 id={`${headingId}-pinned`} className="notes-group-title">
              <PinIcon className="ui-icon" aria-hidden="true" />
              {t('list.pinned')}
            </h3>
            <NoteList notes={pinned} {...handlers} />
          </section>
        ) : null}
        {pinned.length > 0 && others.length > 0 ? (
          <section className="notes-group" aria-labelledby={`${headingId}-others`}>
            <h3 id={`${headingId}-others`} className="notes-group-title">
              {t('list.others')}
            </h3>
            <NoteList notes={others} {...handlers} />
          </section>
        ) : null}
        {pinned.length === 0 ? <NoteList notes={items} {...handlers} /> : null}
        <MoreNotes
          feed={state.feed}
          loading={feed.loadingMore}
          failed={state.moreError !== undefined}
          onMore={() => void feed.loadMore()}
        />
      </>
    );
  }

  const counted = state && !('error' in state) ? state.feed : undefined;
  let description = ' ';
  if (meaningResults) {
    if (meaningCount === 0) description = t('list.meaningNone');
    else if (meaningCount !== undefined) {
      description = t('list.meaningCount', { count: meaningCount });
    }
  } else if (counted) {
    description = countLabel(t, counted.total, counted.totalExact);
  }

  return (
    <div className="notes-page">
      <PageHeader
        title={t('list.title')}
        description={description}
        actions={
          <>
            <SearchBox ref={searchRef} query={search} onSearch={showSearch} />
            <IconButton
              label={t('shortcuts.button')}
              icon={KeyboardIcon}
              className="notes-shortcuts-button"
              aria-haspopup="dialog"
              onClick={() => setShortcutsOpen(true)}
            />
          </>
        }
      />
      <OfflineNotice />
      <Composer
        ref={composerRef}
        api={api}
        onCreated={onCreated}
        tools={
          // The menu does not hold up the composer while its words load.
          <Suspense fallback={null}>
            <CaptureMenu onChoose={setCapture} />
          </Suspense>
        }
      />
      <section
        ref={listRef}
        className="notes-section"
        aria-labelledby={headingId}
        aria-busy={loading}
      >
        <h2 id={headingId} className="visually-hidden">
          {t('list.heading')}
        </h2>
        <div className="notes-filters">
          <TagBar api={api} tag={tag} onTag={showTag} generation={generation} onRetagged={reload} />
          <div className="notes-switches">
            <AddressedSwitch on={sharedOnly} onChange={showShared} className="notes-shared-only">
              {t('list.sharedOnly')}
            </AddressedSwitch>
            {/* The list does not wait for the AI words. */}
            <Suspense fallback={null}>
              <MeaningToggle
                enabled={byMeaning}
                onToggle={(on) => setAddress({ meaning: on ? '1' : undefined }, true)}
              />
            </Suspense>
          </div>
        </div>
        {byMeaning ? (
          <Suspense fallback={<Loading blocks={3}>{t('list.loading')}</Loading>}>
            <MeaningFound api={api} query={search} onCount={setMeaningCount} />
          </Suspense>
        ) : null}
        {meaningResults ? null : content}
      </section>
      {shortcutsOpen ? <ShortcutsDialog onClose={() => setShortcutsOpen(false)} /> : null}
      {capture ? (
        <Suspense fallback={null}>
          <CaptureDialog
            key={capture}
            choice={capture}
            api={api}
            onClose={() => setCapture(undefined)}
            onCreated={(note) => {
              // As a note written here: first in the list; and opened, to follow its reading.
              setCapture(undefined);
              onCreated(note);
              shell.openNote(note.id, { note });
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
