import { AppError } from '@noted/api';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, makeNote, renderNotes } from '../../testing';

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const body = () => screen.getByLabelText('Note') as HTMLTextAreaElement;

/** Opens a note whose body is `text` at /notes/:id. */
const open = async (text = 'The sun rose slowly. Birds sang.') => {
  const note = makeNote({ title: 'Morning', note: text });
  const fake = fakeApi([note]);
  renderNotes(fake.api, `/notes/${note.id}`);
  // The first test also waits for the note page's code to load.
  await screen.findByLabelText('Title', {}, { timeout: 5000 });
  return { ...fake, note };
};

/** Selects `part` of the note's body, as the mouse or Shift+arrows would. */
const select = (part: string) => {
  const textarea = body();
  const from = textarea.value.indexOf(part);
  textarea.setSelectionRange(from, from + part.length);
  fireEvent.select(textarea);
};

const placeCursor = (at: number) => {
  const textarea = body();
  textarea.setSelectionRange(at, at);
  fireEvent.keyUp(textarea, { key: 'ArrowRight' });
};

const toolbar = () => screen.getByRole('toolbar', { name: 'AI writer' });
const answerText = () => document.querySelector('.ai-writer-answer')?.textContent;

describe('the AI writer', () => {
  it('offers its toolbar for a selection and streams the rewrite into a preview, token by token', async () => {
    const { ai, note, lastStream } = await open();
    expect(screen.queryByRole('toolbar', { name: 'AI writer' })).toBeNull();

    select('The sun rose slowly.');
    fireEvent.click(within(toolbar()).getByRole('button', { name: 'Rewrite' }));

    expect(ai.assist).toHaveBeenCalledWith(
      { action: 'rewrite', noteId: note.id, text: 'The sun rose slowly.' },
      expect.objectContaining({ signal: expect.any(AbortSignal) }),
    );
    const panel = screen.getByRole('region', { name: 'AI: rewrite' });
    expect(within(panel).getByRole('status').textContent).toBe('Writing…');
    const stream = lastStream();
    stream.tokens('Slowly,');
    expect(answerText()).toBe('Slowly,');
    stream.tokens(' the sun', ' came up.');
    expect(answerText()).toBe('Slowly, the sun came up.');
    expect(body().value).toBe('The sun rose slowly. Birds sang.');

    await stream.finish({ method: 'model', model: 'tiny-writer' });

    expect(within(panel).getByText('Written by the language model tiny-writer')).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Stop' })).toBeNull();
  });

  it('puts the answer in place of the selection on Accept, and saves the note', async () => {
    const { note, lastStream, stored } = await open();
    select('The sun rose slowly.');
    fireEvent.click(within(toolbar()).getByRole('button', { name: 'Shorten' }));
    lastStream().tokens('Sunrise.');
    await lastStream().finish();

    expect(screen.getByText('Accept puts this in place of the selected text.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));

    expect(body().value).toBe('Sunrise. Birds sang.');
    expect(screen.queryByRole('region', { name: 'AI: shorten' })).toBeNull();
    await vi.waitFor(() => expect(stored(note.id)?.note).toBe('Sunrise. Birds sang.'));
  });

  it('leaves the note as it was on Discard', async () => {
    const { note, lastStream, update } = await open();
    select('Birds sang.');
    fireEvent.click(within(toolbar()).getByRole('button', { name: 'Expand' }));
    lastStream().tokens('Birds sang all morning long.');
    await lastStream().finish();

    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));

    expect(screen.queryByRole('region', { name: 'AI: expand' })).toBeNull();
    expect(body().value).toBe(note.note);
    expect(update).not.toHaveBeenCalled();
  });

  it('stops on Stop: the request is aborted and what was written so far can still be used', async () => {
    const { lastStream } = await open();
    select('Birds sang.');
    fireEvent.click(within(toolbar()).getByRole('button', { name: 'Fix grammar' }));
    const stream = lastStream();
    stream.tokens('Birds were');

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    });

    expect(stream.signal?.aborted).toBe(true);
    expect(
      await screen.findByText('Stopped. You can still use what was written so far.'),
    ).toBeTruthy();
    stream.tokens(' singing');
    expect(answerText()).toBe('Birds were');
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect(body().value).toBe('The sun rose slowly. Birds were');
  });

  it('says plainly that a language model is needed, and how to configure one', async () => {
    const { lastStream } = await open();
    select('Birds sang.');
    fireEvent.click(within(toolbar()).getByRole('button', { name: 'Rewrite' }));

    await lastStream().fail(
      new AppError('AI_MODEL_REQUIRED', 'Writing and answers need a language model'),
    );

    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain('This needs a language model, and none is configured.');
    expect(notice.textContent).toContain('OPENAI_BASE_URL');
    expect(notice.textContent).toContain('OPENAI_CHAT_MODEL');
    expect(notice.textContent).not.toContain('could not answer');
    expect(within(notice).getByRole('link', { name: 'See the AI settings' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();
  });

  it('explains that a note with an excluded tag is not sent to AI', async () => {
    const { lastStream } = await open();
    select('Birds sang.');
    fireEvent.click(within(toolbar()).getByRole('button', { name: 'Rewrite' }));

    await lastStream().fail(new AppError('AI_EXCLUDED', 'The note has a tag excluded from AI'));

    expect((await screen.findByRole('alert')).textContent).toContain(
      'It has a tag you excluded from AI, so it is never sent to an AI provider.',
    );
  });

  it('asks which language to translate into and sends it', async () => {
    const { ai, note, lastStream } = await open();
    select('Birds sang.');
    fireEvent.click(within(toolbar()).getByRole('button', { name: 'Translate' }));

    const language = screen.getByLabelText('Translate into');
    expect(document.activeElement).toBe(language);
    expect(ai.assist).not.toHaveBeenCalled();
    fireEvent.change(language, { target: { value: 'French' } });
    fireEvent.click(screen.getByRole('button', { name: 'Translate' }));

    expect(ai.assist).toHaveBeenCalledWith(
      { action: 'translate', noteId: note.id, text: 'Birds sang.', language: 'French' },
      expect.anything(),
    );
    lastStream().tokens('Les oiseaux chantaient.');
    await lastStream().finish();
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect(body().value).toBe('The sun rose slowly. Les oiseaux chantaient.');
  });

  it('continues the text at the cursor, from the writer button with nothing selected', async () => {
    const { ai, note, lastStream } = await open('First part. Last part.');
    placeCursor('First part.'.length);

    fireEvent.click(screen.getByRole('button', { name: 'AI writer' }));
    expect(toolbar().textContent).toContain('On the whole note:');
    expect(document.activeElement).toBe(
      within(toolbar()).getByRole('button', { name: 'Continue' }),
    );
    fireEvent.click(within(toolbar()).getByRole('button', { name: 'Continue' }));

    expect(ai.assist).toHaveBeenCalledWith(
      { action: 'continue', noteId: note.id, text: 'First part.' },
      expect.anything(),
    );
    lastStream().tokens('Middle part.');
    await lastStream().finish({ method: 'model' });
    expect(screen.getByText('Accept inserts this at the cursor.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));

    expect(body().value).toBe('First part. Middle part. Last part.');
  });

  it('answers a question about the note and adds the answer at the end on Accept', async () => {
    const { ai, note, lastStream } = await open('Plan: paint the fence on Saturday.');
    fireEvent.click(screen.getByRole('button', { name: 'AI writer' }));
    fireEvent.click(within(toolbar()).getByRole('button', { name: 'Ask AI' }));

    fireEvent.change(screen.getByLabelText('Your question about this note'), {
      target: { value: 'When is the fence painted?' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Ask' }));

    expect(ai.askAi).toHaveBeenCalledWith(
      {
        question: 'When is the fence painted?',
        noteId: note.id,
        text: 'Plan: paint the fence on Saturday.',
      },
      expect.anything(),
    );
    lastStream().tokens('On Saturday.');
    await lastStream().finish({ method: 'extractive' });
    expect(
      screen.getByText('No language model: sentences taken from your notes as they are'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));

    expect(body().value).toBe('Plan: paint the fence on Saturday.\n\nOn Saturday.');
  });

  it('does not put an answer over text that was changed while it was written', async () => {
    const { lastStream } = await open();
    select('Birds sang.');
    fireEvent.click(within(toolbar()).getByRole('button', { name: 'Rewrite' }));
    lastStream().tokens('Birdsong.');
    await lastStream().finish();

    fireEvent.change(body(), { target: { value: 'Something else entirely.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));

    expect(body().value).toBe('Something else entirely.');
    expect(screen.getByRole('alert').textContent).toContain('has changed');
  });

  it('closes the answer with Escape, stopping it', async () => {
    const { lastStream } = await open();
    select('Birds sang.');
    fireEvent.click(within(toolbar()).getByRole('button', { name: 'Rewrite' }));
    const stream = lastStream();

    await act(async () => {
      fireEvent.keyDown(screen.getByRole('region', { name: 'AI: rewrite' }), { key: 'Escape' });
    });

    expect(stream.signal?.aborted).toBe(true);
    expect(screen.queryByRole('region', { name: 'AI: rewrite' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'AI writer' }));
  });
});
