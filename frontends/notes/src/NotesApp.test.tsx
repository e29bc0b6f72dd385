import type { Note, NoteCreate, NoteListQuery, NotePage } from '@noted/api';
import { AppError } from '@noted/api';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NotesApi } from './api';
import { NotesApp } from './NotesApp';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

let sequence = 0;
const makeNote = (overrides: Partial<Note> = {}): Note => {
  sequence += 1;
  const at = new Date(Date.UTC(2025, 0, 1, 12, sequence)).toISOString();
  return {
    id: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    title: `Note ${sequence}`,
    note: `Body of note ${sequence}`,
    tags: [],
    images: [],
    isPinned: false,
    publicId: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
};

/** An in-memory stand-in for the ApiClient calls the notes module makes. */
const fakeApi = (initial: Note[] = []) => {
  let notes = [...initial];
  const ordered = (pinnedFirst: boolean) =>
    pinnedFirst ? [...notes.filter((n) => n.isPinned), ...notes.filter((n) => !n.isPinned)] : notes;
  const list = vi.fn(
    async ({
      page = 1,
      limit = 10,
      pinnedFirst = false,
      tag,
    }: NoteListQuery = {}): Promise<NotePage> => {
      const matching = ordered(pinnedFirst).filter((n) => !tag || n.tags.includes(tag));
      return {
        items: matching.slice((page - 1) * limit, page * limit),
        total: matching.length,
        page,
        limit,
      };
    },
  );
  const create = vi.fn(async (input: NoteCreate): Promise<Note> => {
    const note = makeNote({
      title: input.title ?? '',
      note: input.note ?? '',
      tags: input.tags ?? [],
    });
    notes.unshift(note);
    return note;
  });
  const change = (id: string, patch: Partial<Note>) => {
    notes = notes.map((n) => (n.id === id ? { ...n, ...patch } : n));
    const changed = notes.find((n) => n.id === id);
    if (!changed) throw new Error('no such note');
    return changed;
  };
  const api: NotesApi = {
    notes: {
      list,
      create,
      pin: vi.fn(async (id: string) => change(id, { isPinned: true })),
      unpin: vi.fn(async (id: string) => change(id, { isPinned: false })),
      share: vi.fn(async (id: string) => {
        const publicId = 'AAAAAAAAAAAAAAAAAAAAAA';
        change(id, { publicId });
        return { publicId, url: `http://localhost/notes/s/${publicId}` };
      }),
      unshare: vi.fn(async (id: string) => change(id, { publicId: null })),
      remove: vi.fn(async (id: string) => {
        notes = notes.filter((n) => n.id !== id);
      }),
    },
  };
  return { api, list, create };
};

describe('NotesApp', () => {
  it('lists the notes of the first page with their title, excerpt, tags and the total', async () => {
    const notes = Array.from({ length: 12 }, (_, i) =>
      makeNote({ title: `Idea ${i + 1}`, tags: i === 0 ? ['work', 'later'] : [] }),
    );
    const { api, list } = fakeApi(notes);

    render(<NotesApp api={api} />);

    expect(await screen.findByRole('heading', { name: 'Idea 1' })).toBeTruthy();
    expect(list).toHaveBeenCalledWith({ page: 1, limit: 10, pinnedFirst: true });
    expect(screen.getAllByRole('article')).toHaveLength(10);
    expect(screen.getByText('12 notes')).toBeTruthy();
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    const first = screen.getByRole('article', { name: 'Idea 1' });
    expect(within(first).getByText(notes[0]?.note ?? '')).toBeTruthy();
    expect(within(first).getByRole('list', { name: 'Tags' }).textContent).toBe('#work#later');
    expect(within(first).getByText((_, element) => element?.tagName === 'TIME')).toBeTruthy();
  });

  it('moves to the next page and back', async () => {
    const { api, list } = fakeApi(
      Array.from({ length: 12 }, (_, i) => makeNote({ title: `Idea ${i + 1}` })),
    );
    render(<NotesApp api={api} />);
    await screen.findByRole('heading', { name: 'Idea 1' });
    expect(screen.getByRole('button', { name: 'Previous' }).hasAttribute('disabled')).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));

    expect(await screen.findByRole('heading', { name: 'Idea 11' })).toBeTruthy();
    expect(list).toHaveBeenLastCalledWith({ page: 2, limit: 10, pinnedFirst: true });
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByRole('heading', { name: 'Idea 1' })).toBeTruthy();
  });

  it('invites the user to write a first note when there are none', async () => {
    const { api } = fakeApi();
    render(<NotesApp api={api} />);
    expect(await screen.findByText('No notes yet — write your first one')).toBeTruthy();
    expect(screen.getByText('0 notes')).toBeTruthy();
  });

  it('creates a note from the form and shows it first', async () => {
    const { api, create } = fakeApi([makeNote({ title: 'Older note' })]);
    render(<NotesApp api={api} />);
    await screen.findByRole('heading', { name: 'Older note' });

    fireEvent.change(screen.getByLabelText('Title'), { target: { value: '  Groceries ' } });
    fireEvent.change(screen.getByLabelText('Note'), { target: { value: 'Milk and eggs' } });
    fireEvent.change(screen.getByLabelText('Tags'), { target: { value: 'home, errands #home' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));

    expect(await screen.findByRole('heading', { name: 'Groceries' })).toBeTruthy();
    expect(create).toHaveBeenCalledWith({
      title: 'Groceries',
      note: 'Milk and eggs',
      tags: ['home', 'errands'],
    });
    const titles = screen
      .getAllByRole('article')
      .map((article) => article.querySelector('h3')?.textContent);
    expect(titles).toEqual(['Groceries', 'Older note']);
    expect(screen.getByText('2 notes')).toBeTruthy();
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('');
  });

  it('shows a validation error from the API next to the form and keeps the input', async () => {
    const { api, create } = fakeApi();
    create.mockRejectedValueOnce(
      new AppError('VALIDATION_FAILED', 'A tag is at most 64 characters'),
    );
    render(<NotesApp api={api} />);
    await screen.findByText('No notes yet — write your first one');

    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Tagged' } });
    fireEvent.change(screen.getByLabelText('Tags'), { target: { value: 'x'.repeat(65) } });
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('A tag is at most 64 characters');
    expect(screen.getByLabelText('Title').getAttribute('aria-describedby')).toBe(alert.id);
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Tagged');
    expect(screen.getByText('No notes yet — write your first one')).toBeTruthy();
  });

  it('does not send an empty note', async () => {
    const { api, create } = fakeApi();
    render(<NotesApp api={api} />);
    await screen.findByText('No notes yet — write your first one');

    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));

    expect((await screen.findByRole('alert')).textContent).toBe('A note needs a title or a body.');
    expect(create).not.toHaveBeenCalled();
  });

  it('shows the error message when the list cannot be loaded and fetches again on Retry', async () => {
    const { api, list } = fakeApi([makeNote({ title: 'Survivor' })]);
    list.mockRejectedValueOnce(new AppError('UNAVAILABLE', 'The notes service is unavailable'));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(<NotesApp api={api} />);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The notes service is unavailable');

    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));

    expect(await screen.findByRole('heading', { name: 'Survivor' })).toBeTruthy();
    expect(list).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('pins a note to the top of the list and unpins it', async () => {
    const { api } = fakeApi([makeNote({ title: 'Newest' }), makeNote({ title: 'Older' })]);
    render(<NotesApp api={api} />);
    const older = await screen.findByRole('article', { name: 'Older' });
    fireEvent.click(within(older).getByRole('button', { name: 'Pin' }));

    await vi.waitFor(() =>
      expect(screen.getAllByRole('article')[0]?.textContent).toContain('Older'),
    );
    const pinned = screen.getByRole('article', { name: /Older/ });
    expect(within(pinned).getByText('Pinned')).toBeTruthy();
    fireEvent.click(within(pinned).getByRole('button', { name: 'Unpin' }));
    expect(
      await within(screen.getByRole('article', { name: /Older/ })).findByRole('button', {
        name: 'Pin',
      }),
    ).toBeTruthy();
  });

  it('shares a note with a copyable link and stops sharing', async () => {
    const { api } = fakeApi([makeNote({ title: 'Recipe' })]);
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<NotesApp api={api} />);
    const item = await screen.findByRole('article', { name: 'Recipe' });
    fireEvent.click(within(item).getByRole('button', { name: 'Share' }));

    const link = await within(item).findByLabelText('Anyone with this link can read the note');
    expect((link as HTMLInputElement).value).toBe(
      `${window.location.origin}/notes/s/AAAAAAAAAAAAAAAAAAAAAA`,
    );
    fireEvent.click(within(item).getByRole('button', { name: 'Copy link' }));
    await vi.waitFor(() =>
      expect(writeText).toHaveBeenCalledWith((link as HTMLInputElement).value),
    );
    expect(await within(item).findByRole('button', { name: 'Copied' })).toBeTruthy();

    fireEvent.click(within(item).getByRole('button', { name: 'Stop sharing' }));
    expect(await within(item).findByRole('button', { name: 'Share' })).toBeTruthy();
    expect(within(item).queryByLabelText('Anyone with this link can read the note')).toBeNull();
  });

  it('deletes a note only after confirming', async () => {
    const { api } = fakeApi([makeNote({ title: 'Keep' }), makeNote({ title: 'Drop' })]);
    render(<NotesApp api={api} />);
    const drop = await screen.findByRole('article', { name: 'Drop' });
    fireEvent.click(within(drop).getByRole('button', { name: 'Delete' }));
    const confirm = within(drop).getByRole('alertdialog', { name: 'Delete this note?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.notes.remove).not.toHaveBeenCalled();

    fireEvent.click(within(drop).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(drop).getByRole('button', { name: 'Delete note' }));
    await vi.waitFor(() => expect(screen.queryByRole('article', { name: 'Drop' })).toBeNull());
    expect(screen.getByRole('article', { name: 'Keep' })).toBeTruthy();
    expect(api.notes.remove).toHaveBeenCalledTimes(1);
  });

  it('filters by a tag when the tag is clicked, and shows all again', async () => {
    const { api, list } = fakeApi([
      makeNote({ title: 'Work', tags: ['work'] }),
      makeNote({ title: 'Home', tags: ['home'] }),
    ]);
    render(<NotesApp api={api} />);
    const work = await screen.findByRole('article', { name: 'Work' });
    fireEvent.click(within(work).getByRole('button', { name: 'Show notes tagged work' }));

    await vi.waitFor(() => expect(screen.queryByRole('article', { name: 'Home' })).toBeNull());
    expect(list).toHaveBeenLastCalledWith({ page: 1, limit: 10, pinnedFirst: true, tag: 'work' });
    fireEvent.click(screen.getByRole('button', { name: 'Show all notes' }));
    expect(await screen.findByRole('article', { name: 'Home' })).toBeTruthy();
  });
});
