import type { Note, NotePage } from '@noted/api';
import { useEffect, useId, useState } from 'react';
import type { NotesApi } from './api';
import { log } from './log';
import { NoteForm } from './NoteForm';
import { NoteList } from './NoteList';
import { errorMessage } from './text';
import './notes.css';

export const PAGE_SIZE = 10;

/** Props of the module exposed as './NotesApp'; the shell passes its ApiClient. */
export interface NotesAppProps {
  api: NotesApi;
}

type Settled = { key: string; page: NotePage } | { key: string; error: unknown };

const countLabel = (total: number) => `${total} ${total === 1 ? 'note' : 'notes'}`;

export function NotesApp({ api }: NotesAppProps) {
  const headingId = useId();
  const [page, setPage] = useState(1);
  const [tag, setTag] = useState<string>();
  const [generation, setGeneration] = useState(0);
  const [settled, setSettled] = useState<Settled>();
  const key = `${page}:${tag ?? ''}:${generation}`;
  const loading = settled?.key !== key;

  useEffect(() => {
    let active = true;
    api.notes.list({ page, limit: PAGE_SIZE, pinnedFirst: true, ...(tag ? { tag } : {}) }).then(
      (result) => {
        if (active) setSettled({ key, page: result });
      },
      (error: unknown) => {
        if (!active) return;
        log.error('Loading notes failed.', error);
        setSettled({ key, error });
      },
    );
    return () => {
      active = false;
    };
  }, [api, page, tag, key]);

  const reload = () => setGeneration((n) => n + 1);

  const showTag = (next: string | undefined) => {
    setTag(next);
    setPage(1);
  };

  const onChanged = (note: Note) => {
    if (!settled || !('page' in settled)) return;
    if (settled.page.items.find((item) => item.id === note.id)?.isPinned !== note.isPinned) {
      reload();
      return;
    }
    setSettled({
      key: settled.key,
      page: {
        ...settled.page,
        items: settled.page.items.map((item) => (item.id === note.id ? note : item)),
      },
    });
  };

  const onCreated = (note: Note) => {
    if (page === 1 && !loading && settled && 'page' in settled) {
      const current = settled.page;
      setSettled({
        key,
        page: {
          ...current,
          items: [note, ...current.items.filter((item) => item.id !== note.id)].slice(
            0,
            current.limit,
          ),
          total: current.total + 1,
        },
      });
      return;
    }
    setPage(1);
    reload();
  };

  let content;
  if (!settled || (loading && 'error' in settled)) {
    content = (
      <p className="notes-status" role="status">
        Loading notes…
      </p>
    );
  } else if ('error' in settled) {
    content = (
      <div className="notes-error" role="alert">
        <p>Your notes could not be loaded: {errorMessage(settled.error)}</p>
        <button type="button" className="notes-button" onClick={reload}>
          Retry
        </button>
      </div>
    );
  } else if (settled.page.total === 0 && settled.page.items.length === 0) {
    content = (
      <p className="notes-empty">
        {tag ? `No notes are tagged #${tag}` : 'No notes yet — write your first one'}
      </p>
    );
  } else {
    const { items, total, limit } = settled.page;
    const pages = Math.max(1, Math.ceil(total / Math.max(1, limit)));
    content = (
      <>
        <NoteList
          notes={items}
          api={api}
          onChanged={onChanged}
          onDeleted={reload}
          onTag={(next) => showTag(next)}
        />
        <nav className="notes-pagination" aria-label="Pages of notes">
          <button
            type="button"
            className="notes-button"
            onClick={() => setPage((n) => Math.max(1, n - 1))}
            disabled={loading || page <= 1}
          >
            Previous
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button
            type="button"
            className="notes-button"
            onClick={() => setPage((n) => n + 1)}
            disabled={loading || page >= pages}
          >
            Next
          </button>
        </nav>
      </>
    );
  }

  const total = settled && 'page' in settled ? settled.page.total : undefined;

  return (
    <div className="notes-app">
      <NoteForm create={api.notes.create} onCreated={onCreated} />
      <section className="notes-section" aria-labelledby={headingId} aria-busy={loading}>
        <div className="notes-heading">
          <h2 id={headingId}>Your notes</h2>
          {total !== undefined ? <p className="notes-total">{countLabel(total)}</p> : null}
        </div>
        {tag ? (
          <p className="notes-filter">
            Showing notes tagged <strong>#{tag}</strong>{' '}
            <button type="button" className="notes-button" onClick={() => showTag(undefined)}>
              Show all notes
            </button>
          </p>
        ) : null}
        {content}
      </section>
    </div>
  );
}

export default NotesApp;
