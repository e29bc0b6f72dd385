import {
  AppError,
  type ImportProgress,
  type ImportResult,
  type NotionConnection,
} from '@noted/api';
import { createTestShell } from '@noted/ui/testing';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createNotesTestI18n, freePlanAccount } from '../testing';
import { DataPanel, type DataApi } from './DataPanel';

const saved: string[] = [];

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  saved.length = 0;
  URL.createObjectURL = vi.fn(() => 'blob:everything');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.push(this.download);
  });
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const encoder = new TextEncoder();

/** One zip entry as the export writes it: a local header with its sizes, the name, the data. */
const entry = (name: string, text: string) => {
  const nameBytes = encoder.encode(name);
  const data = encoder.encode(text);
  const bytes = new Uint8Array(30 + nameBytes.length + data.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, 0x04034b50, true);
  view.setUint32(18, data.length, true);
  view.setUint32(22, data.length, true);
  view.setUint16(26, nameBytes.length, true);
  bytes.set(nameBytes, 30);
  bytes.set(data, 30 + nameBytes.length);
  return bytes;
};

/** The export of everything, its body sent when the test says. */
const streamedExport = (total: number) => {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  let answer: (response: Response) => void = () => undefined;
  let signal: AbortSignal | undefined;
  const all = vi.fn((options: { signal?: AbortSignal } = {}) => {
    signal = options.signal;
    return new Promise<Response>((resolve) => (answer = resolve));
  });
  return {
    all,
    signal: () => signal,
    headers: () =>
      act(async () =>
        answer(
          new Response(body, {
            headers: {
              'x-noted-notes-total': String(total),
              'content-disposition': `attachment; filename="Noted export 2026-01-02.zip"`,
            },
          }),
        ),
      ),
    send: (bytes: Uint8Array) => act(async () => controller.enqueue(bytes)),
    end: () => act(async () => controller.close()),
  };
};

const notConnected: NotionConnection = { connected: false, status: 'idle', pagesSynced: 0 };

/** The panel with the calls a test gives; Notion not connected unless it says otherwise. */
const renderPanel = (
  api: {
    export?: unknown;
    imports?: Partial<DataApi['imports']>;
    notion?: Partial<DataApi['notion']>;
  },
  account?: ReturnType<typeof freePlanAccount>,
) => {
  const shell = { ...createTestShell(createNotesTestI18n()), ...(account ? { account } : {}) };
  const notion = { get: vi.fn(async () => notConnected), ...api.notion };
  render(<DataPanel api={{ ...api, notion } as unknown as DataApi} shell={shell} />);
  return shell;
};

describe('Your data: download all my data', () => {
  it('follows the notes under notes/ in the archive of everything, and saves it at the end', async () => {
    const exported = streamedExport(1);
    renderPanel({ export: { accountData: exported.all } });
    fireEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    await screen.findByRole('progressbar', { name: 'Gathering your data…' });
    await exported.headers();
    await exported.send(entry('README.txt', 'Everything'));
    await exported.send(entry('chats/2026-01-02 Question.json', '{}'));
    await exported.send(entry('notes/First.md', '# First'));
    expect(await screen.findByRole('progressbar', { name: '1 of 1 note' })).toBeTruthy();
    await exported.send(entry('files/Lecture.m4a', 'audio'));
    await exported.end();
    await waitFor(() => expect(saved).toEqual(['Noted export 2026-01-02.zip']));
    expect(screen.getByRole('status').textContent).toBe(
      'Saved “Noted export 2026-01-02.zip” with 1 note and the rest of your data.',
    );
  });
});

