import { createApiClient, type ApiClientOptions, type Note } from '@noted/api';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compressImage } from '../images/compress';
import { fakeApi, makeNote, renderNotes } from '../testing';

// The canvas compression cannot run here: the test says what it gives.
vi.mock('../images/compress', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  compressImage: vi.fn(),
}));

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:http://localhost/preview');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.mocked(compressImage).mockReset();
  vi.restoreAllMocks();
});

const processing = (overrides: Partial<Note> = {}): Note =>
  makeNote({
    title: '',
    note: '',
    capture: {
      kind: 'image',
      origin: 'upload',
      status: 'processing',
      step: 'queued',
      attempt: 1,
      startedAt: '2026-01-01T00:00:00.000Z',
    },
    ...overrides,
  });

type Answer = (path: string, init: RequestInit) => Response;

const json = (body: unknown, status = 201) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * The real ApiClient over a fetch the test answers, as the shell makes it: the capture calls
 * go through it, the rest through the in-memory fake.
 */
const withClient = (answer: Answer, options: Partial<ApiClientOptions> = {}) => {
  const fake = fakeApi([makeNote({ title: 'Older note' })]);
  const fetch = vi.fn(async (input: string | URL | Request, init: RequestInit = {}) =>
    answer(String(input), init),
  );
  const client = createApiClient({
    baseUrl: '',
    getToken: async () => 'token-1',
    fetch,
    ...options,
  });
  const api = { ...fake.api, capture: client.capture };
  return { ...fake, api, client, fetch };
};

const captureButton = () => screen.findByRole('button', { name: 'Capture' });

/** Chooses `entry` in the Capture menu and waits for its dialog. */
const choose = async (entry: string, title: string) => {
  fireEvent.click(await captureButton());
  fireEvent.click(
    within(screen.getByRole('menu', { name: 'Capture' })).getByRole('menuitem', { name: entry }),
  );
  return screen.findByRole('dialog', { name: title });
};

const requestOf = (fetch: ReturnType<typeof withClient>['fetch'], index = 0) => {
  const call = fetch.mock.calls[index];
  if (!call) throw new Error(`No request ${index}`);
  const [input, init = {}] = call;
  return { path: String(input), init, headers: (init.headers ?? {}) as Record<string, string> };
};

describe('the Capture menu', () => {
  it('offers every way of capturing beside the composer, each opening its dialog; Escape closes it', async () => {
    const { api } = fakeApi();
    renderNotes(api);
    const button = await captureButton();
    expect(button.closest('form.composer')).toBeTruthy();
    expect(button.getAttribute('aria-haspopup')).toBe('menu');

    // The keyboard opens the menu on its first entry; Escape closes it back to the button.
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    const menu = screen.getByRole('menu', { name: 'Capture' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Photo or image',
      'Record voice',
      'Audio file',
      'Audio from a URL',
      'Web page (link)',
      'PDF',
    ]);
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Photo or image'));
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);

    const opens: [string, string, (dialog: HTMLElement) => void][] = [
      ['Photo or image', 'Note from an image', (d) => within(d).getByLabelText('Choose an image')],
      [
        'Record voice',
        'Note from audio',
        (d) => {
          const tab = within(d).getByRole('tab', { name: 'Record' });
          expect(tab.getAttribute('aria-selected')).toBe('true');
          within(d).getByRole('button', { name: 'Start recording' });
        },
      ],
      [
        'Audio file',
        'Note from audio',
        (d) => {
          const tab = within(d).getByRole('tab', { name: 'Choose a file' });
          expect(tab.getAttribute('aria-selected')).toBe('true');
          within(d).getByLabelText('Choose an audio file');
        },
      ],
      [
        'Audio from a URL',
        'Note from audio',
        (d) => {
          const tab = within(d).getByRole('tab', { name: 'From a URL' });
          expect(tab.getAttribute('aria-selected')).toBe('true');
          within(d).getByLabelText('Address of the audio file');
        },
      ],
      [
        'Web page (link)',
        'Note from a web page',
        (d) => within(d).getByLabelText('Address of the web page'),
      ],
      ['PDF', 'Note from a PDF', (d) => within(d).getByLabelText('Choose a PDF')],
    ];
    for (const [entry, title, check] of opens) {
      const dialog = await choose(entry, title);
      check(dialog);
      fireEvent.keyDown(dialog, { key: 'Escape' });
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(document.activeElement).toBe(button);
    }
  });

  it('moves between Record, Choose a file and From a URL with the arrow keys', async () => {
    const { api } = fakeApi();
    renderNotes(api);
    const dialog = await choose('Record voice', 'Note from audio');
    fireEvent.keyDown(within(dialog).getByRole('tablist'), { key: 'ArrowRight' });
    expect(
      within(dialog).getByRole('tab', { name: 'Choose a file' }).getAttribute('aria-selected'),
    ).toBe('true');
    expect(document.activeElement).toBe(within(dialog).getByRole('tab', { name: 'Choose a file' }));
    fireEvent.keyDown(within(dialog).getByRole('tablist'), { key: 'End' });
    expect(within(dialog).getByLabelText('Address of the audio file')).toBeTruthy();
  });
});

