import { AppError, type PublicNote } from '@noted/api';
import { createHostedTestShell, createTestI18n } from '@noted/ui/testing';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SharedNote } from './SharedNote';
import { chineseNotesSets, createNotesTestI18n } from './testing';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const PUBLIC_ID = 'AAAAAAAAAAAAAAAAAAAAAA';
const imageUrl = `/public/note/${PUBLIC_ID}/images/a.webp`;

const shared: PublicNote = {
  title: 'Bread',
  note: '# Dough\n\n- [x] Flour\n- [ ] Water\n\nSee [[Oven]].\n\n<script>alert(1)</script>',
  tags: ['food'],
  images: [imageUrl],
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
};

const renderShared = (note: () => Promise<PublicNote>, i18n: I18n = createNotesTestI18n()) => {
  const { shell, Hosts } = createHostedTestShell(i18n);
  const read = vi.fn(note);
  render(
    <>
      <SharedNote
        api={{ public: { note: read, imageUrl: vi.fn() } }}
        publicId={PUBLIC_ID}
        shell={shell}
      />
      <Hosts />
    </>,
  );
  return { read, shell };
};

describe('SharedNote', () => {
  it('renders the shared Markdown read-only, never its raw HTML', async () => {
    const { read } = renderShared(async () => shared);
    expect(await screen.findByRole('heading', { name: 'Bread' })).toBeTruthy();
    expect(read).toHaveBeenCalledWith(PUBLIC_ID);
    expect(screen.getByRole('heading', { name: 'Dough' })).toBeTruthy();
    const flour = screen.getByRole('checkbox', { name: 'Flour' }) as HTMLInputElement;
    expect(flour.checked).toBe(true);
    expect(flour.disabled).toBe(true);
    expect(screen.getByText('Oven').closest('a')).toBeNull();
    expect(document.querySelector('script')).toBeNull();
    expect(screen.getByLabelText('Tags').textContent).toBe('#food');
  });

  it('shows the images and opens one in the preview', async () => {
    const { shell } = renderShared(async () => shared);
    const images = await screen.findByRole('list', { name: 'Images' });
    expect(within(images).getByRole('img').getAttribute('src')).toBe(imageUrl);
    fireEvent.click(within(images).getByRole('button', { name: 'Open image 1' }));
    expect(shell.previewImage).toHaveBeenCalledWith(imageUrl, { title: 'Image 1 of Bread' });
    expect(screen.getByRole('dialog', { name: 'Image preview' })).toBeTruthy();
  });

  it('says when the note is not shared (any more)', async () => {
    renderShared(async () => {
      throw new AppError('NOT_FOUND', 'This note is not shared, or no longer');
    });
    expect(await screen.findByRole('heading', { name: 'This note is not shared' })).toBeTruthy();
  });

  it('shows other failures as an error with a way to try again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let fail = true;
    const { read } = renderShared(async () => {
      if (fail) throw new AppError('UNAVAILABLE', 'Try again soon');
      return shared;
    });
    expect((await screen.findByRole('alert')).textContent).toContain('Try again soon');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Bread' })).toBeTruthy();
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('reads in Chinese, with the date written the Chinese way', async () => {
    const { shell } = renderShared(async () => shared, createNotesTestI18n(chineseNotesSets));
    expect(await screen.findByRole('heading', { name: 'Bread' })).toBeTruthy();
    expect(screen.getByText(/^更新于/).querySelector('time')?.textContent).toMatch(/2026年11月/);
    const images = screen.getByRole('list', { name: '图片' });
    fireEvent.click(within(images).getByRole('button', { name: '打开图片 1' }));
    expect(shell.previewImage).toHaveBeenCalledWith(imageUrl, {
      title: '“Bread”的第 1 张图片',
    });
  });

  it('fetches its message set when the page has none yet', async () => {
    await act(async () => {
      renderShared(
        async () => {
          throw new AppError('NOT_FOUND', 'This note is not shared, or no longer');
        },
        createTestI18n({}, { locale: 'zh', sets: {} }),
      );
    });
    expect(await screen.findByRole('heading', { name: '这条笔记没有被分享' })).toBeTruthy();
  });
});
