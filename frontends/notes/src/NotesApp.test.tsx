import { AppError } from '@noted/api';
import type { LiveHub } from '@noted/ui';
import { createTestI18n, type createTestOffline } from '@noted/ui/testing';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reviewStore } from './review/store';
import {
  address,
  chineseNotesSets,
  createNotesTestI18n,
  fakeApi,
  makeNote,
  renderNotes,
} from './testing';

/** Chooses `item` from the actions menu of a note's card, as a person would. */
const chooseAction = (article: HTMLElement, item: string) => {
  fireEvent.click(within(article).getByRole('button', { name: /^Actions for / }));
  fireEvent.click(within(article).getByRole('menuitem', { name: item }));
};

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  reviewStore.reset();
});

describe('NotesApp', () => {
  it('lists the first notes as cards with their title, text, tags, when, and the total', async () => {
    const notes = Array.from({ length: 12 }, (_, i) =>
      makeNote({ title: `Idea ${i + 1}`, tags: i === 0 ? ['work', 'later'] : [] }),
    );
    const { api, list } = fakeApi(notes);

    renderNotes(api);

    expect(await screen.findByRole('heading', { name: 'Idea 1' })).toBeTruthy();
    expect(list).toHaveBeenCalledWith({ page: 1, limit: 10, pinnedFirst: true });
    expect(screen.getAllByRole('article')).toHaveLength(10);
    expect(screen.getByText('12 notes')).toBeTruthy();
    const first = screen.getByRole('article', { name: 'Idea 1' });
    expect(within(first).getByText(notes[0]?.note ?? '')).toBeTruthy();
    expect(within(first).getByRole('list', { name: 'Tags' }).textContent).toBe('#work#later');
    expect(within(first).getByText((_, element) => element?.tagName === 'TIME')).toBeTruthy();
  });

  it('shows notes created, changed and deleted in another tab or on another device', async () => {
    const first = makeNote({ title: 'Kept here' });
    const { api } = fakeApi([first]);
    const { shell } = renderNotes(api);
    await screen.findByRole('heading', { name: 'Kept here' });
    const live = shell.live as LiveHub;
    const other = makeNote({ title: 'Written on the phone' });
    act(() => live.emit({ type: 'noteUpdated', change: 'created', note: other }));
    expect(screen.getByRole('heading', { name: 'Written on the phone' })).toBeTruthy();
    expect(screen.getByText('2 notes')).toBeTruthy();
    const renamed = {
      ...other,
      title: 'Renamed on the laptop',
      updatedAt: new Date(Date.parse(other.updatedAt) + 1_000).toISOString(),
    };
    act(() => live.emit({ type: 'noteUpdated', change: 'updated', note: renamed }));
    expect(screen.getByRole('heading', { name: 'Renamed on the laptop' })).toBeTruthy();
    act(() => live.emit({ type: 'noteDeleted', noteId: first.id }));
    expect(screen.queryByRole('heading', { name: 'Kept here' })).toBeNull();
    expect(screen.getAllByRole('article')).toHaveLength(1);
  });

  it('says the list is the device copy offline, what waits to be sent, and what waits for a choice', async () => {
    const waiting = makeNote({ title: 'Written offline' });
    const held = makeNote({ title: 'Edited on two devices' });
    const { api } = fakeApi([waiting, held]);
    const { shell } = renderNotes(api);
    await screen.findByRole('heading', { name: 'Written offline' });
    const offline = shell.offline as ReturnType<typeof createTestOffline>;
    const change = (note: typeof waiting, state: 'waiting' | 'conflict') => ({
      noteId: note.id,
      kind: 'update' as const,
      title: note.title,
      state,
      since: note.updatedAt,
    });
    act(() =>
      offline.set({
        online: false,
        pending: [change(waiting, 'waiting'), change(held, 'conflict')],
      }),
    );
    expect(
      screen.getByText(/You are offline\. These are the notes kept on this device/),
    ).toBeTruthy();
    expect(screen.getByText(/1 change is waiting to be sent/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send now' })).toBeNull();
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText(/1 note was changed elsewhere/)).toBeTruthy();
    expect(
      within(alert).getByRole('link', { name: 'Edited on two devices' }).getAttribute('href'),
    ).toBe(`/notes/${held.id}`);
    const card = screen.getByRole('article', { name: 'Written offline' });
    expect(within(card).getByText('Not sent yet')).toBeTruthy();
    expect(
      within(screen.getByRole('article', { name: 'Edited on two devices' })).getByText('Conflict'),
    ).toBeTruthy();

    act(() => offline.set({ online: true }));
    expect(screen.queryByText(/You are offline/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Send now' }));
    expect(offline.sendNow).toHaveBeenCalled();
    act(() => offline.set({ pending: [] }));
    expect(screen.queryByText(/waiting to be sent/)).toBeNull();
    expect(within(card).queryByText('Not sent yet')).toBeNull();
  });

  it('marks Review as new when notes fall due while the app is open', async () => {
    const { api } = fakeApi([makeNote({ title: 'Anything' })]);
    const { shell } = renderNotes(api);
    await screen.findByRole('heading', { name: 'Anything' });
    const due = makeNote({ title: 'Spanish verbs' });
    act(() => (shell.live as LiveHub).emit({ type: 'noteReview', notes: [due] }));
    expect(reviewStore.getSnapshot().items.map((note) => note.title)).toEqual(['Spanish verbs']);
    expect(shell.setNavBadge).toHaveBeenLastCalledWith('/review', 'New');
  });

  it('loads the next notes below the first ones, and says when there are no more', async () => {
    const { api, list } = fakeApi(
      Array.from({ length: 12 }, (_, i) => makeNote({ title: `Idea ${i + 1}` })),
    );
    renderNotes(api);
    await screen.findByRole('heading', { name: 'Idea 1' });

    fireEvent.click(screen.getByRole('button', { name: 'Load more notes' }));

    expect(await screen.findByRole('heading', { name: 'Idea 11' })).toBeTruthy();
    expect(list).toHaveBeenLastCalledWith({ page: 2, limit: 10, pinnedFirst: true });
    expect(screen.getAllByRole('article')).toHaveLength(12);
    expect(screen.getByRole('heading', { name: 'Idea 1' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more notes' })).toBeNull();
    expect(screen.getByText('That is all: 12 notes.')).toBeTruthy();
  });

  it('invites the user to write a first note when there are none', async () => {
    const { api } = fakeApi();
    renderNotes(api);
    expect(await screen.findByText('No notes yet — write your first one')).toBeTruthy();
    expect(screen.getByText('0 notes')).toBeTruthy();
  });

  it('creates a note from the composer, #words as its tags, and shows it first', async () => {
    const { api, create } = fakeApi([makeNote({ title: 'Older note' })]);
    renderNotes(api);
    await screen.findByRole('heading', { name: 'Older note' });

    fireEvent.change(screen.getByLabelText('Title'), { target: { value: '  Groceries ' } });
    fireEvent.change(screen.getByLabelText('Note'), {
      target: { value: 'Milk and eggs #home #errands, for #Home' },
    });
    expect(screen.getByText('#errands')).toBeTruthy();
    fireEvent.keyDown(screen.getByLabelText('Note'), { key: 'Enter', ctrlKey: true });

    expect(await screen.findByRole('heading', { name: 'Groceries' })).toBeTruthy();
    expect(create).toHaveBeenCalledWith({
      title: 'Groceries',
      note: 'Milk and eggs #home #errands, for #Home',
      tags: ['home', 'errands'],
    });
    const titles = screen
      .getAllByRole('article')
      .map((article) => article.querySelector('h3')?.textContent);
    expect(titles).toEqual(['Groceries', 'Older note']);
    expect(screen.getByText('2 notes')).toBeTruthy();
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Note') as HTMLTextAreaElement).value).toBe('');
    expect(document.activeElement).toBe(screen.getByLabelText('Note'));
  });

  it('saves an image pasted into the composer with the new note', async () => {
    const { api, create } = fakeApi();
    const upload = vi.fn(async (noteId: string) => ({
      image: { url: `/api/notes/${noteId}/images/a.webp`, width: 4, height: 4, bytes: 4 },
      note: {
        ...makeNote({ id: noteId, title: 'Whiteboard' }),
        images: [`/api/notes/${noteId}/images/a.webp`],
      },
    }));
    const read = vi.fn(async () => new Blob(['x'], { type: 'image/webp' }));
    const withImages = { ...api, images: { ...api.images, upload, read } };
    renderNotes(withImages);
    await screen.findByText('No notes yet — write your first one');

    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Whiteboard' } });
    fireEvent.change(screen.getByLabelText('Note'), { target: { value: 'From the review' } });
    // A GIF is sent as it is (not compressed), so the test needs no canvas.
    const gif = new File([new Uint8Array([71, 73, 70, 56])], 'board.gif', { type: 'image/gif' });
    fireEvent.paste(screen.getByLabelText('Note'), { clipboardData: { files: [gif] } });
    expect(await screen.findByRole('img', { name: 'Note image 1' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));

    expect(await screen.findByRole('heading', { name: 'Whiteboard' })).toBeTruthy();
    expect(create).toHaveBeenCalledTimes(1);
    expect(upload).toHaveBeenCalledTimes(1);
    const created = await (create.mock.results[0]?.value as Promise<{ id: string }>);
    expect(upload).toHaveBeenCalledWith(created.id, gif, 'board.gif');
    expect(await screen.findByRole('button', { name: 'Open image 1 of Whiteboard' })).toBeTruthy();
  });

  it('shows a validation error from the API next to the form and keeps the input', async () => {
    const { api, create } = fakeApi();
    create.mockRejectedValueOnce(
      new AppError('VALIDATION_FAILED', 'A title is at most 500 characters'),
    );
    renderNotes(api);
    await screen.findByText('No notes yet — write your first one');

    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Tagged' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('A title is at most 500 characters');
    expect(screen.getByLabelText('Title').getAttribute('aria-describedby')).toBe(alert.id);
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Tagged');
    expect(screen.getByText('No notes yet — write your first one')).toBeTruthy();
  });

  it('does not send an empty note', async () => {
    const { api, create } = fakeApi();
    renderNotes(api);
    await screen.findByText('No notes yet — write your first one');

    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));

    expect((await screen.findByRole('alert')).textContent).toBe('A note needs a title or a body.');
    expect(create).not.toHaveBeenCalled();
  });

  it('shows the error message when the list cannot be loaded and fetches again on Retry', async () => {
    const { api, list } = fakeApi([makeNote({ title: 'Survivor' })]);
    list.mockRejectedValueOnce(new AppError('UNAVAILABLE', 'The notes service is unavailable'));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderNotes(api);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The notes service is unavailable');

    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));

    expect(await screen.findByRole('heading', { name: 'Survivor' })).toBeTruthy();
    expect(list).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('pins a note to the top of the list and unpins it', async () => {
    const { api } = fakeApi([makeNote({ title: 'Newest' }), makeNote({ title: 'Older' })]);
    renderNotes(api);
    const older = await screen.findByRole('article', { name: 'Older' });
    chooseAction(older, 'Pin');

    await vi.waitFor(
      () => expect(screen.getAllByRole('article')[0]?.textContent).toContain('Older'),
      { timeout: 5_000 },
    );
    const pinned = screen.getByRole('article', { name: 'Pinned Older' });
    expect(within(pinned).getByRole('img', { name: 'Pinned' })).toBeTruthy();
    chooseAction(pinned, 'Unpin');
    // Unpinned, it leaves the Pinned section: look it up again.
    await vi.waitFor(() => expect(screen.getByRole('article', { name: 'Older' })).toBeTruthy(), {
      timeout: 5_000,
    });
    expect(
      screen.getAllByRole('article').map((article) => article.querySelector('h3')?.textContent),
    ).toEqual(['Newest', 'Older']);
  });

  it('shares a note, once confirmed, with a copyable link and stops sharing', async () => {
    const { api } = fakeApi([makeNote({ title: 'Recipe' })]);
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderNotes(api);
    const item = await screen.findByRole('article', { name: 'Recipe' });
    chooseAction(item, 'Share');
    const confirm = await screen.findByRole('alertdialog', { name: 'Share this note?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.notes.share).not.toHaveBeenCalled();

    chooseAction(item, 'Share');
    fireEvent.click(await screen.findByRole('button', { name: 'Share note' }));

    const link = await within(item).findByLabelText('Anyone with this link can read the note');
    expect((link as HTMLInputElement).value).toBe(
      `${window.location.origin}/notes/s/AAAAAAAAAAAAAAAAAAAAAA`,
    );
    fireEvent.click(within(item).getByRole('button', { name: 'Copy link' }));
    await vi.waitFor(() =>
      expect(writeText).toHaveBeenCalledWith((link as HTMLInputElement).value),
    );
    expect(await within(item).findByRole('button', { name: 'Copied' })).toBeTruthy();

    expect(within(item).getByRole('button', { name: 'Shared' })).toBeTruthy();

    fireEvent.click(within(item).getByRole('button', { name: 'Stop sharing' }));
    await vi.waitFor(() =>
      expect(within(item).queryByLabelText('Anyone with this link can read the note')).toBeNull(),
    );
    expect(within(item).queryByRole('button', { name: 'Shared' })).toBeNull();
    fireEvent.click(within(item).getByRole('button', { name: /^Actions for / }));
    expect(within(item).getByRole('menuitem', { name: 'Share' })).toBeTruthy();
  });

  it('deletes a note only after confirming', async () => {
    const { api } = fakeApi([makeNote({ title: 'Keep' }), makeNote({ title: 'Drop' })]);
    renderNotes(api);
    const drop = await screen.findByRole('article', { name: 'Drop' });
    chooseAction(drop, 'Delete');
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this note?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.notes.remove).not.toHaveBeenCalled();

    chooseAction(drop, 'Delete');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete note' }));
    await vi.waitFor(() => expect(screen.queryByRole('article', { name: 'Drop' })).toBeNull());
    expect(screen.getByRole('article', { name: 'Keep' })).toBeTruthy();
    expect(api.notes.remove).toHaveBeenCalledTimes(1);
  });

  it('filters by a tag when the tag is clicked, and shows all again', async () => {
    const { api, list } = fakeApi([
      makeNote({ title: 'Work', tags: ['work'] }),
      makeNote({ title: 'Home', tags: ['home'] }),
    ]);
    renderNotes(api);
    const work = await screen.findByRole('article', { name: 'Work' });
    fireEvent.click(within(work).getByRole('button', { name: 'Show notes tagged work' }));

    await vi.waitFor(() => expect(screen.queryByRole('article', { name: 'Home' })).toBeNull());
    expect(list).toHaveBeenLastCalledWith({ page: 1, limit: 10, pinnedFirst: true, tag: 'work' });
    fireEvent.click(screen.getByRole('button', { name: 'Show all notes' }));
    expect(await screen.findByRole('article', { name: 'Home' })).toBeTruthy();
  });

  it('filters by a tag from the tag bar, with counts, and renames or deletes the tag', async () => {
    const { api, tags } = fakeApi([
      makeNote({ title: 'Report', tags: ['work'] }),
      makeNote({ title: 'Plan', tags: ['work', 'plans'] }),
      makeNote({ title: 'Garden', tags: ['home'] }),
    ]);
    renderNotes(api);
    const bar = await screen.findByRole('list', { name: 'Filter by tag' });
    expect(
      within(bar)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['#work 2', '#home 1', '#plans 1']);
    fireEvent.click(within(bar).getByRole('button', { name: /#work/ }));
    await vi.waitFor(() => expect(screen.queryByRole('article', { name: 'Garden' })).toBeNull());
    expect(address()).toBe('/?tag=work');
    expect(within(bar).getByRole('button', { name: /#work/ }).getAttribute('aria-pressed')).toBe(
      'true',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Rename tag' }));
    fireEvent.change(screen.getByLabelText('Rename #work to'), { target: { value: '#jobs' } });
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    await vi.waitFor(() => expect(address()).toBe('/?tag=jobs'));
    expect(tags.rename).toHaveBeenCalledWith('work', 'jobs');
    expect(await screen.findByRole('button', { name: /#jobs 2/ })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Delete tag' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete the tag #jobs?' });
    expect(confirm.textContent).toContain('Take #jobs off 2 notes?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete tag' }));
    await vi.waitFor(() => expect(address()).toBe('/'));
    expect(tags.remove).toHaveBeenCalledWith('jobs');
    expect(await screen.findByRole('article', { name: 'Garden' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /#jobs/ })).toBeNull();
  });

  it('shows only shared notes when asked, and pinned notes in their own section', async () => {
    const { api, list } = fakeApi([
      makeNote({ title: 'Public', publicId: 'BBBBBBBBBBBBBBBBBBBBBB' }),
      makeNote({ title: 'Private' }),
      makeNote({ title: 'Pinned one', isPinned: true }),
    ]);
    renderNotes(api);
    const pinned = await screen.findByRole('region', { name: 'Pinned' });
    expect(within(pinned).getByRole('article', { name: /Pinned one/ })).toBeTruthy();
    const others = screen.getByRole('region', { name: 'Other notes' });
    expect(within(others).getAllByRole('article')).toHaveLength(2);

    fireEvent.click(screen.getByRole('checkbox', { name: 'Shared only' }));
    await vi.waitFor(() => expect(screen.queryByRole('article', { name: 'Private' })).toBeNull());
    expect(address()).toBe('/?shared=1');
    expect(list).toHaveBeenLastCalledWith({
      page: 1,
      limit: 10,
      pinnedFirst: true,
      sharedOnly: true,
    });
    expect(screen.getByRole('article', { name: 'Public' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Pinned' })).toBeNull();
  });

  it('links each title to its page, which opens in place', async () => {
    const note = makeNote({ title: 'Trip plan', note: 'Pack light' });
    const { api } = fakeApi([note]);
    renderNotes(api);

    fireEvent.click(await screen.findByRole('link', { name: 'Trip plan' }));

    expect(((await screen.findByLabelText('Title')) as HTMLInputElement).value).toBe('Trip plan');
    expect(address()).toBe(`/notes/${note.id}`);
    expect((screen.getByLabelText('Note') as HTMLTextAreaElement).value).toBe('Pack light');
  });

  it("marks Review in the shell's navigation while new notes to review are unseen", async () => {
    const { api } = fakeApi();
    const { shell } = renderNotes(api);
    await screen.findByText('No notes yet — write your first one');
    expect(shell.setNavBadge).not.toHaveBeenCalledWith('/review', 'New');

    act(() => reviewStore.receive([makeNote({ title: 'Due' })]));
    expect(shell.setNavBadge).toHaveBeenLastCalledWith('/review', 'New');

    act(() => reviewStore.clearNew());
    expect(shell.setNavBadge).toHaveBeenLastCalledWith('/review', undefined);
  });

  it('searches as the user types, keeps the search in the address and marks the matches', async () => {
    const { api, list } = fakeApi([
      makeNote({ title: 'Groceries', note: 'Milk, eggs and bread' }),
      makeNote({ title: 'Milk run', note: 'Before noon' }),
      makeNote({ title: 'Taxes', note: 'File in April' }),
    ]);
    renderNotes(api);
    await screen.findByRole('heading', { name: 'Taxes' });

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search notes' }), {
      target: { value: 'milk' },
    });

    await vi.waitFor(() => expect(screen.queryByRole('heading', { name: 'Taxes' })).toBeNull());
    expect(list).toHaveBeenLastCalledWith({ search: 'milk', page: 1, limit: 10 });
    expect(list.mock.calls.filter(([query]) => query?.search)).toHaveLength(1);
    expect(address()).toBe('/?q=milk');
    const run = screen.getByRole('article', { name: 'Milk run' });
    expect(within(run).getByRole('heading').querySelector('mark')?.textContent).toBe('Milk');
    const groceries = screen.getByRole('article', { name: 'Groceries' });
    expect(groceries.querySelector('.note-card-excerpt mark')?.textContent).toBe('Milk');
    expect(groceries.querySelector('.note-card-excerpt')?.textContent).toBe('Milk, eggs and bread');
  });

  it('says when nothing matches, within the tag filter too', async () => {
    const { api, list } = fakeApi([makeNote({ title: 'Work plan', tags: ['work'] })]);
    renderNotes(api, '/?tag=work&q=holiday');

    expect(await screen.findByText('No notes tagged #work match “holiday”')).toBeTruthy();
    expect(list).toHaveBeenCalledWith({ search: 'holiday', tag: 'work', page: 1, limit: 10 });
    expect(
      (screen.getByRole('searchbox', { name: 'Search notes' }) as HTMLInputElement).value,
    ).toBe('holiday');

    fireEvent.click(screen.getByRole('button', { name: 'Show all notes' }));
    expect(await screen.findByText('No notes match “holiday”')).toBeTruthy();
    expect(address()).toBe('/?q=holiday');
  });

  it('shows markup in a found title or body as text, never as elements', async () => {
    const { api } = fakeApi([
      makeNote({
        title: '<img src=x onerror="alert(1)"> & <b>bold</b>',
        note: 'Say <script>alert("hi")</script> &amp; more',
      }),
    ]);
    renderNotes(api, '/?q=alert');

    const heading = await screen.findByRole('heading', { name: /onerror/ });
    expect(heading.textContent).toBe('<img src=x onerror="alert(1)"> & <b>bold</b>');
    expect(heading.querySelector('mark')?.textContent).toBe('alert');
    const excerpt = screen.getByRole('article').querySelector('.note-card-excerpt');
    expect(excerpt?.textContent).toBe('Say <script>alert("hi")</script> &amp; more');
    expect(document.querySelector('main img, article img, article script, article b')).toBeNull();
  });
});

describe('NotesApp in the language the user chose', () => {
  const twelveNotes = () =>
    Array.from({ length: 12 }, (_, i) =>
      makeNote({ title: `Idea ${i + 1}`, tags: i === 0 ? ['work'] : [], isPinned: i === 0 }),
    );

  it('shows the list in Chinese, dates written the Chinese way', async () => {
    const { api } = fakeApi(twelveNotes());
    renderNotes(api, '/', createNotesTestI18n(chineseNotesSets));

    const first = await screen.findByRole('article', { name: '已置顶 Idea 1' });
    expect(screen.getByRole('heading', { name: '我的笔记' })).toBeTruthy();
    expect(screen.getByText('12 条笔记')).toBeTruthy();
    expect(screen.getByRole('heading', { name: '其他笔记' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '添加笔记' })).toBeTruthy();
    expect(screen.getByRole('searchbox', { name: '搜索笔记' })).toBeTruthy();
    expect(within(first).getByRole('button', { name: '查看标签为 work 的笔记' })).toBeTruthy();
    fireEvent.click(within(first).getByRole('button', { name: '“Idea 1”的操作' }));
    expect(within(first).getByRole('menuitem', { name: '取消置顶' })).toBeTruthy();
    expect(first.querySelector('time')?.getAttribute('title')).toMatch(/2025年1月\d+日/);
    expect(first.querySelector('time')?.textContent).toMatch(/1月\d+日/);
  });

  it('asks in Chinese before deleting a note', async () => {
    const { api } = fakeApi([makeNote({ title: 'Drop me' })]);
    renderNotes(api, '/', createNotesTestI18n(chineseNotesSets));
    const note = await screen.findByRole('article', { name: 'Drop me' });

    fireEvent.click(within(note).getByRole('button', { name: '“Drop me”的操作' }));
    fireEvent.click(within(note).getByRole('menuitem', { name: '删除' }));

    const confirm = await screen.findByRole('alertdialog', { name: '删除这条笔记？' });
    expect(within(confirm).getByText('此操作无法撤销。')).toBeTruthy();
    expect(within(confirm).getByRole('button', { name: '删除笔记' })).toBeTruthy();
    expect(within(confirm).getByRole('button', { name: '取消' })).toBeTruthy();
  });

  it('falls back to English for a text not translated yet', async () => {
    const { heading: _heading, ...listWithoutHeading } = chineseNotesSets.note.list;
    const { api } = fakeApi(twelveNotes());
    renderNotes(
      api,
      '/',
      createNotesTestI18n({
        ...chineseNotesSets,
        note: { ...chineseNotesSets.note, list: listWithoutHeading },
      }),
    );

    expect(await screen.findByRole('heading', { name: 'Your notes' })).toBeTruthy();
    expect(screen.getByText('12 条笔记')).toBeTruthy();
    expect(screen.getByRole('button', { name: '添加笔记' })).toBeTruthy();
  });

  it('fetches its message set when the page has none yet, in English', async () => {
    const { api } = fakeApi([makeNote({ title: 'Loaded later' })]);
    await act(async () => {
      renderNotes(api, '/', createTestI18n());
    });

    expect(await screen.findByRole('heading', { name: 'Your notes' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Loaded later' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Note' })).toBeTruthy();
  });

  it('fetches its message set in Chinese and English when the page is in Chinese', async () => {
    const { api } = fakeApi();
    const i18n = createTestI18n({}, { locale: 'zh', sets: {} });
    await act(async () => {
      renderNotes(api, '/', i18n);
    });

    expect(await screen.findByText('还没有笔记——写下你的第一条吧')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: '正文' })).toBeTruthy();
    expect(i18n.hasResourceBundle('en', 'note')).toBe(true);
  });

  it('fetches the mind map set when the mind map is first opened', async () => {
    const { api } = fakeApi();
    const graph = vi.fn(async () => ({ nodes: [], edges: [], total: 0 }));
    const withGraph = { ...api, links: { ...api.links, graph } };
    await act(async () => {
      renderNotes(withGraph, '/mindlink', createTestI18n({}, { locale: 'zh', sets: {} }));
    });

    expect(await screen.findByRole('heading', { name: '思维导图' })).toBeTruthy();
    expect(await screen.findByText('还没有笔记')).toBeTruthy();
  });
});
