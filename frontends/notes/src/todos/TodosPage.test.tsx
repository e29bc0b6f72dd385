import type { Todo, TodoRecentQuery } from '@noted/api';
import { AppError } from '@noted/api';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useParams } from '@noted/router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestShell, TestShell } from '@noted/ui/testing';
import type { NotesApi } from '../api';
import { createNotesTestI18n, listed } from '../testing';
import { TodosPage } from './TodosPage';

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const GROCERIES = '00000000-0000-4000-8000-000000000001';
const TRIP = '00000000-0000-4000-8000-000000000002';

const todo = (noteId: string, noteTitle: string, index: number, text: string, done = false) =>
  ({
    noteId,
    noteTitle,
    index,
    line: index,
    text,
    done,
    noteUpdatedAt: '2026-11-20T10:00:00.000Z',
  }) satisfies Todo;

/** The todos calls over an in-memory set of todos. */
const fakeTodos = (initial: Todo[]) => {
  let todos = [...initial];
  const todosApi: NotesApi['todos'] = {
    recent: vi.fn(async ({ done = 'false' }: TodoRecentQuery = {}) =>
      listed(todos.filter((t) => done === 'all' || String(t.done) === done)),
    ),
    set: vi.fn(async (noteId: string, index: number, done: boolean) => {
      const found = todos.find((t) => t.noteId === noteId && t.index === index);
      if (!found) throw new AppError('NOT_FOUND', 'No such todo');
      const saved = { ...found, done };
      todos = todos.map((t) => (t === found ? saved : t));
      return saved;
    }),
  };
  return {
    todos: todosApi,
    replace: (next: Todo[]) => {
      todos = next;
    },
  };
};

function NotePage() {
  return <p>Note page {useParams().id}</p>;
}

const renderPage = (api: Pick<NotesApi, 'todos'>, i18n = createNotesTestI18n()) =>
  render(
    <TestShell shell={createTestShell(i18n)}>
      <MemoryRouter initialEntries={['/todos']}>
        <Routes>
          <Route path="/todos" element={<TodosPage api={api} />} />
          <Route path="/notes/:id" element={<NotePage />} />
          <Route path="/" element={<p>The list</p>} />
        </Routes>
      </MemoryRouter>
    </TestShell>,
  );

const checkbox = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;

describe('TodosPage', () => {
  it('lists the open todos grouped by note, each note linking to its page', async () => {
    const api = fakeTodos([
      todo(GROCERIES, 'Groceries', 0, 'Milk'),
      todo(TRIP, '', 0, 'Book the train'),
      todo(GROCERIES, 'Groceries', 1, 'Bread'),
      todo(GROCERIES, 'Groceries', 2, 'Eggs', true),
    ]);
    renderPage(api);
    expect(screen.getByText('Loading todos…')).toBeTruthy();

    const groceries = await screen.findByRole('region', { name: 'Groceries' });
    expect(
      within(groceries)
        .getAllByRole('checkbox')
        .map((box) => box.closest('label')?.textContent),
    ).toEqual(['Milk', 'Bread']);
    expect(api.todos.recent).toHaveBeenCalledWith({ limit: 200, done: 'false' });
    const untitled = screen.getByRole('region', { name: 'Untitled' });
    expect(within(untitled).getByRole('checkbox', { name: 'Book the train' })).toBeTruthy();

    fireEvent.click(screen.getByRole('link', { name: 'Groceries' }));
    expect(screen.getByText(`Note page ${GROCERIES}`)).toBeTruthy();
  });

  it('filters to done or all todos', async () => {
    const api = fakeTodos([
      todo(GROCERIES, 'Groceries', 0, 'Milk'),
      todo(GROCERIES, 'Groceries', 1, 'Eggs', true),
    ]);
    renderPage(api);
    await screen.findByRole('checkbox', { name: 'Milk' });

    fireEvent.click(screen.getByRole('radio', { name: 'Done' }));
    await screen.findByRole('checkbox', { name: 'Eggs' });
    expect(checkbox('Eggs').checked).toBe(true);
    expect(screen.queryByRole('checkbox', { name: 'Milk' })).toBeNull();

    fireEvent.click(screen.getByRole('radio', { name: 'All' }));
    await screen.findByRole('checkbox', { name: 'Milk' });
    expect(screen.getAllByRole('checkbox')).toHaveLength(2);
    expect(api.todos.recent).toHaveBeenLastCalledWith({ limit: 200, done: 'all' });
  });

  it('ticks a todo at once and saves it with the text that was shown', async () => {
    const api = fakeTodos([todo(GROCERIES, 'Groceries', 3, 'Milk')]);
    let answer: (() => void) | undefined;
    const set = api.todos.set;
    api.todos.set = vi.fn(
      (...args: Parameters<typeof set>) =>
        new Promise<Todo>((resolve, reject) => {
          answer = () => set(...args).then(resolve, reject);
        }),
    );
    renderPage(api);
    await screen.findByRole('checkbox', { name: 'Milk' });

    fireEvent.click(checkbox('Milk'));
    expect(checkbox('Milk').checked).toBe(true);
    expect(api.todos.set).toHaveBeenCalledWith(GROCERIES, 3, true, 'Milk');
    await act(async () => answer?.());
    expect(checkbox('Milk').checked).toBe(true);
  });

  it('puts the checkbox back when saving fails', async () => {
    const api = fakeTodos([todo(GROCERIES, 'Groceries', 0, 'Milk')]);
    vi.mocked(api.todos.set).mockRejectedValueOnce(new AppError('UNAVAILABLE', 'Try later'));
    renderPage(api);
    await screen.findByRole('checkbox', { name: 'Milk' });

    fireEvent.click(checkbox('Milk'));
    expect((await screen.findByRole('alert')).textContent).toBe(
      '“Milk” could not be saved: Try later',
    );
    expect(checkbox('Milk').checked).toBe(false);
  });

  it('reloads the list when the note changed meanwhile, and says so', async () => {
    const api = fakeTodos([todo(GROCERIES, 'Groceries', 0, 'Milk')]);
    vi.mocked(api.todos.set).mockImplementationOnce(async () => {
      api.replace([todo(GROCERIES, 'Groceries', 0, 'Oat milk')]);
      throw new AppError('CONFLICT', 'The todo changed');
    });
    renderPage(api);
    await screen.findByRole('checkbox', { name: 'Milk' });

    fireEvent.click(checkbox('Milk'));
    expect(await screen.findByRole('checkbox', { name: 'Oat milk' })).toBeTruthy();
    expect(checkbox('Oat milk').checked).toBe(false);
    expect(screen.getByText('This note changed meanwhile; the list was refreshed')).toBeTruthy();
    expect(api.todos.recent).toHaveBeenCalledTimes(2);
  });

  it('says when there are no open todos, how to add one, and offers to write a note', async () => {
    renderPage(fakeTodos([]));
    expect(await screen.findByRole('heading', { name: 'No open todos' })).toBeTruthy();
    expect(screen.getByText(/in a note and it shows up here/).textContent).toBe(
      'Write - [ ] something in a note and it shows up here.',
    );
    fireEvent.click(screen.getByRole('link', { name: 'Write a note' }));
    expect(screen.getByText('The list')).toBeTruthy();
  });

  it('shows a failed load with a retry', async () => {
    const api = fakeTodos([todo(GROCERIES, 'Groceries', 0, 'Milk')]);
    vi.mocked(api.todos.recent).mockRejectedValueOnce(new AppError('INTERNAL', 'Boom'));
    renderPage(api);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Your todos could not be loaded: Boom',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Milk' })).toBeTruthy());
  });
});
