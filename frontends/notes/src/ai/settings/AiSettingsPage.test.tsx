import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, localAiSettings, makeNote, renderNotes } from '../../testing';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const openSettings = async (fake: ReturnType<typeof fakeApi>) => {
  renderNotes(fake.api, '/settings/ai');
  await screen.findByRole('heading', { name: 'AI settings' }, { timeout: 5000 });
  return screen.findByRole('region', { name: 'Provider' });
};

const definition = (region: HTMLElement, term: string) =>
  within(region).getByText(term).nextElementSibling?.textContent;

describe('the AI settings page', () => {
  it('says in plain words that no model is configured, how to add one, and what works without', async () => {
    const fake = fakeApi([], {
      aiSettings: {
        models: { ...localAiSettings().models, retrieval: 'multilingual-e5-small-q4' },
        index: { notes: 42, pending: 3, retrievalPending: 7 },
      },
    });
    const provider = await openSettings(fake);

    expect(within(provider).getByText(/Built in: no language model/)).toBeTruthy();
    expect(provider.textContent).toContain('OPENAI_BASE_URL');
    expect(definition(provider, 'Writing and answers')).toBe('Not configured');
    expect(definition(provider, 'Meaning (embeddings)')).toBe('local-hash-256');
    expect(definition(provider, 'Meaning, second model (search)')).toBe('multilingual-e5-small-q4');
    const features = screen.getByRole('region', { name: 'What each feature does here' });
    expect(definition(features, 'AI writer')).toBe(
      'Not available: it needs a model that is not configured',
    );
    expect(definition(features, 'Ask your notes')).toBe(
      "Works without a model, from your notes' own words",
    );
    const usage = screen.getByRole('region', { name: 'Use this month' });
    expect(usage.textContent).toContain('42 notes are indexed for search by meaning.');
    expect(usage.textContent).toContain('3 are waiting to be indexed again.');
    expect(usage.textContent).toContain(
      '7 passages are still waiting for the second model (multilingual-e5-small-q4); search finds them by the first meanwhile.',
    );
  });

  it('names the models of an OpenAI-compatible provider and this month’s tokens', async () => {
    const fake = fakeApi([], {
      aiSettings: {
        ...localAiSettings(),
        provider: 'openai',
        models: {
          chat: 'gpt-4o-mini',
          embeddings: 'text-embedding-3-small',
          retrieval: null,
          transcription: null,
          vision: 'gpt-4o',
        },
        features: {
          ...localAiSettings().features,
          writer: 'model',
          chat: 'model',
          search: 'model',
        },
        usage: { month: '2026-01', promptTokens: 12345, completionTokens: 678 },
      },
    });
    const provider = await openSettings(fake);

    expect(provider.textContent).not.toContain('OPENAI_BASE_URL');
    expect(definition(provider, 'Writing and answers')).toBe('gpt-4o-mini');
    expect(definition(provider, 'Transcription')).toBe('Not configured');
    const features = screen.getByRole('region', { name: 'What each feature does here' });
    expect(definition(features, 'AI writer')).toBe('Works with the language model');
    expect(definition(features, 'Search by meaning')).toBe(
      'Works by meaning, with the embedding models above',
    );
    expect(screen.getByRole('region', { name: 'Use this month' }).textContent).toContain(
      'In 2026-01: 12,345 tokens sent to the model, 678 tokens written by it.',
    );
  });

  it('saves the tags chosen to keep out of AI, from the user’s tags', async () => {
    const fake = fakeApi(
      [makeNote({ tags: ['work', 'health'] }), makeNote({ tags: ['journal'] })],
      { aiSettings: { excludedTags: ['health'] } },
    );
    await openSettings(fake);
    const excluded = screen.getByRole('region', { name: 'Tags kept out of AI' });
    expect(excluded.textContent).toContain(
      'Notes with any of these tags are never sent to an AI provider',
    );
    const health = await within(excluded).findByRole('checkbox', { name: '#health' });
    expect((health as HTMLInputElement).checked).toBe(true);

    fireEvent.click(within(excluded).getByRole('checkbox', { name: '#journal' }));
    fireEvent.click(within(excluded).getByRole('button', { name: 'Save' }));

    expect(await within(excluded).findByText('Saved.')).toBeTruthy();
    expect(fake.ai.updateSettings).toHaveBeenCalledWith({ excludedTags: ['health', 'journal'] });
    expect(
      (within(excluded).getByRole('checkbox', { name: '#work' }) as HTMLInputElement).checked,
    ).toBe(false);
  });
});
