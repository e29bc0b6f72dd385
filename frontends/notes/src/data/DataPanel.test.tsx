import { AppError } from '@noted/api';
import { createTestShell } from '@noted/ui/testing';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createNotesTestI18n } from '../testing';
import { DataPanel, type DataApi } from './DataPanel';

const saved: string[] = [];

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
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

const renderPanel = (api: DataApi) => {
  const shell = createTestShell(createNotesTestI18n());
  render(<DataPanel api={api} shell={shell} />);
  return shell;
};

describe('Your data: export all notes', () => {
  it('counts first, then shows N of M notes as the zip arrives, and saves it at the end', async () => {
    const exported = streamedExport(2);
    renderPanel({ export: { all: exported.all } } as unknown as DataApi);
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
    const shell = renderPanel({ export: { all: exported.all } } as unknown as DataApi);
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
    renderPanel({ export: { all } } as unknown as DataApi);
    fireEvent.click(await screen.findByRole('button', { name: 'Export all notes' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The export stopped: The server could not be reached',
    );
    expect(screen.getByRole('button', { name: 'Export all notes' })).toBeTruthy();
  });
});