describe('Your data: export all notes', () => {
  it('counts first, then shows N of M notes as the zip arrives, and saves it at the end', async () => {
    const exported = streamedExport(2);
    renderPanel({ export: { all: exported.all } });
    fireEvent.click(await screen.findByRole('button', { name: 'Export all notes' }));

    const counting = await screen.findByRole('progressbar', { name: 'Counting your notes…' });
    expect(counting.hasAttribute('aria-valuenow')).toBe(false);

    await exported.headers();
    await exported.send(entry('First.md', '# First'));
    const bar = await screen.findByRole('progressbar', { name: '1 of 2 notes' });
    expect(bar.getAttribute('aria-valuenow')).toBe('1');
    expect(bar.getAttribute('aria-valuemax')).toBe('2');
    expect(saved).toEqual([]);

    await exported.send(entry('images/a.webp', 'RIFF'));
    await exported.send(entry('Second.md', '# Second'));
    expect(await screen.findByRole('progressbar', { name: '2 of 2 notes' })).toBeTruthy();
    await exported.end();

    await waitFor(() => expect(saved).toEqual(['Noted export 2026-01-02.zip']));
    expect(screen.getByRole('status').textContent).toBe(
      'Saved “Noted export 2026-01-02.zip” with 2 notes.',
    );
  });

  it('cancels: the download is aborted and nothing is saved', async () => {
    const exported = streamedExport(3);
    const shell = renderPanel({ export: { all: exported.all } });
    fireEvent.click(await screen.findByRole('button', { name: 'Export all notes' }));
    await exported.headers();
    await exported.send(entry('First.md', '# First'));
    await screen.findByRole('progressbar', { name: '1 of 3 notes' });

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(exported.signal()?.aborted).toBe(true);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(shell.toast).toHaveBeenCalledWith('The export was cancelled.', { type: 'info' });
    expect(saved).toEqual([]);
  });

  it('says why when the export fails, and offers it again', async () => {
    const all = vi.fn(async () => {
      throw new AppError('UNAVAILABLE', 'The server could not be reached');
    });
    renderPanel({ export: { all } });
    fireEvent.click(await screen.findByRole('button', { name: 'Export all notes' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The export stopped: The server could not be reached',
    );
    expect(screen.getByRole('button', { name: 'Export all notes' })).toBeTruthy();
  });
});

const connected: NotionConnection = {
  connected: true,
  workspaceName: 'Ada’s workspace',
  status: 'idle',
  lastSyncAt: '2026-01-02T10:00:00.000Z',
  pagesSynced: 42,
  nextSyncAt: '2026-01-02T11:00:00.000Z',
};

describe('Your data: Notion', () => {
  it('connects with the token typed in a password field, then shows the connection', async () => {
    const connect = vi.fn(async () => ({
      ...connected,
      status: 'syncing' as const,
      pagesSynced: 0,
    }));
    renderPanel({ notion: { connect } });
    const field = await screen.findByLabelText('Integration token');
    expect(field.getAttribute('type')).toBe('password');
    fireEvent.change(field, { target: { value: ' ntn_secret ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect Notion' }));

    expect(await screen.findByText('Ada’s workspace')).toBeTruthy();
    expect(connect).toHaveBeenCalledWith({ token: 'ntn_secret' });
    expect(screen.getByText('Syncing…')).toBeTruthy();
    expect(screen.queryByLabelText('Integration token')).toBeNull();
  });

  it('says plainly when Notion refuses the token', async () => {
    const connect = vi.fn(async () => {
      throw new AppError('NOTION_TOKEN_INVALID', 'Notion refused the token');
    });
    renderPanel({ notion: { connect } });
    fireEvent.change(await screen.findByLabelText('Integration token'), {
      target: { value: 'ntn_wrong' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Connect Notion' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Notion did not accept this token. Check that it was copied whole and that the integration still exists.',
    );
  });

  it('shows workspace, pages and the last sync; Sync now and Disconnect act on it', async () => {
    const sync = vi.fn(async () => ({ ...connected, status: 'syncing' as const }));
    const disconnect = vi.fn(async () => undefined);
    const shell = renderPanel({
      notion: { get: vi.fn(async () => connected), sync, disconnect },
    });
    expect(await screen.findByText('Ada’s workspace')).toBeTruthy();
    expect(screen.getByText('42')).toBeTruthy();
    expect(screen.getByText('Connected')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Sync now' }));
    expect(await screen.findByText('Syncing…')).toBeTruthy();
    expect(sync).toHaveBeenCalledTimes(1);

    fireEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(disconnect).toHaveBeenCalledTimes(1));
    expect(shell.confirm).toHaveBeenCalledWith(expect.objectContaining({ danger: true }));
    expect(await screen.findByLabelText('Integration token')).toBeTruthy();
  });

  it('offers to connect again when the token stopped working', async () => {
    renderPanel({
      notion: {
        get: vi.fn(async () => ({
          ...connected,
          status: 'failed' as const,
          lastError: 'NOTION_TOKEN_INVALID',
        })),
      },
    });
    expect(
      await screen.findByText('Notion no longer accepts the token. Connect again with a new one.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Connect again' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sync now' })).toBeNull();
  });
});

/** An import the test plays: progress events as the server sends them, then its result. */
const playedImport = () => {
  let onProgress: ((progress: ImportProgress) => void) | undefined;
  let onUploadProgress: ((sent: number, total: number) => void) | undefined;
  let finish: (result: ImportResult) => void = () => undefined;
  let refuse: (error: unknown) => void = () => undefined;
  let signal: AbortSignal | undefined;
  const file = vi.fn(
    (
      _file: Blob,
      options: {
        fileName?: string;
        onUploadProgress?: (sent: number, total: number) => void;
        onProgress?: (progress: ImportProgress) => void;
        signal?: AbortSignal;
      } = {},
    ) => {
      onProgress = options.onProgress;
      onUploadProgress = options.onUploadProgress;
      signal = options.signal;
      return new Promise<ImportResult>((resolve, reject) => {
        finish = resolve;
        refuse = reject;
        options.signal?.addEventListener('abort', () => reject(options.signal?.reason));
      });
    },
  );
  return {
    file,
    signal: () => signal,
    uploaded: (sent: number, total: number) => act(async () => onUploadProgress?.(sent, total)),
    progress: (progress: Omit<ImportProgress, 'created' | 'updated' | 'failed'>) =>
      act(async () => onProgress?.({ created: 0, updated: 0, failed: 0, ...progress })),
    finish: (result: Partial<ImportResult>) =>
      act(async () =>
        finish({
          source: 'markdown',
          created: 0,
          updated: 0,
          imagesUploaded: 0,
          failed: [],
          skipped: [],
          skippedTotal: 0,
          cancelled: false,
          ...result,
        }),
      ),
    refuse: (error: unknown) => act(async () => refuse(error)),
  };
};

const pick = async (name: string, type = 'application/zip') => {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  expect(input.accept).toBe('.md,.markdown,.txt,.zip');
  const file = new File(['PK'], name, { type });
  fireEvent.change(input, { target: { files: [file] } });
  return file;
};

describe('Your data: import notes', () => {
  it('shows the upload, then N of M notes, then what was created, updated and failed', async () => {
    const played = playedImport();
    renderPanel({ imports: { file: played.file } });
    await screen.findByRole('button', { name: 'Choose a file…' });
    const file = await pick('Noted export.zip');
    expect(played.file).toHaveBeenCalledWith(
      file,
      expect.objectContaining({ fileName: 'Noted export.zip' }),
    );
    expect(
      await screen.findByRole('progressbar', { name: 'Sending “Noted export.zip”…' }),
    ).toBeTruthy();

    await played.uploaded(250, 1000);
    const upload = screen.getByRole('progressbar', { name: 'Sending “Noted export.zip”… 25%' });
    expect(upload.getAttribute('aria-valuenow')).toBe('250');
    await played.uploaded(1000, 1000);
    expect(screen.getByRole('progressbar', { name: 'Reading “Noted export.zip”…' })).toBeTruthy();

    await played.progress({ done: 3, total: 10 });
    const bar = screen.getByRole('progressbar', { name: '3 of 10 notes' });
    expect(bar.getAttribute('aria-valuenow')).toBe('3');

    await played.finish({
      created: 7,
      updated: 2,
      imagesUploaded: 4,
      failed: [{ sourcePath: 'Long.md', code: 'NOTE_TOO_LONG' }],
      skipped: [{ path: 'notes.pdf', reason: 'NOT_MARKDOWN' }],
      skippedTotal: 1,
    });
    const summary = screen.getByRole('status');
    expect(summary.textContent).toContain('Imported “Noted export.zip”.');
    expect(within(summary).getByText('7 notes created')).toBeTruthy();
    expect(within(summary).getByText('2 notes updated')).toBeTruthy();
    expect(within(summary).getByText('1 failed')).toBeTruthy();
    expect(within(summary).getByText('4 images added')).toBeTruthy();
    expect(within(summary).getByText('Long.md').parentElement?.textContent).toBe(
      'Long.md — longer than a note may be',
    );
    expect(within(summary).getByText('notes.pdf').parentElement?.textContent).toBe(
      'notes.pdf — not a Markdown file',
    );
  });

  it('says plainly that the month’s allowance refused the import before anything was written', async () => {
    const played = playedImport();
    const shell = renderPanel({ imports: { file: played.file } });
    await screen.findByRole('button', { name: 'Choose a file…' });
    await pick('Notion.zip');
    await played.refuse(
      new AppError('NOTES_LEFT_NOT_ENOUGH', 'Notes left not enough this month', {
        needed: 120,
        left: 35,
      }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('“Notion.zip” was not imported');
    expect(alert.textContent).toContain(
      'It would make 120 new notes, but only 35 more can be made this month. Nothing was imported.',
    );
    fireEvent.click(within(alert).getByRole('button', { name: 'Upgrade' }));
    expect(shell.offerUpgrade).toHaveBeenCalled();
  });

  it('on a server without payments, says the limit is the server’s and offers no upgrade', async () => {
    const played = playedImport();
    renderPanel(
      { imports: { file: played.file } },
      freePlanAccount({ payments: false, limits: { FREE_NOTES_PER_MONTH: 50 } }),
    );
    await screen.findByRole('button', { name: 'Choose a file…' });
    await pick('Notion.zip');
    await played.refuse(
      new AppError('NOTES_LEFT_NOT_ENOUGH', 'Notes left not enough this month', {
        needed: 120,
        left: 35,
      }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'It would make 120 new notes, but only 35 more can be made this month. Nothing was imported.',
    );
    expect(alert.textContent).toContain(
      'The monthly limit is this server’s, set by whoever runs it.',
    );
    expect(within(alert).queryByRole('button')).toBeNull();
  });

  it('names a file that is not notes', async () => {
    const played = playedImport();
    renderPanel({ imports: { file: played.file } });
    await screen.findByRole('button', { name: 'Choose a file…' });
    await pick('photo.zip');
    await played.refuse(new AppError('ZIP_INVALID', 'The zip cannot be read'));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The .zip file cannot be read: it may be damaged or cut short.',
    );
  });

  it.each(['IMPORT_TOO_LARGE', 'IMPORT_TOO_COMPLEX', 'IMPORT_EMPTY', 'BUSY'] as const)(
    'says in words why a file was refused with %s, never the code',
    async (code) => {
      const played = playedImport();
      renderPanel({ imports: { file: played.file } });
      await screen.findByRole('button', { name: 'Choose a file…' });
      await pick('Vault.zip');
      await played.refuse(new AppError(code, 'refused'));
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toContain('“Vault.zip” was not imported');
      expect(alert.textContent).not.toMatch(/import\.refused|[A-Z]{4,}_/);
    },
  );

  it('stops between two notes on Stop, keeping what was made', async () => {
    const played = playedImport();
    renderPanel({ imports: { file: played.file } });
    await screen.findByRole('button', { name: 'Choose a file…' });
    await pick('Big.zip');
    await played.progress({ done: 1, total: 50 });
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(played.signal()?.aborted).toBe(true);
    expect((await screen.findByRole('status')).textContent).toBe(
      'The import of “Big.zip” was stopped. The notes made before it stopped stay.',
    );
  });
});
