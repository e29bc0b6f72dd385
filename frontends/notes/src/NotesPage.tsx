import type { Note } from '@noted/api';
import { Suspense, useEffect, useId, useRef, useState } from 'react';
import { Trans } from 'react-i18next';
import { useSearchParams } from '@noted/router';
import { MeaningSearch } from './ai/MeaningSearch';
import type { NotesApi } from './api';
import { log } from './log';
import { useNotesMessages, type Translate } from './messages';
import { NoteForm } from './NoteForm';
import { NoteList } from './NoteList';
import { SearchBox } from './search/SearchBox';
import { TagBar } from './TagBar';
import { useLoad } from './useLoad';
import { LoadFailed, Loading } from './LoadStatus';
import { useAddressed } from './useAddressed';

export const PAGE_SIZE = 10;

/** A total the service stopped counting at is "at least". */
const countLabel = (t: Translate, total: number, exact: boolean) =>
  exact ? t('list.count', { count: total }) : t('list.countAtLeast', { total });

const pageNumber = (value: string | null) => {
  const number = Number(value ?? 1);
  return Number.isSafeInteger(number) && number >= 1 ? number : 1;
};

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

/**
 * The list at `/`: the form, search (`?q=`) with search by meaning (`?meaning=1`), tag filter
 * (`?tag=`), shared notes only (`?shared=1`) and pages (`?page=`); pinned notes first, in their
 * own section.
 */
export function NotesPage({ api }: { api: NotesApi }) {
  const { t } = useNotesMessages('note');
  const headingId = useId();
  const [params, setParams] = useSearchParams();
  const search = params.get('q')?.trim() ?? '';
  const tag = params.get('tag') || undefined;
  const sharedOnly = params.get('shared') === '1';
  const byMeaning = params.get('meaning') === '1';
  const [sharedShown, showSharedAt] = useAddressed(sharedOnly);
  const page = pageNumber(params.get('page'));
  const [generation, setGeneration] = useState(0);
  const filter = { ...(tag ? { tag } : {}), ...(sharedOnly ? { sharedOnly } : {}) };
  const { settled, loading, show } = useLoad(
    `${page}:${tag ?? ''}:${sharedOnly}:${search}:${generation}`,
    () =>
      api.notes.list(
        search
          ? { search, page, limit: PAGE_SIZE, ...filter }
          : { page, limit: PAGE_SIZE, pinnedFirst: true, ...filter },
      ),
    (error) => log.error('Loading notes failed.', error),
  );

  const reload = () => setGeneration((n) => n + 1);

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
  const showTag = (next: string | undefined) => setAddress({ tag: next, page: undefined });
  const showShared = (only: boolean) =>
    setAddress({ shared: only ? '1' : undefined, page: undefined });
  const showPage = (next: number) => setAddress({ page: next > 1 ? String(next) : undefined });
  // Typing replaces the entry: the history keeps searches, not keystrokes.
  const showSearch = (next: string) => setAddress({ q: next, page: undefined }, true);

  const onChanged = (note: Note) => {
    if (!settled || !('value' in settled)) return;
    const listed = settled.value.items.find((item) => item.id === note.id);
    if (!search && listed?.isPinned !== note.isPinned) {
      reload();
      return;
    }
    show({
      ...settled.value,
      items: settled.value.items.map((item) =>
        item.id === note.id ? { ...note, highlights: item.highlights } : item,
      ),
    });
  };

  const onCreated = (note: Note) => {
    if (page === 1 && !search && !loading && settled && 'value' in settled) {
      const current = settled.value;
      show({
        ...current,
        items: [note, ...current.items.filter((item) => item.id !== note.id)].slice(
          0,
          current.limit,
        ),
        total: current.total + 1,
      });
      return;
    }
    showPage(1);
    reload();
  };

  let content;
  if (!settled || (loading && 'error' in settled)) {
    content = <Loading>{t('list.loading')}</Loading>;
  } else if ('error' in settled) {
    content = (
      <LoadFailed
        message={(reason) => t('list.loadFailed', { reason })}
        error={settled.error}
        onRetry={reload}
      />
    );
  } else if (settled.value.total === 0 && settled.value.items.length === 0) {
    content = <p className="notes-empty">{emptyText(t, search, tag, sharedOnly)}</p>;
  } else {
    const { items, total, totalExact, limit } = settled.value;
    const pages = Math.max(1, Math.ceil(total / Math.max(1, limit)));
    const last = page >= pages && (totalExact || items.length < limit);
    const handlers = { api, onChanged, onDeleted: reload, onTag: showTag };
    const pinned = search ? [] : items.filter((item) => item.isPinned);
    const others = items.filter((item) => !pinned.includes(item));
    content = (
      <>
        {pinned.length > 0 ? (
          <section className="notes-group" aria-labelledby={`${headingId}-pinned`}>
            <h3 id={`${headingId}-pinned`}>{t('list.pinned')}</h3>
            <NoteList notes={pinned} {...handlers} />
          </section>
        ) : null}
        {pinned.length > 0 && others.length > 0 ? (
          <section className="notes-group" aria-labelledby={`${headingId}-others`}>
            <h3 id={`${headingId}-others`}>{t('list.others')}</h3>
            <NoteList notes={others} {...handlers} />
          </section>
        ) : null}
        {pinned.length === 0 ? <NoteList notes={items} {...handlers} /> : null}
        <nav className="notes-pagination" aria-label={t('list.pages.label')}>
          <button
            type="button"
            className="ui-button"
            onClick={() => showPage(page - 1)}
            disabled={loading || page <= 1}
          >
            {t('list.pages.previous')}
          </button>
          <span>
            {t(totalExact ? 'list.pages.pageOf' : 'list.pages.pageOfAtLeast', { page, pages })}
          </span>
          <button
            type="button"
            className="ui-button"
            onClick={() => showPage(page + 1)}
            disabled={loading || last}
          >
            {t('list.pages.next')}
          </button>
        </nav>
      </>
    );
  }

  const counted = settled && 'value' in settled ? settled.value : undefined;

  return (
    <>
      <h1 className="visually-hidden">{t('list.title')}</h1>
      <NoteForm create={api.notes.create} onCreated={onCreated} />
      <section className="notes-section" aria-labelledby={headingId} aria-busy={loading}>
        <div className="notes-heading">
          <h2 id={headingId}>{t('list.heading')}</h2>
          {counted ? (
            <p className="notes-total">{countLabel(t, counted.total, counted.totalExact)}</p>
          ) : null}
        </div>
        <SearchBox query={search} onSearch={showSearch} />
        {/* The list does not wait for the AI words. */}
        <Suspense fallback={null}>
          <MeaningSearch
            api={api}
            query={search}
            enabled={byMeaning}
            onToggle={(on) => setAddress({ meaning: on ? '1' : undefined }, true)}
          />
        </Suspense>
        <div className="notes-filters">
          <TagBar api={api} tag={tag} onTag={showTag} generation={generation} onRetagged={reload} />
          <label className="notes-shared-only">
            <input
              type="checkbox"
              checked={sharedShown}
              onChange={(event) => {
                showSharedAt(event.target.checked);
                showShared(event.target.checked);
              }}
            />{' '}
            {t('list.sharedOnly')}
          </label>
        </div>
        {tag ? (
          <p className="notes-filter">
            <Trans
              t={t}
              i18nKey="list.filteredByTag"
              values={{ tag }}
              components={{ strong: <strong /> }}
            />{' '}
            <button type="button" className="ui-button" onClick={() => showTag(undefined)}>
              {t('list.showAll')}
            </button>
          </p>
        ) : null}
        {content}
      </section>
    </>
  );
}
