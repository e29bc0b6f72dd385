import { AppError, type PublicNote } from '@noted/api';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SharedNote } from './SharedNote';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const shared: PublicNote = {
  title: 'Bread',
  note: 'Flour\nWater\n<script>alert(1)</script>',
  tags: ['food'],
  images: [],
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
};

describe('SharedNote', () => {
  it('shows the shared note, its body as text', async () => {
    const note = vi.fn(async () => shared);
    render(<SharedNote api={{ public: { note } }} publicId="AAAAAAAAAAAAAAAAAAAAAA" />);
    expect(await screen.findByRole('heading', { name: 'Bread' })).toBeTruthy();
    expect(note).toHaveBeenCalledWith('AAAAAAAAAAAAAAAAAAAAAA');
    expect(screen.getByText(/<script>alert\(1\)<\/script>/)).toBeTruthy();
    expect(document.querySelector('script')).toBeNull();
    expect(screen.getByLabelText('Tags').textContent).toBe('#food');
  });

  it('says when the note is not shared (any more)', async () => {
    const note = vi.fn(async () => {
      throw new AppError('NOT_FOUND', 'This note is not shared, or no longer');
    });
    render(<SharedNote api={{ public: { note } }} publicId="AAAAAAAAAAAAAAAAAAAAAA" />);
    expect(await screen.findByRole('heading', { name: 'This note is not shared' })).toBeTruthy();
  });

  it('shows other failures as an error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const note = vi.fn(async () => {
      throw new AppError('UNAVAILABLE', 'Try again soon');
    });
    render(<SharedNote api={{ public: { note } }} publicId="AAAAAAAAAAAAAAAAAAAAAA" />);
    expect((await screen.findByRole('alert')).textContent).toContain('Try again soon');
  });
});
