import { createApiClient, type AiSettings, type Note, type UserUsage } from '@noted/api';
import { createTestAccount } from '@noted/ui/testing';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createNotesTestI18n, fakeApi, localAiSettings, makeNote, renderNotes } from '../testing';

/** A MediaRecorder as browsers have it, enough for the dialog: it records what the test says. */
class FakeRecorder extends EventTarget {
  static made: FakeRecorder[] = [];
  static isTypeSupported = vi.fn(
    (type: string) => type === 'audio/webm;codecs=opus' || type === 'audio/webm',
  );
  state: RecordingState = 'inactive';
  readonly mimeType: string;
  constructor(
    readonly stream: MediaStream,
    options: MediaRecorderOptions = {},
  ) {
    super();
    this.mimeType = options.mimeType ?? 'audio/webm';
    FakeRecorder.made.push(this);
  }
  start = vi.fn(() => {
    this.state = 'recording';
  });
  pause = vi.fn(() => {
    this.state = 'paused';
  });
  resume = vi.fn(() => {
    this.state = 'recording';
  });
  stop = vi.fn(() => {
    this.state = 'inactive';
    // As browsers do: the last data, then `stop`, after the call returns.
    queueMicrotask(() => {
      const data = Object.assign(new Event('dataavailable'), {
        data: new Blob([new Uint8Array(2048)], { type: this.mimeType }),
      });
      this.dispatchEvent(data);
      this.dispatchEvent(new Event('stop'));
    });
  });
}

const track = { stop: vi.fn() };
const stream = { getTracks: () => [track] } as unknown as MediaStream;
const getUserMedia = vi.fn<(constraints: MediaStreamConstraints) => Promise<MediaStream>>();

const setMediaDevices = (value: unknown) =>
  Object.defineProperty(navigator, 'mediaDevices', { value, configurable: true });

