import { AppError, type Note, type NoteCapture } from '@noted/api';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, localAiSettings, makeNote, renderNotes } from '../testing';
import { useCapturePolling } from './useCapturePolling';

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:http://localhost/kept');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Lets fake time pass and the promises it releases settle. */
const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

const capture = (fields: Partial<NoteCapture> = {}): NoteCapture => ({
  kind: 'image',
  origin: 'upload',
  status: 'processing',
  step: 'queued',
  attempt: 1,
  startedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
});

const captured = (fields: Partial<NoteCapture> = {}, note: Partial<Note> = {}) =>
  makeNote({ title: '', note: '', capture: capture(fields), ...note });

const card = (name: string | RegExp) => screen.getByRole('article', { name });

describe('useCapturePolling', () => {
  function Poll({
    api,
    note,
    onUpdate,
  }: {
    api: Parameters<typeof useCapturePolling>[0];
    note: Note;
    onUpdate: (note: Note) => void;
  }) {
    useCapturePolling(api, note, onUpdate);
    return null;
  }

  it('asks every 2 s, every 5 s after a minute, hands over changes only, and stops when done', async () => {
    vi.useFakeTimers();
    let stored = captured({ step: 'reading' });
    const get = vi.fn(async () => stored);
    const onUpdate = vi.fn();
    const api = { notes: { get } } as never;
    const { rerender, unmount } = render(<Poll api={api} note={stored} onUpdate={onUpdate} />);

    await pass(1_999);
    expect(get).not.toHaveBeenCalled();
    await pass(1);
    expect(get).toHaveBeenCalledExactlyOnceWith(stored.id);
    expect(onUpdate).not.toHaveBeenCalled();

    await pass(58_000);
    expect(get).toHaveBeenCalledTimes(30);
    // A minute in: every 5 s.
    await pass(4_999);
    expect(get).toHaveBeenCalledTimes(30);
    await pass(1);
    expect(get).toHaveBeenCalledTimes(31);

    stored = { ...stored, capture: capture({ step: 'writing' }) };
    await pass(5_000);
    expect(onUpdate).toHaveBeenLastCalledWith(stored);
    rerender(<Poll api={api} note={stored} onUpdate={onUpdate} />);

    stored = { ...stored, title: 'Receipt', capture: capture({ status: 'ready', step: null }) };
    await pass(5_000);
    expect(onUpdate).toHaveBeenLastCalledWith(stored);
    rerender(<Poll api={api} note={stored} onUpdate={onUpdate} />);
    const calls = get.mock.calls.length;
    await pass(60_000);
    expect(get).toHaveBeenCalledTimes(calls);
    unmount();
  });

  it('stops asking when the component goes away', async () => {
    vi.useFakeTimers();
    const note = captured();
    const get = vi.fn(async () => note);
    const { unmount } = render(
      <Poll api={{ notes: { get } } as never} note={note} onUpdate={vi.fn()} />,
    );
    await pass(2_000);
    unmount();
    await pass(30_000);
    expect(get).toHaveBeenCalledTimes(1);
  });
});