describe('a note from an image', () => {
  it('refuses a file that is not an image, and sends nothing', async () => {
    const { api, fetch } = withClient(() => json(processing()));
    renderNotes(api);
    const dialog = await choose('Photo or image', 'Note from an image');

    fireEvent.change(within(dialog).getByLabelText('Choose an image'), {
      target: { files: [new File(['%PDF-1.7'], 'notes.pdf', { type: 'application/pdf' })] },
    });

    expect(within(dialog).getByRole('alert').textContent).toBe('The file given is not an image');
    const create = within(dialog).getByRole('button', { name: 'Create note' }) as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    fireEvent.submit(create.closest('form') as HTMLFormElement);
    expect(compressImage).not.toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('compresses the image and sends it as the multipart field image, then opens the new note', async () => {
    const created = processing();
    const { api, fetch } = withClient(() => json(created));
    // browser-image-compression answers a File, under the original's name.
    const small = new File([new Uint8Array(120)], 'whiteboard.jpg', { type: 'image/jpeg' });
    vi.mocked(compressImage).mockResolvedValue(small);
    const { shell } = renderNotes(api);
    const dialog = await choose('Photo or image', 'Note from an image');
    const photo = new File([new Uint8Array(4000)], 'whiteboard.jpg', { type: 'image/jpeg' });

    fireEvent.change(within(dialog).getByLabelText('Choose an image'), {
      target: { files: [photo] },
    });
    expect(within(dialog).getByText(/^whiteboard\.jpg, /)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create note' }));

    await waitFor(() => expect(shell.openNote).toHaveBeenCalled());
    expect(compressImage).toHaveBeenCalledWith(photo);
    expect(fetch).toHaveBeenCalledTimes(1);
    const { path, init, headers } = requestOf(fetch);
    expect(path).toBe('/api/note/create/byimage');
    expect(init.method).toBe('POST');
    expect(headers.authorization).toBe('Bearer token-1');
    const form = init.body as FormData;
    const sent = form.get('image') as File;
    expect(sent.size).toBe(120);
    expect(sent.name).toBe('whiteboard.jpg');
    expect(shell.openNote).toHaveBeenCalledWith(created.id, { note: created });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sends the original when compressing fails, and takes an image pasted into the dialog', async () => {
    const { api, fetch } = withClient(() => json(processing()));
    vi.mocked(compressImage).mockRejectedValue(new Error('no canvas here'));
    const { shell } = renderNotes(api);
    const dialog = await choose('Photo or image', 'Note from an image');
    const screenshot = new File([new Uint8Array(3000)], 'screen.png', { type: 'image/png' });

    fireEvent.paste(within(dialog).getByLabelText('Choose an image'), {
      clipboardData: { files: [screenshot] },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create note' }));

    await waitFor(() => expect(shell.openNote).toHaveBeenCalled());
    const sent = (requestOf(fetch).init.body as FormData).get('image') as File;
    expect(sent.size).toBe(3000);
  });

  it('says what the server refused, and keeps the dialog open to try another file', async () => {
    const { api } = withClient(() =>
      json({ error: { code: 'NOT_AN_IMAGE', message: 'The file given is not an image' } }, 422),
    );
    vi.mocked(compressImage).mockImplementation(async (file) => file);
    renderNotes(api);
    const dialog = await choose('Photo or image', 'Note from an image');
    fireEvent.change(within(dialog).getByLabelText('Choose an image'), {
      target: { files: [new File([new Uint8Array(10)], 'fake.png', { type: 'image/png' })] },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create note' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'The file given is not an image',
    );
    expect(screen.getByRole('dialog', { name: 'Note from an image' })).toBeTruthy();
  });
});

describe('a note from a file', () => {
  it('checks an audio file and a PDF by type and size before sending them', async () => {
    const { api, fetch } = withClient(() => json(processing()));
    const { shell } = renderNotes(api);

    let dialog = await choose('Audio file', 'Note from audio');
    const input = () => within(dialog).getByLabelText('Choose an audio file');
    fireEvent.change(input(), {
      target: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' })] },
    });
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'This is not an audio file: choose WebM, Ogg, MP3, M4A or WAV.',
    );
    const huge = new File(['x'], 'talk.mp3', { type: 'audio/mpeg' });
    Object.defineProperty(huge, 'size', { value: 26 * 1024 * 1024 });
    fireEvent.change(input(), { target: { files: [huge] } });
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'This file is 26 MB; an audio file can be at most 25 MB.',
    );
    fireEvent.change(input(), {
      target: { files: [new File([new Uint8Array(64)], 'talk.m4a', { type: 'audio/mp4' })] },
    });
    expect(within(dialog).queryByRole('alert')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create note' }));
    await waitFor(() => expect(shell.openNote).toHaveBeenCalledTimes(1));
    expect(requestOf(fetch, 0).path).toBe('/api/note/create/byaudiofile');
    expect(((requestOf(fetch, 0).init.body as FormData).get('audio') as File).name).toBe(
      'talk.m4a',
    );

    dialog = await choose('PDF', 'Note from a PDF');
    const pdfInput = within(dialog).getByLabelText('Choose a PDF');
    fireEvent.change(pdfInput, {
      target: { files: [new File(['x'], 'photo.jpg', { type: 'image/jpeg' })] },
    });
    expect(within(dialog).getByRole('alert').textContent).toBe('This is not a PDF.');
    fireEvent.change(pdfInput, {
      target: { files: [new File(['%PDF-1.7'], 'report.pdf', { type: 'application/pdf' })] },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create note' }));
    await waitFor(() => expect(shell.openNote).toHaveBeenCalledTimes(2));
    expect(requestOf(fetch, 1).path).toBe('/api/note/create/bypdf');
    expect(((requestOf(fetch, 1).init.body as FormData).get('pdf') as File).name).toBe(
      'report.pdf',
    );
  });
});

describe('a large file', () => {
  it('goes to storage through an upload address, without the token, then becomes a note', async () => {
    const created = processing();
    const { api, fetch } = withClient((path) =>
      path === '/api/config/s3credentials'
        ? json({
            uploadId: '6f1d3c9e-8d2a-4c1b-9e1f-0a2b3c4d5e6f',
            url: 'http://media.local/noted',
            fields: { key: 'u/uploads/6f1d', policy: 'p' },
            maxBytes: 5 * 1024 * 1024,
            expiresAt: '2026-11-25T12:00:00.000Z',
          })
        : path === 'http://media.local/noted'
          ? new Response(null, { status: 204 })
          : json(created),
    );
    const { shell } = renderNotes(api);
    const dialog = await choose('PDF', 'Note from a PDF');
    const big = new File([new Uint8Array(5 * 1024 * 1024)], 'scan.pdf', {
      type: 'application/pdf',
    });
    fireEvent.change(within(dialog).getByLabelText('Choose a PDF'), {
      target: { files: [big] },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create note' }));
    await waitFor(() => expect(shell.openNote).toHaveBeenCalledWith(created.id, { note: created }));
    expect(fetch.mock.calls.map(([input]) => String(input))).toEqual([
      '/api/config/s3credentials',
      'http://media.local/noted',
      '/api/note/create/byupload',
    ]);
    expect(JSON.parse(String(requestOf(fetch, 0).init.body))).toEqual({
      kind: 'pdf',
      name: 'scan.pdf',
      bytes: big.size,
    });
    expect(requestOf(fetch, 1).headers.authorization).toBeUndefined();
    expect(((requestOf(fetch, 1).init.body as FormData).get('file') as File).size).toBe(big.size);
  });
});

describe('a note from a web page', () => {
  it('blocks an address that is not http or https, and sends a good one as {url} to bylink', async () => {
    const created = processing();
    const { api, fetch } = withClient(() => json(created));
    const { shell } = renderNotes(api);
    const dialog = await choose('Web page (link)', 'Note from a web page');
    const field = within(dialog).getByLabelText('Address of the web page') as HTMLInputElement;
    expect(field.type).toBe('url');
    expect(field.required).toBe(true);
    expect(document.activeElement).toBe(field);

    for (const wrong of ['not an address', 'ftp://example.com/file', 'javascript:alert(1)']) {
      fireEvent.change(field, { target: { value: wrong } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Create note' }));
      expect(within(dialog).getByRole('alert').textContent).toBe(
        'Enter an http or https address, such as https://example.com/article.',
      );
    }
    expect(fetch).not.toHaveBeenCalled();

    fireEvent.change(field, { target: { value: '  https://example.com/article  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create note' }));
    await waitFor(() => expect(shell.openNote).toHaveBeenCalledWith(created.id, { note: created }));
    const { path, init } = requestOf(fetch);
    expect(path).toBe('/api/note/create/bylink');
    expect(JSON.parse(String(init.body))).toEqual({ url: 'https://example.com/article' });
  });

  it('sends an audio address to byaudioUrl', async () => {
    const { api, fetch } = withClient(() => json(processing()));
    const { shell } = renderNotes(api);
    const dialog = await choose('Audio from a URL', 'Note from audio');
    fireEvent.change(within(dialog).getByLabelText('Address of the audio file'), {
      target: { value: 'https://example.com/talk.mp3' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create note' }));
    await waitFor(() => expect(shell.openNote).toHaveBeenCalled());
    expect(requestOf(fetch).path).toBe('/api/note/create/byaudioUrl');
    expect(JSON.parse(String(requestOf(fetch).init.body))).toEqual({
      audioUrl: 'https://example.com/talk.mp3',
    });
  });
});

describe('the month used up', () => {
  it('goes the way of a direct create: the client reports NOTES_LEFT_NOT_ENOUGH for the shell to offer the plans', async () => {
    // The shell gives its client an onError that shows the quota toast with Upgrade; here it is a spy.
    const onError = vi.fn();
    const { api: captureApi, client } = withClient(() => new Response('', { status: 403 }), {
      onError,
    });
    const api = { ...captureApi, notes: { ...captureApi.notes, create: client.notes.create } };
    const { shell } = renderNotes(api);
    await screen.findByRole('heading', { name: 'Older note' });

    // A note written in the composer.
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'One too many' } });
    fireEvent.keyDown(screen.getByLabelText('Note'), { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(1));

    // A web page captured.
    const dialog = await choose('Web page (link)', 'Note from a web page');
    fireEvent.change(within(dialog).getByLabelText('Address of the web page'), {
      target: { value: 'https://example.com/article' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create note' }));
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(2));

    const [direct, captured] = onError.mock.calls;
    expect(direct?.[0]).toMatchObject({ code: 'NOTES_LEFT_NOT_ENOUGH' });
    expect(direct?.[1]).toEqual({ method: 'POST', path: '/api/note/create/direct' });
    expect(captured?.[0]).toMatchObject({ code: 'NOTES_LEFT_NOT_ENOUGH' });
    expect(captured?.[1]).toEqual({ method: 'POST', path: '/api/note/create/bylink' });
    // The dialog gets out of the way of the shell's toast, and says nothing of its own.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(shell.toast).not.toHaveBeenCalled();
    expect(shell.openNote).not.toHaveBeenCalled();
    await act(async () => undefined);
  });
});
