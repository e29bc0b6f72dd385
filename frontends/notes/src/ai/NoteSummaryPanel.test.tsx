import { AppError } from '@noted/api';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, makeNote, renderNotes } from '../testing';

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const openNote = async (
  note = makeNote({ title: 'Trip', note: 'We leave at six. Pack light.' }),
) => {
  const fake = fakeApi([note]);
  renderNotes(fake.api, `/notes/${note.id}`);
  await screen.findByLabelText('Title');
  return { ...fake, note };
};

describe('Summarize on the note page', () => {
  it('shows the summary and says it was taken from the note without a model', async () => {
    const { ai, note } = await openNote();

    fireEvent.click(screen.getByRole('button', { name: 'Summarize' }));

    const summary = screen.getByRole('region', { name: 'Summary' });
    expect(await within(summary).findByText('We leave at six.')).toBeTruthy();
    expect(ai.summarizeNote).toHaveBeenCalledWith(note.id);
    expect(
      within(summary).getByText('No language model: sentences taken from your notes as they are'),
    ).toBeTruthy();

    fireEvent.click(within(summary).getByRole('button', { name: 'Hide summary' }));
    expect(screen.queryByRole('region', { name: 'Summary' })).toBeNull();
  });

  it('names the model that wrote it', async () => {
    const { ai, note } = await openNote();
    ai.summarizeNote.mockResolvedValueOnce({
      noteId: note.id,
      summary: 'An early start, light bags.',
      method: 'model',
      model: 'summary-model',
      cached: true,
      generatedAt: '2026-01-01T00:00:00.000Z',
    });

    fireEvent.click(screen.getByRole('button', { name: 'Summarize' }));

    expect(await screen.findByText('An early start, light bags.')).toBeTruthy();
    expect(screen.getByText('Written by the language model summary-model')).toBeTruthy();
  });

  it('offers Retry when summarizing failed', async () => {
    const { ai } = await openNote();
    ai.summarizeNote.mockRejectedValueOnce(new AppError('UNAVAILABLE', 'The ai service is down'));

    fireEvent.click(screen.getByRole('button', { name: 'Summarize' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The AI could not answer: The ai service is down');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));

    expect(await screen.findByText('We leave at six.')).toBeTruthy();
  });
});