describe('a captured note in the list', () => {
  it('shows the step while it is read, follows it, and shows the note filled in', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const note = captured({
      kind: 'link',
      origin: 'url',
      step: 'fetching',
      url: 'https://example.com/a',
    });
    const fake = fakeApi([note, makeNote({ title: 'Older note' })]);
    renderNotes(fake.api);

    expect(await screen.findByText('Fetching the page…')).toBeTruthy();
    fake.changeElsewhere(note.id, {
      capture: capture({ kind: 'link', origin: 'url', step: 'writing' }),
    });
    await pass(2_000);
    expect(await screen.findByText('Writing the note…')).toBeTruthy();
    expect(screen.queryByText('Fetching the page…')).toBeNull();

    fake.changeElsewhere(note.id, {
      title: 'Quiet places',
      note: 'Libraries are the last quiet places.',
      tags: ['cities'],
      capture: capture({ kind: 'link', origin: 'url', status: 'ready', step: null }),
    });
    await pass(2_000);
    const filled = await screen.findByRole('article', { name: 'Quiet places' });
    expect(await within(filled).findByText('Libraries are the last quiet places.')).toBeTruthy();
    expect(within(filled).getByRole('button', { name: 'Show notes tagged cities' })).toBeTruthy();
    expect(screen.queryByText('Writing the note…')).toBeNull();
    const asked = fake.get.mock.calls.length;
    await pass(10_000);
    expect(fake.get).toHaveBeenCalledTimes(asked);
  });

  it('offers Retry on a recording waiting for a speech-to-text model the server now has', async () => {
    const note = captured(
      { kind: 'audio', origin: 'recording', status: 'waiting', step: null },
      { title: 'Voice note' },
    );
    const settings = localAiSettings();
    const fake = fakeApi([note], {
      aiSettings: { features: { ...settings.features, transcription: 'model' } },
    });
    renderNotes(fake.api);
    const item = await screen.findByRole('article', { name: 'Voice note' });
    expect(
      within(item).getByText('Transcription needs a speech-to-text model; the audio is kept'),
    ).toBeTruthy();

    fireEvent.click(await within(item).findByRole('button', { name: 'Retry' }));

    expect(await within(card('Voice note')).findByText('Waiting in the queue…')).toBeTruthy();
    expect(fake.capture.retry).toHaveBeenCalledWith(note.id);
  });

  it('says a recording stays without a transcript where the server has no model, without a Retry that would only wait again', async () => {
    const note = captured(
      { kind: 'audio', origin: 'recording', status: 'waiting', step: null },
      { title: 'Voice note' },
    );
    const fake = fakeApi([note]);
    renderNotes(fake.api);
    const item = await screen.findByRole('article', { name: 'Voice note' });
    expect(
      await within(item).findByText(
        'This server has no speech-to-text model, so the audio is kept without a transcript: listen to it and write the note yourself. It is transcribed once a model is set up.',
      ),
    ).toBeTruthy();
    expect(within(item).queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(fake.capture.retry).not.toHaveBeenCalled();
  });
});

