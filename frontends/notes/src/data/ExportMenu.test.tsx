import { AppError, type Note } from '@noted/api';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NotesApi } from '../api';
import {
  chineseNotesSets,
  createNotesTestI18n,
  fakeApi,
  freePlanAccount,
  makeNote,
  renderNotes,
} from '../testing';
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

const open = async (
  exportApi: Partial<NotesApi['export']>,
  note: Note = makeNote(),
  {
    account,
    i18n,
  }: {
    account?: ReturnType<typeof freePlanAccount>;
    i18n?: ReturnType<typeof createNotesTestI18n>;
  } = {},
) => {
  const fake = fakeApi([note]);
  const api = { ...fake.api, export: exportApi } as NotesApi;
  const rendered = renderNotes(api, `/notes/${note.id}`, i18n, account ? { account } : {});
  await screen.findByLabelText(i18n ? '标题' : 'Title');
  return { ...rendered, note };
};

/** The entries of the open Export menu, as assistive technology names them. */
const entries = () =>
  screen.getAllByRole('menuitem').map((item) => ({
    name: item.getAttribute('aria-label') ?? item.textContent,
    disabled: item.getAttribute('aria-disabled') === 'true',
    locked: item.querySelector('.ui-menu-item-mark') !== null,
  }));

const openMenu = async (name = 'Export') => {
  fireEvent.click(screen.getByRole('button', { name }));
  await screen.findAllByRole('menuitem');
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

describe('the Export menu and the plan', () => {
  it('on a server without payments and its defaults, marks nothing: every format is there', async () => {
    const pdf = vi.fn(async () => fileAnswer('%PDF', 'Plan.pdf', 'application/pdf'));
    const { shell } = await open({ pdf }, makeNote(), {
      account: freePlanAccount({ payments: false }),
    });
    await openMenu();
    expect(entries()).toEqual(
      ['PDF', 'Image (light)', 'Image (dark)', 'Markdown', 'Markdown with images (.zip)'].map(
        (name) => ({ name, disabled: false, locked: false }),
      ),
    );
    fireEvent.click(screen.getByRole('menuitem', { name: 'PDF' }));
    await waitFor(() => expect(saved.map((file) => file.name)).toEqual(['Plan.pdf']));
    expect(shell.openSettings).not.toHaveBeenCalled();
  });

  it('with payments, locks what the free plan leaves out before it is chosen, and opens the plan', async () => {
    const pdf = vi.fn(async () => fileAnswer('%PDF', 'Plan.pdf', 'application/pdf'));
    const { shell } = await open({ pdf }, makeNote(), {
      account: freePlanAccount({ payments: true }),
    });
    await openMenu();
    expect(entries()).toEqual([
      { name: 'PDF, in paid plans', disabled: false, locked: true },
      { name: 'Image (light), in paid plans', disabled: false, locked: true },
      { name: 'Image (dark), in paid plans', disabled: false, locked: true },
      { name: 'Markdown', disabled: false, locked: false },
      { name: 'Markdown with images (.zip)', disabled: false, locked: false },
    ]);
    expect(screen.getAllByText('In paid plans')).toHaveLength(3);
    fireEvent.click(screen.getByRole('menuitem', { name: 'PDF, in paid plans' }));
    expect(shell.openSettings).toHaveBeenCalledWith('plan');
    expect(pdf).not.toHaveBeenCalled();
  });

  it('without payments, disables what the operator left out, saying it is not offered here', async () => {
    const pdf = vi.fn(async () => fileAnswer('%PDF', 'Plan.pdf', 'application/pdf'));
    const { shell } = await open({ pdf }, makeNote(), {
      account: freePlanAccount({ payments: false, limits: { FREE_EXPORT_PDF: false } }),
    });
    await openMenu();
    expect(entries().slice(0, 2)).toEqual([
      { name: 'PDF, not offered on this server', disabled: true, locked: true },
      { name: 'Image (light)', disabled: false, locked: false },
    ]);
    expect(screen.getByText('Not offered on this server')).toBeTruthy();
    fireEvent.click(screen.getByRole('menuitem', { name: 'PDF, not offered on this server' }));
    expect(pdf).not.toHaveBeenCalled();
    expect(shell.openSettings).not.toHaveBeenCalled();
    expect(shell.offerUpgrade).not.toHaveBeenCalled();
    // Still reached with the arrow keys, so its reason is heard.
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Home' });
    expect(document.activeElement?.getAttribute('aria-label')).toBe(
      'PDF, not offered on this server',
    );
  });

  it('says a refusal on a server without payments is the server’s, with no way to a plan', async () => {
    const image = vi.fn(async () => {
      throw new AppError('PLAN_REQUIRED', 'Image export is not in your plan');
    });
    // The account does not know of the limit (it was set since): the server refuses.
    const { shell } = await open({ image }, makeNote(), {
      account: freePlanAccount({ payments: false }),
    });
    await choose('Image (light)');
    await waitFor(() =>
      expect(shell.toast).toHaveBeenCalledWith('This server does not offer export as an image.', {
        type: 'warning',
      }),
    );
  });

  it('says the marks in Chinese', async () => {
    await open({}, makeNote(), {
      account: freePlanAccount({ payments: true }),
      i18n: createNotesTestI18n(chineseNotesSets),
    });
    await openMenu('导出');
    expect(entries()[0]).toEqual({ name: 'PDF，付费套餐可用', disabled: false, locked: true });
    expect(screen.getAllByText('付费套餐可用')).toHaveLength(3);
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
