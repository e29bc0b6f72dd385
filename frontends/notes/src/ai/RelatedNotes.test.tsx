import { AppError } from '@noted/api';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { address, fakeApi, listed, makeNote, renderNotes } from '../testing';

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** The panel, once the note page is there (its code loads first). */
const related = () =>
  screen.findByRole('complementary', { name: 'Related notes' }, { timeout: 5000 });

describe('related notes beside a note', () => {
  it('lists the notes close in meaning, with their passage, each opening its note', async () => {
    const note = makeNote({ title: 'Garden plan', note: 'Tomatoes by the wall', tags: ['garden'] });
    const other = makeNote({
      title: 'Seeds to buy',
      note: 'Tomato seeds, basil',
      tags: ['garden'],
    });
    const fake = fakeApi([note, other, makeNote({ title: 'Taxes', tags: ['money'] })]);
    renderNotes(fake.api, `/notes/${note.id}`);

    const link = await within(await related()).findByRole('link', { name: 'Seeds to buy' });
    expect(fake.ai.related).toHaveBeenCalledWith({ noteId: note.id, limit: 5 });
    expect(within(await related()).getByText('Tomato seeds, basil')).toBeTruthy();
    expect(within(await related()).queryByText('Taxes')).toBeNull();

    fireEvent.click(link);

    expect(address()).toBe(`/notes/${other.id}`);
    expect(((await screen.findByLabelText('Title')) as HTMLInputElement).value).toBe(
      'Seeds to buy',
    );
  });

  it('says when there is nothing related yet', async () => {
    const note = makeNote({ title: 'Alone' });
    renderNotes(fakeApi([note]).api, `/notes/${note.id}`);
    expect(await within(await related()).findByText('No related notes yet.')).toBeTruthy();
  });

  it('looks again once the note is saved', async () => {
    const note = makeNote({ title: 'Draft', note: 'About nothing yet' });
    const fake = fakeApi([note]);
    renderNotes(fake.api, `/notes/${note.id}`);
    await within(await related()).findByText('No related notes yet.');
    const found = makeNote({ title: 'Bees' });
    fake.ai.related.mockResolvedValueOnce(
      listed([
        {
          note: {
            id: found.id,
            title: 'Bees',
            snippet: 'Hives',
            tags: [],
            updatedAt: found.updatedAt,
          },
          score: 1,
          sources: ['semantic'],
          nearest: false,
        },
      ]),
    );

    const body = screen.getByLabelText('Note');
    fireEvent.change(body, { target: { value: 'About bees' } });
    fireEvent.blur(body);

    expect(await within(await related()).findByRole('link', { name: 'Bees' })).toBeTruthy();
    expect(fake.ai.related).toHaveBeenCalledTimes(2);
  });

  it('explains that a note kept out of AI has no related notes looked up', async () => {
    const note = makeNote({ title: 'Private', tags: ['private'] });
    const fake = fakeApi([note]);
    fake.ai.related.mockRejectedValueOnce(new AppError('AI_EXCLUDED', 'Excluded from AI'));
    renderNotes(fake.api, `/notes/${note.id}`);

    expect((await within(await related()).findByRole('alert')).textContent).toContain(
      'It has a tag you excluded from AI',
    );
  });
});
