import { AppError, type Note } from '@noted/api';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NotesApi } from '../api';
import { fakeApi, makeNote, renderNotes } from '../testing';
import { fileNameOf } from '../download';

const saved: { name: string; url: string }[] = [];

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  saved.length = 0;
  URL.createObjectURL = vi.fn(() => 'blob:exported');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.push({ name: this.download, url: this.getAttribute('href') ?? '' });
  });
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** A file answer as the export service sends one. */
const fileAnswer = (body: string, name: string, type = 'text/markdown') =>
  new Response(body, {
    headers: {
      'content-type': type,
      'content-disposition': `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    },
  });

const open = async (exportApi: Partial<NotesApi['export']>, note: Note = makeNote()) => {
  const fake = fakeApi([note]);
  const api = { ...fake.api, export: exportApi } as NotesApi;
  const rendered = renderNotes(api, `/notes/${note.id}`);
  await screen.findByLabelText('Title');
  return { ...rendered, note };
};

const choose = async (entry: string) => {
  fireEvent.click(screen.getByRole('button', { name: 'Export' }));
  fireEvent.click(await screen.findByRole('menuitem', { name: entry }));
};

describe('the note page Export menu', () => {
  it('downloads the Markdown with the token-carrying client and saves it under the server’s name', async () => {
    const markdown = vi.fn(async () => fileAnswer('---\ntitle: 计划\n---\nBody', '计划 plan.md'));
    const { note } = await open({ markdown });
    await choose('Markdown');
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(markdown).toHaveBeenCalledWith(note.id, 'link');
    expect(saved[0]).toEqual({ name: '计划 plan.md', url: 'blob:exported' });
  });

  it('asks for the Markdown bundled with its images as a .zip, and each image theme', async () => {
    const markdown = vi.fn(async () => fileAnswer('PK', 'Plan.zip', 'application/zip'));
    const image = vi.fn(async () => fileAnswer('png', 'Plan.png', 'image/png'));
    const { note } = await open({ markdown, image });
    await choose('Markdown with images (.zip)');
    await waitFor(() => expect(saved.map((file) => file.name)).toEqual(['Plan.zip']));
    expect(markdown).toHaveBeenCalledWith(note.id, 'bundle');
    await choose('Image (dark)');
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(image).toHaveBeenCalledWith(note.id, 'dark');
  });

  it('shows the menu busy while a download runs, and usable again after', async () => {
    let answer: (response: Response) => void = () => undefined;
    const pdf = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    await open({ pdf });
    await choose('PDF');
    const busy = await screen.findByRole('button', { name: 'Exporting…' });
    expect(busy.closest('[aria-busy="true"]')).toBeTruthy();
    fireEvent.click(busy);
    expect(
      screen.getByRole('menuitem', { name: 'Image (light)' }).getAttribute('aria-disabled'),
    ).toBe('true');
    await act(async () => answer(fileAnswer('%PDF', 'Plan.pdf', 'application/pdf')));
    expect(await screen.findByRole('button', { name: 'Export' })).toBeTruthy();
    expect(saved.map((file) => file.name)).toEqual(['Plan.pdf']);
  });

  it('says a plan without PDF export refused it, with the way to the plan', async () => {
    const pdf = vi.fn(async () => {
      throw new AppError('FORBIDDEN', 'GET /export/note answered 403');
    });
    const { shell } = await open({ pdf });
    await choose('PDF');
    await waitFor(() => expect(shell.toast).toHaveBeenCalled());
    const [message, options] = vi.mocked(shell.toast).mock.calls[0] ?? [];
    expect(message).toBe('Exporting as PDF is not part of your plan.');
    expect(options?.action?.label).toBe('See your plan');
    options?.action?.run();
    expect(shell.openSettings).toHaveBeenCalledWith('plan');
    expect(saved).toEqual([]);
  });

  it('says the same of an image when the server names the plan (PLAN_REQUIRED)', async () => {
    const image = vi.fn(async () => {
      throw Object.assign(new Error('Image export is not in your plan'), {
        code: 'PLAN_REQUIRED',
        details: { feature: 'export_image' },
      });
    });
    const { shell } = await open({ image });
    await choose('Image (light)');
    await waitFor(() =>
      expect(shell.toast).toHaveBeenCalledWith(
        'Exporting as an image is not part of your plan.',
        expect.objectContaining({ type: 'warning', duration: 0 }),
      ),
    );
  });

  it('shows any other failure’s message in a toast', async () => {
    const markdown = vi.fn(async () => {
      throw new AppError('UNAVAILABLE', 'The server could not be reached');
    });
    const { shell } = await open({ markdown });
    await choose('Markdown');
    await waitFor(() =>
      expect(shell.toast).toHaveBeenCalledWith(
        'The export failed: The server could not be reached',
      ),
    );
  });
});

describe('fileNameOf', () => {
  const answer = (disposition: string) =>
    new Response('', { headers: { 'content-disposition': disposition } });

  it('prefers the UTF-8 name, then the plain one, then the fallback', () => {
    expect(
      fileNameOf(
        answer(`attachment; filename="_.md"; filename*=UTF-8''%E7%AC%94%E8%AE%B0.md`),
        'x',
      ),
    ).toBe('笔记.md');
    expect(fileNameOf(answer('attachment; filename="Plan \\"A\\".md"'), 'x')).toBe('Plan "A".md');
    expect(fileNameOf(new Response(''), 'Untitled.md')).toBe('Untitled.md');
  });
});
