import type { Todo } from '@noted/api';
import {
  ArrowUpRightIcon,
  Callout,
  CheckIcon,
  EmptyState,
  FileTextIcon,
  ListTodoIcon,
  PageHeader,
  PencilIcon,
  buttonClass,
} from '@noted/ui';
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
  const title =
    filter === 'true'
      ? t('todos.empty.done')
      : filter === 'false'
        ? t('todos.empty.open')
        : t('todos.empty.all');
  return (
    <EmptyState
      icon={filter === 'true' ? CheckIcon : ListTodoIcon}
      title={title}
      action={
        filter === 'true' ? undefined : (
          <Link to="/" className={buttonClass({ variant: 'primary' })}>
            <PencilIcon className="ui-icon" aria-hidden="true" />
            {t('todos.empty.write')}
          </Link>
        )
      }
    >
      {filter === 'true' ? (
        t('todos.empty.doneHint')
      ) : (
        <Trans t={t} i18nKey="todos.empty.hint" components={{ code: <code /> }} />
      )}
    </EmptyState>
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
    content = (
      <Loading blocks={2} lines={3}>
        {t('todos.loading')}
      </Loading>
    );
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
        {groupByNote(settled.items).map((group) => {
          const title = group.title || t('common.untitled');
          const groupId = `todos-${group.noteId}`;
          return (
            <section key={group.noteId} className="todos-note ui-card" aria-labelledby={groupId}>
              <header className="todos-note-head">
                <FileTextIcon className="ui-icon todos-note-icon" aria-hidden="true" />
                <h2 id={groupId} className="todos-note-title">
                  <Link to={`/notes/${group.noteId}`}>
                    {title}
                    <ArrowUpRightIcon className="ui-icon todos-note-arrow" aria-hidden="true" />
                  </Link>
                </h2>
                <span className="ui-badge">{t('todos.count', { count: group.todos.length })}</span>
              </header>
              <ul className="todos-list">
                {group.todos.map((todo) => {
                  const id = todoKey(todo);
                  const done = pending.get(id) ?? todo.done;
                  return (
                    <li key={id} className="todos-item" data-done={done || undefined}>
                      <label>
                        <span className="todos-box">
                          <input
                            type="checkbox"
                            checked={done}
                            aria-busy={pending.has(id)}
                            onChange={(event) => void toggle(todo, event.target.checked)}
                          />
                          <CheckIcon className="todos-tick" aria-hidden="true" />
                        </span>
                        <span className="todos-text">{todo.text || t('todos.emptyTodo')}</span>
                      </label>
                    </li>
                  );
                })}
              </ul>
            </section>
          );
        })}
      </div>
    );
  }

  return (
    <section
      className="todos-page"
      aria-labelledby={headingId}
      aria-busy={loading && settled !== undefined}
    >
      <PageHeader
        titleId={headingId}
        title={t('todos.heading')}
        description={t('todos.description')}
        actions={
          <fieldset className="ui-segmented todos-filter">
            <legend className="visually-hidden">{t('todos.show')}</legend>
            {FILTERS.map(({ value, label }) => (
              <label key={value} className="ui-segmented-option">
                <input
                  type="radio"
                  name={`${headingId}-filter`}
                  value={value}
                  checked={filter === value}
                  onChange={() => changeFilter(value)}
                />
                {t(label)}
              </label>
            ))}
          </fieldset>
        }
      />
      <div role="status" className="todos-status">
        {notice ? <Callout tone="info">{notice}</Callout> : null}
      </div>
      {error ? (
        <Callout
          tone="danger"
          role="alert"
          onDismiss={() => setError(undefined)}
          dismissLabel={t('common.dismiss')}
        >
          {error}
        </Callout>
      ) : null}
      {content}
    </section>
  );
}
