import type { Note } from '@noted/api';
import { AppError } from '@noted/api';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createHostedTestShell, TestShell } from '@noted/ui/testing';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NotesApi } from '../api';
import { createNotesTestI18n } from '../testing';
import { NoteImages } from './NoteImages';

const NOTE_ID = '00000000-0000-4000-8000-000000000001';
const imageUrl = (name: string) => `/api/notes/${NOTE_ID}/images/${name}.webp`;

const makeNote = (images: string[] = []): Note => ({
  id: NOTE_ID,
  title: 'Trip',
  note: 'Photos of the trip',
  tags: [],
  images,
  isPinned: false,
  publicId: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
});

const bytes = (size: number, type: string, name = 'photo.jpg') =>
  new File([new Uint8Array(size)], name, { type });

let objectUrls = 0;
const created: string[] = [];
const revoked: string[] = [];

beforeEach(() => {
  objectUrls = 0;
  created.length = 0;
  revoked.length = 0;
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => {
    objectUrls += 1;
    const url = `blob:http://localhost/${objectUrls}`;
    created.push(url);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url: string) => {
    revoked.push(url);
  });
  vi.spyOn(window.history, 'back').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** The image calls of the ApiClient, over an in-memory note. */
const fakeImages = (initial: string[] = []) => {
  let note = makeNote(initial);
  const images: NotesApi['images'] = {
    read: vi.fn(async (url: string) => new Blob([url], { type: 'image/webp' })),
    upload: vi.fn(async (_noteId: string, image: Blob, fileName = 'image') => {
      const url = imageUrl(`${fileName}-${note.images.length}`);
      note = { ...note, images: [...note.images, url] };
      return { image: { url, width: 10, height: 10, bytes: image.size }, note };
    }),
    remove: vi.fn(async (_noteId: string, url: string) => {
      note = { ...note, images: note.images.filter((u) => u !== url) };
      return note;
    }),
  };
  return { images, current: () => note };
};

/** Renders the gallery the way a page does: the note it shows follows onChanged. */
const renderGallery = (
  api: { images: NotesApi['images'] },
  note: Note,
  compress?: (file: File) => Promise<Blob>,
) => {
  const changes: Note[] = [];
  const { shell, Hosts } = createHostedTestShell(createNotesTestI18n());
  const inShell = (tree: ReactNode) => (
    <TestShell shell={shell}>
      {tree}
      <Hosts />
    </TestShell>
  );
  const view = render(
    inShell(
      <NoteImages
        api={api}
        note={note}
        compress={compress}
        onChanged={(changed) => {
          changes.push(changed);
          view.rerender(
            inShell(
              <NoteImages
                api={api}
                note={changed}
                compress={compress}
                onChanged={() => undefined}
              />,
            ),
          );
        }}
      />,
    ),
  );
  return { ...view, changes, shell };
};

describe('NoteImages', () => {
  it('shows each image through an object URL, and no gallery when there are none', async () => {
    const { images } = fakeImages([imageUrl('a'), imageUrl('b')]);
    renderGallery({ images }, makeNote([imageUrl('a'), imageUrl('b')]));
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toEqual([
      'Loading image 1…',
      'Loading image 2…',
    ]);
    const second = await screen.findByRole('img', { name: 'Note image 2' });
    expect(second.getAttribute('src')).toMatch(/^blob:/);
    expect(images.read).toHaveBeenCalledWith(imageUrl('a'));
    expect(images.read).toHaveBeenCalledWith(imageUrl('b'));
    cleanup();

    renderGallery({ images }, makeNote());
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.getByLabelText('Add image')).toBeTruthy();
  });

  it('shows an error tile for an image that cannot be read, with a retry', async () => {
    const { images } = fakeImages();
    vi.mocked(images.read).mockRejectedValueOnce(new AppError('NOT_FOUND', 'No such image'));
    renderGallery({ images }, makeNote([imageUrl('a')]));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Image 1 could not be loaded: No such image');
    fireEvent.click(screen.getByRole('button', { name: 'Retry image 1' }));
    expect(await screen.findByRole('img', { name: 'Note image 1' })).toBeTruthy();
  });

  it('revokes the object URLs on unmount', async () => {
    const { images } = fakeImages();
    const { unmount } = renderGallery({ images }, makeNote([imageUrl('a'), imageUrl('b')]));
    await screen.findByRole('img', { name: 'Note image 2' });
    expect(created).toHaveLength(2);
    unmount();
    expect(revoked.sort()).toEqual([...created].sort());
  });

  it('sends the compressed copy of a picked image and shows the new note', async () => {
    const { images } = fakeImages();
    const small = new Blob([new Uint8Array(100)], { type: 'image/jpeg' });
    const compress = vi.fn(async () => small);
    const { changes } = renderGallery({ images }, makeNote(), compress);
    const original = bytes(5000, 'image/jpeg');
    fireEvent.change(screen.getByLabelText('Add image'), { target: { files: [original] } });

    expect(await screen.findByRole('img', { name: 'Note image 1' })).toBeTruthy();
    expect(compress).toHaveBeenCalledWith(original);
    expect(images.upload).toHaveBeenCalledWith(NOTE_ID, small, 'photo.jpg');
    expect(changes.at(-1)?.images).toHaveLength(1);
    expect(screen.queryByRole('list', { name: 'Uploads' })).toBeNull();
  });

  it('sends the original when compression fails or does not make it smaller', async () => {
    const { images } = fakeImages();
    const compress = vi
      .fn<(file: File) => Promise<Blob>>()
      .mockRejectedValueOnce(new Error('no canvas'))
      .mockResolvedValueOnce(new Blob([new Uint8Array(9000)], { type: 'image/png' }));
    renderGallery({ images }, makeNote(), compress);
    const first = bytes(3000, 'image/jpeg', 'one.jpg');
    const second = bytes(3000, 'image/png', 'two.png');
    fireEvent.change(screen.getByLabelText('Add image'), { target: { files: [first, second] } });

    await screen.findByRole('img', { name: 'Note image 2' });
    expect(vi.mocked(images.upload).mock.calls.map((call) => call[1])).toEqual([first, second]);
    expect(console.warn).toHaveBeenCalled();
  });

  it('leaves GIFs as they are', async () => {
    const { images } = fakeImages();
    const compress = vi.fn(async () => new Blob(['x']));
    renderGallery({ images }, makeNote(), compress);
    const gif = bytes(3000, 'image/gif', 'loop.gif');
    fireEvent.change(screen.getByLabelText('Add image'), { target: { files: [gif] } });
    await screen.findByRole('img', { name: 'Note image 1' });
    expect(compress).not.toHaveBeenCalled();
    expect(images.upload).toHaveBeenCalledWith(NOTE_ID, gif, 'loop.gif');
  });

  it('shows the status of each file and the error the server answers', async () => {
    const { images } = fakeImages();
    let answer: (() => void) | undefined;
    vi.mocked(images.upload).mockImplementationOnce(
      () =>
        new Promise((_resolve, reject) => {
          answer = () => reject(new AppError('NOT_AN_IMAGE', 'The file given is not an image'));
        }),
    );
    const { changes } = renderGallery({ images }, makeNote(), async (file) => file);
    fireEvent.change(screen.getByLabelText('Add image'), {
      target: { files: [bytes(10, 'image/png', 'fake.png')] },
    });
    const uploads = await screen.findByRole('list', { name: 'Uploads' });
    await waitFor(() => expect(within(uploads).getByText('Uploading…')).toBeTruthy());
    await act(async () => answer?.());
    expect(within(uploads).getByText('The file given is not an image')).toBeTruthy();
    expect(changes).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss the error of fake.png' }));
    expect(screen.queryByRole('list', { name: 'Uploads' })).toBeNull();
  });

  it('takes image files dropped on the gallery, and refuses other files unsent', async () => {
    const { images } = fakeImages();
    renderGallery({ images }, makeNote(), async (file) => file);
    const gallery = screen.getByRole('region', { name: 'Images' });
    const photo = bytes(10, 'image/png', 'dropped.png');
    const text = new File(['hello'], 'notes.txt', { type: 'text/plain' });
    fireEvent.dragOver(gallery, { dataTransfer: { types: ['Files'], files: [photo, text] } });
    fireEvent.drop(gallery, { dataTransfer: { types: ['Files'], files: [photo, text] } });

    expect(await screen.findByRole('img', { name: 'Note image 1' })).toBeTruthy();
    expect(images.upload).toHaveBeenCalledTimes(1);
    expect(images.upload).toHaveBeenCalledWith(NOTE_ID, photo, 'dropped.png');
    const uploads = screen.getByRole('list', { name: 'Uploads' });
    expect(uploads.textContent).toContain('notes.txt The file given is not an image');
  });

  it('removes an image after a confirmation', async () => {
    const { images } = fakeImages([imageUrl('a'), imageUrl('b')]);
    const { changes } = renderGallery({ images }, makeNote([imageUrl('a'), imageUrl('b')]));
    await screen.findByRole('img', { name: 'Note image 1' });

    fireEvent.click(screen.getByRole('button', { name: 'Remove image 1' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Remove image 1?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(images.remove).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Remove image 1' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog', { name: 'Remove image 1?' })).getByRole(
        'button',
        { name: 'Remove' },
      ),
    );
    await waitFor(() => expect(changes).toHaveLength(1));
    expect(images.remove).toHaveBeenCalledWith(NOTE_ID, imageUrl('a'));
    expect(changes[0]?.images).toEqual([imageUrl('b')]);
  });

  it('says when an image cannot be removed', async () => {
    const { images } = fakeImages();
    vi.mocked(images.remove).mockRejectedValueOnce(new AppError('INTERNAL', 'Disk full'));
    renderGallery({ images }, makeNote([imageUrl('a')]));
    await screen.findByRole('img', { name: 'Note image 1' });
    fireEvent.click(screen.getByRole('button', { name: 'Remove image 1' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The image could not be removed: Disk full',
    );
  });

  it('opens the preview from an image and gives focus back when it closes', async () => {
    const { images } = fakeImages();
    renderGallery({ images }, makeNote([imageUrl('a')]));
    await screen.findByRole('img', { name: 'Note image 1' });
    const opener = screen.getByRole('button', { name: 'Open image 1' });
    opener.focus();
    fireEvent.click(opener);

    const dialog = screen.getByRole('dialog', { name: 'Image preview' });
    expect(within(dialog).getByRole('img', { name: 'Note image 1' }).getAttribute('src')).toBe(
      created[0],
    );
    expect(dialog.contains(document.activeElement)).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});