beforeEach(() => {
  FakeRecorder.made = [];
  track.stop.mockReset();
  getUserMedia.mockReset().mockResolvedValue(stream);
  vi.stubGlobal('MediaRecorder', FakeRecorder);
  setMediaDevices({ getUserMedia });
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:http://localhost/recording');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

/** Lets fake time pass and the promises it releases settle. */
const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

const usage = (recordingTimeLimit: number): UserUsage => ({
  period: '2026-01',
  resetsAt: '2026-02-01T00:00:00.000Z',
  notes: { used: 3, limit: 50 },
  recordingTimeLimit,
});

/** The notes module with the real client for captures (over a fetch the test answers). */
const renderWithPlan = (recordingTimeLimit?: number, aiSettings?: Partial<AiSettings>) => {
  const fake = fakeApi([], { aiSettings });
  const created: Note = makeNote({
    title: '',
    note: '',
    capture: {
      kind: 'audio',
      origin: 'recording',
      status: 'processing',
      step: 'queued',
      attempt: 1,
      startedAt: '2026-01-01T00:00:00.000Z',
    },
  });
  const fetch = vi.fn(
    async (_input: string | URL | Request, _init?: RequestInit) =>
      new Response(JSON.stringify(created), {
        status: 201,
        headers: { 'content-type': 'application/json' },
      }),
  );
  const client = createApiClient({ baseUrl: '', getToken: async () => 'token-1', fetch });
  const account = createTestAccount(
    recordingTimeLimit === undefined ? {} : { phase: 'ready', usage: usage(recordingTimeLimit) },
  );
  const view = renderNotes({ ...fake.api, capture: client.capture }, '/', createNotesTestI18n(), {
    account,
  });
  return { ...view, fetch, created };
};

const openRecorder = async () => {
  fireEvent.click(await screen.findByRole('button', { name: 'Capture' }));
  fireEvent.click(screen.getByRole('menuitem', { name: 'Record voice' }));
  return screen.findByRole('dialog', { name: 'Note from audio' });
};

const sentAudio = (fetch: ReturnType<typeof renderWithPlan>['fetch']) => {
  const [input, init] = fetch.mock.calls[0] ?? [];
  return { path: String(input), audio: (init?.body as FormData).get('audio') as File };
};

describe('recording a voice note', () => {
  it('promises a transcript only where the server has a speech-to-text model', async () => {
    renderWithPlan(90);
    let dialog = await openRecorder();
    expect(
      await within(dialog).findByText(
        'Speak your note. It is kept with the note and plays there; this server has no speech-to-text model to transcribe it.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Choose a file' }));
    expect(
      within(dialog).getByText(
        /^WebM, Ogg, MP3, M4A or WAV, up to 25 MB and 1:30 long\. It is kept/,
      ),
    ).toBeTruthy();
    cleanup();

    const transcribing = localAiSettings();
    renderWithPlan(90, {
      models: { ...transcribing.models, transcription: 'whisper-1' },
      features: { ...transcribing.features, transcription: 'model' },
    });
    dialog = await openRecorder();
    expect(
      await within(dialog).findByText(
        'Speak your note. It is transcribed into the note and kept with it.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('tab', { name: 'From a URL' }));
    expect(
      within(dialog).getByText(
        "A public link to a WebM, Ogg, MP3, M4A or WAV file of at most 25 MB, which Noted's server fetches. It is transcribed into the note and kept with it.",
      ),
    ).toBeTruthy();
  });

  it("counts down to the plan's limit, pauses, stops by itself at the limit, and saves as byaudio", async () => {
    const { fetch, shell, created } = renderWithPlan(90);
    const dialog = await openRecorder();
    expect(within(dialog).getByText('A recording here can be up to 1:30 long.')).toBeTruthy();
    vi.useFakeTimers();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Start recording' }));
    await pass(0);
    expect(getUserMedia).toHaveBeenCalledWith({ audio: true });
    const recorder = FakeRecorder.made[0];
    expect(recorder?.mimeType).toBe('audio/webm;codecs=opus');
    expect(recorder?.start).toHaveBeenCalled();
    const clock = () => within(dialog).getByRole('timer', { name: 'Time recorded' }).textContent;
    expect(clock()).toBe('0:00');
    expect(within(dialog).getByText('of 1:30')).toBeTruthy();
    expect(within(dialog).getByText('1:30 left')).toBeTruthy();

    await pass(30_000);
    expect(clock()).toBe('0:30');
    expect(within(dialog).getByText('1:00 left')).toBeTruthy();

    // Paused time does not count.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pause' }));
    expect(recorder?.pause).toHaveBeenCalled();
    expect(within(dialog).getByText('Paused')).toBeTruthy();
    await pass(20_000);
    expect(clock()).toBe('0:30');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Resume' }));
    expect(recorder?.resume).toHaveBeenCalled();

    await pass(59_000);
    expect(clock()).toBe('1:29');
    expect(recorder?.stop).not.toHaveBeenCalled();
    await pass(1_000);
    expect(recorder?.stop).toHaveBeenCalledTimes(1);
    expect(track.stop).toHaveBeenCalled();
    expect(within(dialog).getByText('Recording of 1:30')).toBeTruthy();
    expect(within(dialog).getByText('The recording stopped at the limit of 1:30.')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Save recording' }));
    await pass(0);
    const { path, audio } = sentAudio(fetch);
    expect(path).toBe('/api/note/create/byaudio');
    expect(audio.type).toBe('audio/webm;codecs=opus');
    expect(audio.size).toBe(2048);
    expect(shell.openNote).toHaveBeenCalledWith(created.id, { note: created });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('stops and saves on Stop & save, with the free limit while the usage is not known', async () => {
    const { fetch, shell } = renderWithPlan();
    const dialog = await openRecorder();
    vi.useFakeTimers();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start recording' }));
    await pass(0);
    expect(within(dialog).getByText('1:00 left')).toBeTruthy();
    await pass(5_000);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop & save' }));
    await pass(0);

    expect(FakeRecorder.made[0]?.stop).toHaveBeenCalled();
    expect(track.stop).toHaveBeenCalled();
    const { path, audio } = sentAudio(fetch);
    expect(path).toBe('/api/note/create/byaudio');
    expect(audio.size).toBe(2048);
    expect(shell.openNote).toHaveBeenCalled();
  });

  it('throws the recording away on Cancel and lets the microphone go', async () => {
    const { fetch } = renderWithPlan(-1);
    const dialog = await openRecorder();
    expect(within(dialog).getByText('There is no time limit on recordings.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start recording' }));
    await waitFor(() => expect(within(dialog).getByText('Recording')).toBeTruthy());
    expect(within(dialog).queryByText(/left$/)).toBeNull();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    expect(track.stop).toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
    await act(async () => undefined);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('asks before Escape throws a recording away', async () => {
    const { shell } = renderWithPlan();
    const dialog = await openRecorder();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start recording' }));
    await waitFor(() => expect(within(dialog).getByText('Recording')).toBeTruthy());

    fireEvent.keyDown(dialog, { key: 'Escape' });
    const question = await screen.findByRole('alertdialog', { name: 'Discard the recording?' });
    expect(shell.confirm).toHaveBeenCalled();
    fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByRole('dialog', { name: 'Note from audio' })).toBeTruthy();
    expect(track.stop).not.toHaveBeenCalled();
  });

  it('says so when the microphone is refused, and offers a file or a URL instead', async () => {
    getUserMedia.mockRejectedValue(new DOMException('Permission denied', 'NotAllowedError'));
    renderWithPlan();
    const dialog = await openRecorder();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Start recording' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('Noted may not use the microphone.');
    expect(FakeRecorder.made).toHaveLength(0);
    expect(within(dialog).getByRole('button', { name: 'From a URL' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Choose a file' }));
    expect(
      within(dialog).getByRole('tab', { name: 'Choose a file' }).getAttribute('aria-selected'),
    ).toBe('true');
    expect(within(dialog).getByLabelText('Choose an audio file')).toBeTruthy();
  });

  it('says recording needs https where the browser hides the microphone', async () => {
    setMediaDevices(undefined);
    vi.stubGlobal('isSecureContext', false);
    renderWithPlan();
    const dialog = await openRecorder();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start recording' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Recording needs a secure (https) connection to Noted. Choose a file or give a URL instead.',
    );
    expect(within(dialog).getByRole('button', { name: 'Choose a file' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Try again' })).toBeNull();
  });
});
