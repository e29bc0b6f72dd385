import { AppError, type Note } from '@noted/api';
import { currentNoteKey, type LiveHub, type PendingChange } from '@noted/ui';
import type { createTestOffline } from '@noted/ui/testing';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { address, fakeApi, makeNote, renderNotes } from '../testing';

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;
const status = () => screen.getByRole('status').textContent;
/** Lets fake time pass and the promises it releases settle. */
const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

/** Opens `note` (and the other notes) at /notes/:id and waits for the page. */
const open = async (
  note = makeNote({ title: 'Plan', note: 'First line', tags: ['work'] }),
  others: Note[] = [],
) => {
  const fake = fakeApi([note, ...others]);
  renderNotes(fake.api, `/notes/${note.id}`);
  await screen.findByLabelText('Title');
  await screen.findByRole('heading', { name: 'Backlinks' });
  return { ...fake, note };
};

describe('NotePage', () => {
  it('opens the note with its title, body, tags and backlinks', async () => {
    const { get, note } = await open();
    expect(get).toHaveBeenCalledWith(note.id);
    expect(field('Title').value).toBe('Plan');
    expect(field('Note').value).toBe('First line');
    expect(within(screen.getByRole('list', { name: 'Tags' })).getByText('#work')).toBeTruthy();
    expect(await screen.findByText('No note links here yet.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Plan');
  });

  it('offers the tags a capture suggests: one taken with a click, the rest left for good', async () => {
    const note = makeNote({
      title: 'Quarterly report',
      note: 'Revenue and the platform team.',
      tags: ['work'],
      capture: {
        kind: 'pdf',
        origin: 'upload',
        status: 'ready',
        step: null,
        attempt: 1,
        startedAt: '2026-01-01T00:00:00.000Z',
        suggestedTags: ['revenue', 'platform-team', 'work'],
      },
    });
    const { update, capture } = await open(note);
    const suggested = screen.getByRole('group', { name: 'Suggested tags' });
    // A tag the note has is not offered.
    expect(within(suggested).queryByRole('button', { name: 'Add the tag work' })).toBeNull();
    expect(update).not.toHaveBeenCalled();

    fireEvent.click(within(suggested).getByRole('button', { name: 'Add the tag revenue' }));
    const tags = screen.getByRole('list', { name: 'Tags' });
    expect(within(tags).getByText('#revenue')).toBeTruthy();
    await vi.waitFor(() =>
      expect(update).toHaveBeenCalledWith(note.id, {
        tags: ['work', 'revenue'],
        baseUpdatedAt: expect.any(String),
      }),
    );
    expect(within(suggested).queryByRole('button', { name: 'Add the tag revenue' })).toBeNull();

    fireEvent.click(within(suggested).getByRole('button', { name: 'Leave these suggestions' }));
    await vi.waitFor(() =>
      expect(screen.queryByRole('group', { name: 'Suggested tags' })).toBeNull(),
    );
    expect(capture.dismissTags).toHaveBeenCalledExactlyOnceWith(note.id);
    expect(within(tags).queryByText('#platform-team')).toBeNull();
  });

  it('shows a note handed over by the page that opened it without loading it again', async () => {
    const note = makeNote({ title: 'Handed over', note: 'Already here' });
    const { api, get } = fakeApi([note]);
    sessionStorage.setItem(currentNoteKey, JSON.stringify({ id: note.id, note }));
    renderNotes(api, `/notes/${note.id}`);
    expect(field('Title').value).toBe('Handed over');
    expect(field('Note').value).toBe('Already here');
    expect(get).not.toHaveBeenCalled();
    expect(sessionStorage.getItem(currentNoteKey)).toBeNull();
  });

  it('previews a backlinking note in the note link popup', async () => {
    const target = makeNote({ title: 'Target', note: 'Linked to' });
    const source = makeNote({ title: 'Source', note: 'See [[Target]]' });
    const fake = fakeApi([target, source]);
    const { shell } = renderNotes(fake.api, `/notes/${target.id}`);
    const backlinks = await screen.findByRole('region', { name: 'Backlinks' });
    fireEvent.click(await within(backlinks).findByRole('button', { name: 'Preview Source' }));
    expect(shell.showNoteLink).toHaveBeenCalledWith(source.id);
  });

  it('says when the note does not exist, with the way back to the list', async () => {
    const { api } = fakeApi([]);
    renderNotes(api, '/notes/00000000-0000-4000-8000-999999999999');

    expect(
      await screen.findByRole('heading', { name: 'This note does not exist or was deleted' }),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Back to your notes' }));
    expect(await screen.findByText('No notes yet — write your first one')).toBeTruthy();
    expect(address()).toBe('/');
  });

  it('shows a failure to load with Retry', async () => {
    const note = makeNote({ title: 'Back soon' });
    const { api, get } = fakeApi([note]);
    get.mockRejectedValueOnce(new AppError('UNAVAILABLE', 'The notes service is unavailable'));
    renderNotes(api, `/notes/${note.id}`);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The notes service is unavailable');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));

    expect(((await screen.findByLabelText('Title')) as HTMLInputElement).value).toBe('Back soon');
  });

  it('saves 800 ms after typing stops, only what changed, and says so', async () => {
    const { update, note, stored } = await open();
    vi.useFakeTimers();

    fireEvent.change(field('Title'), { target: { value: 'Plan B' } });
    await pass(400);
    fireEvent.change(field('Note'), { target: { value: 'First line\nSecond line' } });
    expect(status()).toBe('Saving…');
    await pass(799);
    expect(update).not.toHaveBeenCalled();

    await pass(1);
    expect(update).toHaveBeenCalledExactlyOnceWith(note.id, {
      title: 'Plan B',
      note: 'First line\nSecond line',
      baseUpdatedAt: expect.any(String),
    });
    expect(status()).toBe('Saved');
    expect(stored(note.id)?.note).toBe('First line\nSecond line');
  });

  it('does not overwrite what another tab saved: it says so, and can keep this version', async () => {
    const { update, note, stored, changeElsewhere } = await open();
    changeElsewhere(note.id, { note: 'Written in another tab' });

    fireEvent.change(field('Note'), { target: { value: 'Written here' } });
    fireEvent.blur(field('Note'));
    expect(await screen.findByText(/changed elsewhere since you opened it/)).toBeTruthy();
    expect(stored(note.id)?.note).toBe('Written in another tab');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Load the other version' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Keep my version' }));
    await vi.waitFor(() => expect(stored(note.id)?.note).toBe('Written here'));
    expect(update).toHaveBeenLastCalledWith(note.id, { note: 'Written here' });
    expect(await screen.findByText('Saved')).toBeTruthy();
  });

  describe('changed in another tab or on another device (live messages)', () => {
    const later = (note: Note, changes: Partial<Note>): Note => ({
      ...note,
      ...changes,
      updatedAt: new Date(Date.parse(note.updatedAt) + 60_000).toISOString(),
    });
    const openLive = async () => {
      const note = makeNote({ title: 'Plan', note: 'First line', tags: ['work'] });
      const fake = fakeApi([note]);
      const { shell } = renderNotes(fake.api, `/notes/${note.id}`);
      await screen.findByLabelText('Title');
      // Loaded, and its device copy written: a version arriving meanwhile is judged after that.
      await vi.waitFor(() => expect(field('Note').value).toBe('First line'));
      await vi.waitFor(() => expect(shell.offline.pending()).toEqual([]));
      // The DOM shows the note before React has run the page's effects, its subscription to
      // live messages among them: on a loaded machine a message emitted in that gap was lost.
      await act(async () => {});
      const live = shell.live as LiveHub;
      return {
        ...fake,
        note,
        emit: (message: Parameters<LiveHub['emit']>[0]) => act(() => live.emit(message)),
      };
    };

    it('takes a newer version in when nothing typed here waits to be saved', async () => {
      const { note, emit, update } = await openLive();
      emit({
        type: 'noteUpdated',
        change: 'updated',
        note: later(note, { note: 'From the phone', isPinned: true }),
      });
      // Taken in at once, or once a write of this page that was on its way has landed.
      await vi.waitFor(() => expect(field('Note').value).toBe('From the phone'));
      expect(screen.getByRole('button', { name: 'Unpin' })).toBeTruthy();
      expect(screen.queryByRole('alert')).toBeNull();
      // An older or the same version changes nothing.
      emit({ type: 'noteUpdated', change: 'updated', note: { ...note, note: 'Stale' } });
      expect(field('Note').value).toBe('From the phone');
      expect(update).not.toHaveBeenCalled();
    });

    it('offers the choice when the note changed elsewhere while typing here', async () => {
      const { note, emit, update } = await openLive();
      vi.useFakeTimers();
      fireEvent.change(field('Note'), { target: { value: 'Typed here' } });
      emit({ type: 'noteUpdated', change: 'updated', note: later(note, { note: 'Typed there' }) });
      const alert = screen.getByRole('alert');
      expect(within(alert).getByText('Changed elsewhere')).toBeTruthy();
      expect(field('Note').value).toBe('Typed here');

      fireEvent.click(within(alert).getByRole('button', { name: 'Take the other version' }));
      expect(field('Note').value).toBe('Typed there');
      expect(screen.queryByRole('alert')).toBeNull();
      await pass(2_000);
      expect(update).not.toHaveBeenCalled();
    });

    it('keeps what was typed here when asked, overwriting the other version', async () => {
      const { note, emit, update } = await openLive();
      vi.useFakeTimers();
      fireEvent.change(field('Note'), { target: { value: 'Typed here' } });
      emit({ type: 'noteUpdated', change: 'updated', note: later(note, { note: 'Typed there' }) });
      fireEvent.click(screen.getByRole('button', { name: 'Keep my version' }));
      await pass(0);
      expect(update).toHaveBeenLastCalledWith(note.id, { note: 'Typed here' });
    });

    it("takes its own save's echo quietly", async () => {
      const { note, emit, update } = await openLive();
      vi.useFakeTimers();
      fireEvent.change(field('Note'), { target: { value: 'Typed here' } });
      await pass(1_000);
      expect(update).toHaveBeenCalledTimes(1);
      const saved = await update.mock.results[0]!.value;
      emit({ type: 'noteUpdated', change: 'updated', note: saved });
      expect(screen.queryByRole('alert')).toBeNull();
      expect(field('Note').value).toBe('Typed here');
      expect(note.id).toBe(saved.id);
    });

    it('judges a version that comes while a save is on its way once the save has landed', async () => {
      const { note, emit, update } = await openLive();
      const echo = later(note, { note: 'Typed here' });
      let land: (saved: Note) => void = () => undefined;
      update.mockImplementationOnce(() => new Promise<Note>((resolve) => (land = resolve)));
      vi.useFakeTimers();
      fireEvent.change(field('Note'), { target: { value: 'Typed here' } });
      await pass(1_000);
      fireEvent.change(field('Note'), { target: { value: 'Typed here, and more' } });
      // The server announces the save before its answer arrives.
      emit({ type: 'noteUpdated', change: 'updated', note: echo });
      expect(screen.queryByRole('alert')).toBeNull();
      await act(async () => land(echo));
      await pass(0);
      expect(screen.queryByRole('alert')).toBeNull();
      expect(field('Note').value).toBe('Typed here, and more');
    });

    it('says when the note was deleted elsewhere and keeps the text as a new note', async () => {
      const { note, emit, create } = await openLive();
      fireEvent.change(field('Note'), { target: { value: 'Not lost' } });
      emit({ type: 'noteDeleted', noteId: note.id });
      const alert = screen.getByRole('alert');
      expect(within(alert).getByText('Deleted elsewhere')).toBeTruthy();
      fireEvent.click(within(alert).getByRole('button', { name: 'Keep this text as a new note' }));
      await vi.waitFor(() =>
        expect(create).toHaveBeenCalledWith({ title: 'Plan', note: 'Not lost', tags: ['work'] }),
      );
    });
  });

  describe('kept on this device (offline)', () => {
    const openKept = async () => {
      const note = makeNote({ title: 'Plan', note: 'First line' });
      const fake = fakeApi([note]);
      const { shell } = renderNotes(fake.api, `/notes/${note.id}`);
      await screen.findByLabelText('Title');
      const offline = shell.offline as ReturnType<typeof createTestOffline>;
      const pending = (state: PendingChange['state'], extra: Partial<PendingChange> = {}) =>
        act(() =>
          offline.set({
            pending: [
              {
                noteId: note.id,
                kind: 'update',
                title: 'Plan',
                state,
                since: note.updatedAt,
                ...extra,
              },
            ],
          }),
        );
      return { ...fake, note, offline, pending, live: shell.live as LiveHub };
    };

    it('says a save is kept on this device while it waits to be sent', async () => {
      const { pending } = await openKept();
      fireEvent.change(field('Note'), { target: { value: 'Written offline' } });
      fireEvent.blur(field('Note'));
      await vi.waitFor(() => expect(status()).toBe('Saved'));
      pending('waiting');
      await vi.waitFor(() => expect(status()).toBe('Saved on this device'));
      expect(screen.getByRole('status').title).toBe('Sent when the connection is back');
    });

    it('offers keeping mine or taking theirs when an offline change met another', async () => {
      const { note, offline, pending } = await openKept();
      pending('conflict', { code: 'CONFLICT' });
      const alert = await screen.findByRole('alert');
      expect(within(alert).getByText('Changed elsewhere while you were offline')).toBeTruthy();
      expect(status()).toBe('Not saved');

      fireEvent.click(within(alert).getByRole('button', { name: 'Keep my version' }));
      expect(offline.keepMine).toHaveBeenCalledWith(note.id);

      vi.mocked(offline.discard).mockResolvedValueOnce({
        ...note,
        note: 'Saved on the phone',
        updatedAt: new Date(Date.parse(note.updatedAt) + 60_000).toISOString(),
      });
      fireEvent.click(within(alert).getByRole('button', { name: 'Take the other version' }));
      await vi.waitFor(() => expect(field('Note').value).toBe('Saved on the phone'));
      expect(offline.discard).toHaveBeenCalledWith(note.id);
    });

    it('says when an offline change was refused, with the reason, and tries it again', async () => {
      const { note, offline, pending } = await openKept();
      pending('refused', {
        code: 'NOTES_LEFT_NOT_ENOUGH',
        message: 'Notes left not enough this month',
      });
      const alert = await screen.findByRole('alert');
      expect(within(alert).getByText(/Notes left not enough this month/)).toBeTruthy();
      fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
      expect(offline.keepMine).toHaveBeenCalledWith(note.id);
    });

    it('holds pushed versions while its own changes wait, then goes on from the last', async () => {
      const { note, pending, update, live, offline } = await openKept();
      const version = (minutes: number, text: string) => ({
        ...note,
        note: text,
        updatedAt: new Date(Date.parse(note.updatedAt) + minutes * 60_000).toISOString(),
      });
      // Kept on the device: answered as the note stands there, on the version it was made on.
      update.mockImplementationOnce(async (_id, patch) => ({ ...note, ...patch }) as typeof note);
      fireEvent.change(field('Note'), { target: { value: 'Typed offline' } });
      fireEvent.blur(field('Note'));
      await vi.waitFor(() => expect(status()).toBe('Saved'));
      pending('sending');
      // The echo of an earlier change of this device's queue: not what is typed here now.
      act(() => live.emit({ type: 'noteUpdated', change: 'updated', note: version(1, 'Earlier') }));
      expect(field('Note').value).toBe('Typed offline');
      expect(screen.queryByRole('alert')).toBeNull();
      const last = version(2, 'Typed offline');
      act(() => live.emit({ type: 'noteUpdated', change: 'updated', note: last }));
      act(() => offline.set({ pending: [] }));
      expect(field('Note').value).toBe('Typed offline');
      expect(screen.queryByRole('alert')).toBeNull();
      // Edits now go on from the version the last change made.
      fireEvent.change(field('Note'), { target: { value: 'More' } });
      fireEvent.blur(field('Note'));
      await vi.waitFor(() =>
        expect(update).toHaveBeenLastCalledWith(note.id, {
          note: 'More',
          baseUpdatedAt: last.updatedAt,
        }),
      );
    });
  });

  it('saves at once when the editor loses focus', async () => {
    const { update, note } = await open();
    vi.useFakeTimers();

    fireEvent.change(field('Note'), { target: { value: 'Quick edit' } });
    fireEvent.blur(field('Note'));
    await pass(0);

    expect(update).toHaveBeenCalledExactlyOnceWith(note.id, {
      note: 'Quick edit',
      baseUpdatedAt: expect.any(String),
    });
    expect(status()).toBe('Saved');
  });

  it('keeps the text when a save fails, says why, and saves it on Retry', async () => {
    const { update, note } = await open();
    update.mockRejectedValueOnce(new AppError('UNAVAILABLE', 'The notes service is unavailable'));
    vi.useFakeTimers();

    fireEvent.change(field('Note'), { target: { value: 'Words worth keeping' } });
    await pass(800);

    expect(status()).toBe('Not saved: The notes service is unavailable');
    expect(field('Note').value).toBe('Words worth keeping');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await pass(0);

    expect(update).toHaveBeenCalledTimes(2);
    expect(update).toHaveBeenLastCalledWith(note.id, {
      note: 'Words worth keeping',
      baseUpdatedAt: expect.any(String),
    });
    expect(status()).toBe('Saved');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('saves what was typed when the page is left', async () => {
    const { update, note } = await open();

    fireEvent.change(field('Note'), { target: { value: 'Typed, then away' } });
    fireEvent.click(screen.getByRole('link', { name: 'All notes' }));

    await vi.waitFor(() => expect(address()).toBe('/'));
    expect(update).toHaveBeenCalledExactlyOnceWith(note.id, {
      note: 'Typed, then away',
      baseUpdatedAt: expect.any(String),
    });
  });

  it('adds tags on Enter or comma, removes them, and shows the list of a tag', async () => {
    const { update, note } = await open();

    fireEvent.change(field('Add tag'), { target: { value: 'idea' } });
    fireEvent.keyDown(field('Add tag'), { key: 'Enter' });
    await vi.waitFor(() =>
      expect(update).toHaveBeenLastCalledWith(note.id, {
        tags: ['work', 'idea'],
        baseUpdatedAt: expect.any(String),
      }),
    );
    expect(field('Add tag').value).toBe('');

    fireEvent.change(field('Add tag'), { target: { value: '#later,' } });
    await vi.waitFor(() =>
      expect(update).toHaveBeenLastCalledWith(note.id, {
        tags: ['work', 'idea', 'later'],
        baseUpdatedAt: expect.any(String),
      }),
    );
    expect(
      within(screen.getByRole('list', { name: 'Tags' }))
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['#work', '#idea', '#later']);

    fireEvent.click(screen.getByRole('button', { name: 'Remove tag work' }));
    await vi.waitFor(() =>
      expect(update).toHaveBeenLastCalledWith(note.id, {
        tags: ['idea', 'later'],
        baseUpdatedAt: expect.any(String),
      }),
    );
    expect(await screen.findByText('Saved')).toBeTruthy();

    fireEvent.click(screen.getByRole('link', { name: 'Show notes tagged idea' }));
    await vi.waitFor(() => expect(address()).toBe('/?tag=idea'));
  });

  it('refuses a tag longer than 64 characters', async () => {
    const { update } = await open();
    fireEvent.change(field('Add tag'), { target: { value: 'x'.repeat(65) } });
    fireEvent.keyDown(field('Add tag'), { key: 'Enter' });

    expect(screen.getByRole('alert').textContent).toBe('A tag is at most 64 characters.');
    expect(update).not.toHaveBeenCalled();
  });

  it('links and unlinks notes in the Links dialog, which closes with Escape', async () => {
    const trip = makeNote({ title: 'Trip plan', note: 'Pack' });
    const budget = makeNote({ title: 'Budget', note: 'Numbers' });
    const note = makeNote({ title: 'Plan', note: 'See [[budget]]' });
    const { addLink, removeLink } = await open(note, [trip, budget]);
    const opener = screen.getByRole('button', { name: 'Links' });
    opener.focus();

    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Links of this note' });
    expect(within(dialog).getByRole('link', { name: 'Budget' })).toBeTruthy();
    expect(within(dialog).getByText('wiki link')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Remove link to Budget' })).toBeNull();

    fireEvent.change(within(dialog).getByLabelText('Find a note to link'), {
      target: { value: 'trip' },
    });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Link to Trip plan' }));

    await vi.waitFor(() => expect(addLink).toHaveBeenCalledWith(note.id, trip.id));
    const remove = await within(dialog).findByRole('button', { name: 'Remove link to Trip plan' });
    expect(within(dialog).getByText('Linked')).toBeTruthy();
    fireEvent.click(remove);
    await vi.waitFor(() => expect(removeLink).toHaveBeenCalledWith(note.id, trip.id));
    await vi.waitFor(() =>
      expect(within(dialog).queryByRole('link', { name: 'Trip plan' })).toBeNull(),
    );

    fireEvent.keyDown(within(dialog).getByLabelText('Find a note to link'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('says when no note matches in the Links dialog, and closes with Close', async () => {
    await open();
    fireEvent.click(screen.getByRole('button', { name: 'Links' }));
    const dialog = screen.getByRole('dialog', { name: 'Links of this note' });
    expect(within(dialog).getByText('This note links to no other note yet.')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('Find a note to link'), {
      target: { value: 'zebra' },
    });

    expect(await within(dialog).findByText('No notes match “zebra”')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('lists the notes that link here under Backlinks', async () => {
    const note = makeNote({ title: 'Plan' });
    const referrer = makeNote({ title: 'Weekly review', note: 'Look at [[plan]]' });
    await open(note, [referrer]);

    const backlinks = screen.getByRole('heading', { name: 'Backlinks' }).parentElement;
    if (!backlinks) throw new Error('no Backlinks section');
    const link = await within(backlinks).findByRole('link', { name: 'Weekly review' });
    expect(link.getAttribute('href')).toBe(`/notes/${referrer.id}`);
  });

  it('previews the Markdown; a ticked checkbox edits the body, which is then saved', async () => {
    const trip = makeNote({ title: 'Trip plan' });
    const note = makeNote({
      title: 'Plan',
      note: '# Today\n\n- [ ] milk\n- [x] eggs\n\nSee [[trip plan|the trip]] and [[Nowhere]].\n\n<b>raw</b>',
    });
    const { update } = await open(note, [trip]);

    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));

    expect(screen.getByRole('heading', { name: 'Today' })).toBeTruthy();
    expect(screen.getByText('<b>raw</b>')).toBeTruthy();
    expect((await screen.findByRole('link', { name: 'the trip' })).getAttribute('href')).toBe(
      `/notes/${trip.id}`,
    );
    expect(screen.getByText('Nowhere').getAttribute('title')).toBe('No note is titled “Nowhere”');

    const milk = screen.getByRole('checkbox', { name: 'milk' }) as HTMLInputElement;
    expect(milk.checked).toBe(false);
    expect((screen.getByRole('checkbox', { name: 'eggs' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(milk);

    expect((screen.getByRole('checkbox', { name: 'milk' }) as HTMLInputElement).checked).toBe(true);
    expect(field('Note').value).toContain('- [x] milk\n- [x] eggs');
    await vi.waitFor(() =>
      expect(update).toHaveBeenCalledWith(note.id, {
        note: expect.stringContaining('- [x] milk\n- [x] eggs'),
        baseUpdatedAt: expect.any(String),
      }),
    );
  });

  it('deletes the note after confirming and goes back to the list', async () => {
    const { api, note } = await open();

    fireEvent.click(screen.getByRole('button', { name: `Actions for ${note.title}` }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete note' }));

    await vi.waitFor(() => expect(address()).toBe('/'));
    expect(api.notes.remove).toHaveBeenCalledWith(note.id);
    expect(await screen.findByText('No notes yet — write your first one')).toBeTruthy();
  });

  it('pins and shares the note with the same controls as the list', async () => {
    await open();
    fireEvent.click(screen.getByRole('button', { name: 'Pin' }));
    expect(await screen.findByRole('button', { name: 'Unpin' })).toBeTruthy();
    expect(screen.getByText('Pinned')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Share note' }));
    const link = await screen.findByLabelText('Anyone with this link can read the note');
    expect((link as HTMLInputElement).value).toMatch(/\/notes\/s\/A{22}$/);
    fireEvent.click(screen.getByRole('button', { name: 'Stop sharing' }));
    expect(await screen.findByRole('button', { name: 'Share' })).toBeTruthy();
  });
});