describe('a captured note on its page', () => {
  it('is read-only while it is read, polls, and opens in the editor once filled in', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const note = captured(
      { kind: 'audio', origin: 'recording', step: 'transcribing' },
      { title: 'Voice note' },
    );
    const fake = fakeApi([note]);
    renderNotes(fake.api, `/notes/${note.id}`);

    expect(await screen.findByText('Transcribing…')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Voice note' })).toBeTruthy();
    expect(screen.getByText('You can edit the note once its text has been read.')).toBeTruthy();
    expect(screen.getByText('The text appears here when it has been read.')).toBeTruthy();
    // No editor to type into: nothing typed can be overwritten by the text when it comes.
    expect(screen.queryByLabelText('Note')).toBeNull();

    fake.changeElsewhere(note.id, {
      title: 'Groceries',
      note: 'Milk, eggs and bread.',
      capture: capture({ kind: 'audio', origin: 'recording', status: 'ready', step: null }),
    });
    await pass(2_000);

    const body = (await screen.findByLabelText('Note')) as HTMLTextAreaElement;
    expect(body.value).toBe('Milk, eggs and bread.');
    expect((screen.getByLabelText('Title') as HTMLTextAreaElement).value).toBe('Groceries');
    expect(screen.queryByText('Transcribing…')).toBeNull();
  });

  it('says why a capture failed, and reads it again on Retry', async () => {
    const note = captured(
      {
        status: 'failed',
        step: null,
        error: { code: 'NO_TEXT_FOUND', message: 'No text was found in the image' },
      },
      { title: 'Whiteboard' },
    );
    const fake = fakeApi([note]);
    renderNotes(fake.api, `/notes/${note.id}`);

    expect(await screen.findByText('Capture failed: No text was found in the image')).toBeTruthy();
    // A failed note can be written in meanwhile.
    expect(screen.getByLabelText('Note')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));

    expect(await screen.findByText('Waiting in the queue…')).toBeTruthy();
    expect(fake.capture.retry).toHaveBeenCalledExactlyOnceWith(note.id);
    expect(screen.queryByLabelText('Note')).toBeNull();
  });

  it('says when Retry is refused', async () => {
    const note = captured({ status: 'failed', step: null }, { title: 'Whiteboard' });
    const fake = fakeApi([note]);
    fake.capture.retry.mockRejectedValueOnce(
      new AppError('CONFLICT', 'The capture is neither failed nor waiting'),
    );
    renderNotes(fake.api, `/notes/${note.id}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Retry failed: The capture is neither failed nor waiting',
    );
    expect(screen.getByText('Capture failed.')).toBeTruthy();
  });

  it('plays the kept recording, with its length, from an object URL revoked on leaving', async () => {
    const note = makeNote({ title: 'Standup' });
    const url = `/api/notes/${note.id}/files/3q2-7wEjRWeJq83vEjRWeA.webm`;
    const withFile = {
      ...note,
      capture: capture({
        kind: 'audio',
        origin: 'recording',
        status: 'ready',
        step: null,
        file: { url, name: 'voice.webm', type: 'audio/webm', bytes: 52_000, durationSeconds: 65 },
      }),
    };
    const fake = fakeApi([withFile]);
    const { unmount } = renderNotes(fake.api, `/notes/${note.id}`);

    const player = await screen.findByLabelText('The recording');
    expect(player.tagName).toBe('AUDIO');
    expect(player.hasAttribute('controls')).toBe(true);
    expect(player.getAttribute('src')).toBe('blob:http://localhost/kept');
    expect(screen.getByText('Length 1:05')).toBeTruthy();
    expect(fake.capture.file).toHaveBeenCalledWith(url);
    unmount();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:http://localhost/kept');
  });

  it('offers the kept PDF to download, and links the page a note was made from', async () => {
    const pdfNote = makeNote({ title: 'Report' });
    const fake = fakeApi([
      {
        ...pdfNote,
        capture: capture({
          kind: 'pdf',
          status: 'ready',
          step: null,
          file: {
            url: `/api/notes/${pdfNote.id}/files/3q2-7wEjRWeJq83vEjRWeA.pdf`,
            name: 'report.pdf',
            type: 'application/pdf',
            bytes: 2_516_582,
          },
        }),
      },
    ]);
    const view = renderNotes(fake.api, `/notes/${pdfNote.id}`);
    const download = await screen.findByRole('button', {
      name: 'Download PDF (report.pdf, 2.4 MB)',
    });
    const click = vi
      .spyOn(HTMLAnchorElement.prototype, 'click')
      .mockImplementation(() => undefined);
    fireEvent.click(download);
    await vi.waitFor(() => expect(click).toHaveBeenCalled());
    expect(fake.capture.file).toHaveBeenCalledWith(
      `/api/notes/${pdfNote.id}/files/3q2-7wEjRWeJq83vEjRWeA.pdf`,
    );
    view.unmount();

    const linkNote = makeNote({
      title: 'Quiet places',
      capture: capture({
        kind: 'link',
        origin: 'url',
        status: 'ready',
        step: null,
        url: 'https://news.example.com/quiet',
        siteName: 'Example News',
      }),
    });
    renderNotes(fakeApi([linkNote]).api, `/notes/${linkNote.id}`);
    const source = await screen.findByRole('link', { name: /^Example News/ });
    expect(source.getAttribute('href')).toBe('https://news.example.com/quiet');
    expect(source.getAttribute('target')).toBe('_blank');
    expect(source.getAttribute('rel')).toBe('noopener noreferrer');
    expect(source.closest('p')?.textContent).toContain('Source:');
  });
});
