import type { Todo } from '@noted/api';
import { useEffect, useId, useState } from 'react';
import { Trans } from 'react-i18next';
import { Link } from '@noted/router';
import type { NotesApi } from '../api';
import { log } from '../log';
import { useErrorText, useNotesMessages } from '../messages';
import { errorCode } from '../text';
import './todos.css';
import { LoadFailed, Loading } from '../LoadStatus';

export interface TodosPageProps {
  api: Pick<NotesApi, 'todos'>;
}

type Filter = 'false' | 'true' | 'all';

const FILTERS = [
  { value: 'false', label: 'todos.filter.open' },
  { value: 'true', label: 'todos.filter.done' },
  { value: 'all', label: 'todos.filter.all' },
] as const satisfies readonly { value: Filter; label: string }[];

/** The most todos one answer holds (the API's maximum). */
const TODOS_LIMIT = 200;

type Settled = { key: string; items: Todo[] } | { key: string; error: unknown };

interface NoteTodos {
  noteId: string;
  title: string;
  todos: Todo[];
}

const todoKey = (todo: Pick<Todo, 'noteId' | 'index'>) => `${todo.noteId}:${todo.index}`;

/** Todos grouped by note, the notes in the order their first todo comes in. */
const groupByNote = (items: Todo[]): NoteTodos[] => {
  const groups = new Map<string, NoteTodos>();
  for (const todo of items) {
    const group = groups.get(todo.noteId);
    if (group) group.todos.push(todo);
    else groups.set(todo.noteId, { noteId: todo.noteId, title: todo.noteTitle, todos: [todo] });
  }
  return [...groups.values()];
};

function EmptyTodos({ filter }: { filter: Filter }) {
  const { t } = useNotesMessages('note');
  if (filter === 'true') return <p className="todos-empty">{t('todos.empty.done')}</p>;
  return (
    <p className="todos-empty">
      <Trans
        t={t}
        i18nKey={filter === 'false' ? 'todos.empty.open' : 'todos.empty.all'}
        components={{ code: <code /> }}
      />
    </p>
  );
}

/** The checkboxes of the recent notes, to tick off without opening each note. */
export function TodosPage({ api }: TodosPageProps) {
  const { t } = useNotesMessages('note');
  const errorText = useErrorText();
  const headingId = useId();
  const [filter, setFilter] = useState<Filter>('false');
  const [generation, setGeneration] = useState(0);
  const [settled, setSettled] = useState<Settled>();
  /** Checkboxes ticked or unticked here whose answer has not come yet: key → done. */
  const [pending, setPending] = useState<ReadonlyMap<string, boolean>>(new Map());
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<string>();
  const key = `${filter}:${generation}`;
  const loading = settled?.key !== key;

  useEffect(() => {
    let active = true;
    api.todos.recent({ limit: TODOS_LIMIT, done: filter }).then(
      (list) => {
        if (active) setSettled({ key, items: list.items });
      },
      (failure: unknown) => {
        if (!active) return;
        log.error('Loading todos failed.', failure);
        setSettled({ key, error: failure });
      },
    );
    return () => {
      active = false;
    };
  }, [api, filter, key]);

  const reload = () => setGeneration((n) => n + 1);

  const changeFilter = (next: Filter) => {
    setFilter(next);
    setNotice(undefined);
    setError(undefined);
  };

  const settle = (todo: Todo) =>
    setPending((current) => {
      const next = new Map(current);
      next.delete(todoKey(todo));
      return next;
    });

  const toggle = async (todo: Todo, done: boolean) => {
    const id = todoKey(todo);
    if (pending.has(id)) return;
    setPending((current) => new Map(current).set(id, done));
    setNotice(undefined);
    setError(undefined);
    try {
      const saved = await api.todos.set(todo.noteId, todo.index, done, todo.text);
      setSettled((current) =>
        current && 'items' in current
          ? {
              ...current,
              items: current.items.map((item) => (todoKey(item) === id ? saved : item)),
            }
          : current,
      );
    } catch (failure) {
      if (errorCode(failure) === 'CONFLICT') {
        log.warn('A todo changed in its note meanwhile; reloading.', failure);
        setNotice(t('todos.conflict'));
        reload();
      } else {
        log.error('Saving a todo failed.', failure);
        setError(t('todos.saveFailed', { text: todo.text, reason: errorText(failure) }));
      }
    } finally {
      settle(todo);
    }
  };

  let content;
  if (!settled || (loading && 'error' in settled)) {
    content = <Loading>{t('todos.loading')}</Loading>;
  } else if ('error' in settled) {
    content = (
      <LoadFailed
        message={(reason) => t('todos.loadFailed', { reason })}
        error={settled.error}
        onRetry={reload}
      />
    );
  } else if (settled.items.length === 0) {
    content = <EmptyTodos filter={filter} />;
  } else {
    content = (
      <div className="todos-groups">
        {groupByNote(settled.items).map((group) => (
          <section
            key={group.noteId}
            className="todos-note"
            aria-labelledby={`todos-${group.noteId}`}
          >
            <h2 id={`todos-${group.noteId}`}>
              <Link to={`/notes/${group.noteId}`}>{group.title || t('common.untitled')}</Link>
            </h2>
            <ul className="todos-list">
              {group.todos.map((todo) => {
                const id = todoKey(todo);
                const done = pending.get(id) ?? todo.done;
                return (
                  <li key={id} className={done ? 'todos-item todos-item-done' : 'todos-item'}>
                    <label>
                      <input
                        type="checkbox"
                        checked={done}
                        aria-busy={pending.has(id)}
                        onChange={(event) => void toggle(todo, event.target.checked)}
                      />
                      <span>{todo.text || t('todos.emptyTodo')}</span>
                    </label>
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
      </div>
    );
  }

  return (
    <section
      className="todos-page"
      aria-labelledby={headingId}
      aria-busy={loading && settled !== undefined}
    >
      <div className="todos-head">
        <h1 id={headingId}>{t('todos.heading')}</h1>
        <fieldset className="todos-filter">
          <legend>{t('todos.show')}</legend>
          {FILTERS.map(({ value, label }) => (
            <label key={value}>
              <input
                type="radio"
                name={`${headingId}-filter`}
                value={value}
                checked={filter === value}
                onChange={() => changeFilter(value)}
              />
              <span>{t(label)}</span>
            </label>
          ))}
        </fieldset>
      </div>
      <p className="todos-status" role="status">
        {notice}
      </p>
      {error ? (
        <p className="todos-error" role="alert">
          {error}
        </p>
      ) : null}
      {content}
    </section>
  );
}
