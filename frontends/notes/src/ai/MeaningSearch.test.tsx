import type { AiHit, Note } from '@noted/api';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { address, fakeApi, listed, makeNote, renderNotes } from '../testing';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const hit = (note: Note, sources: AiHit['sources'], snippet: string, nearest = false): AiHit => ({
  note: { id: note.id, title: note.title, snippet, tags: note.tags, updatedAt: note.updatedAt },
  score: 0.5,
  sources,
  nearest,
});

describe('search by meaning in the list', () => {
  it('lists the notes found by meaning, best first, saying which ranking found each', async () => {
    const dog = makeNote({ title: 'Walking the dog', note: 'Rex needs a long walk' });
    const vet = makeNote({ title: 'Vet visit', note: 'Puppy shots on Monday' });
    const taxes = makeNote({ title: 'Taxes', note: 'File in April' });
    const fake = fakeApi([dog, vet, taxes]);
    fake.ai.search.mockResolvedValue(
      listed([
        hit(vet, ['semantic'], 'Puppy shots on Monday'),
        hit(dog, ['fulltext', 'semantic'], 'Rex needs a long walk'),
      ]),
    );
    renderNotes(fake.api, '/?q=puppy');
    await screen.findByRole('heading', { name: 'Vet visit' });
    expect(fake.ai.search).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('checkbox', { name: 'Search by meaning' }));

    const results = await screen.findByRole('region', { name: 'Found by meaning' });
    await vi.waitFor(() => expect(within(results).getAllByRole('link')).toHaveLength(2));
    expect(fake.ai.search).toHaveBeenCalledWith(
      { query: 'puppy', limit: 10 },
      { signal: expect.any(AbortSignal) },
    );
    expect(address()).toBe('/?q=puppy&meaning=1');
    const [first, second] = [...results.querySelectorAll('ol > li')] as [HTMLElement, HTMLElement];
    expect(within(first).getByRole('link').textContent).toBe('Vet visit');
    expect(within(first).getByRole('list', { name: 'Found by' }).textContent).toBe('Meaning');
    expect(within(second).getByRole('list', { name: 'Found by' }).textContent).toBe('WordsMeaning');
    // One list: the notes found by meaning stand for the search, and the header counts them.
    expect(screen.queryByRole('article', { name: 'Vet visit' })).toBeNull();
    await screen.findByText('2 notes close in meaning');
    expect(screen.queryByText(/No notes match/)).toBeNull();

    fireEvent.click(within(results).getByRole('link', { name: 'Walking the dog' }));
    expect(address()).toBe(`/notes/${dog.id}`);
  });

  it('lists the nearest notes, saying none is clearly about the query, rather than nothing', async () => {
    const groceries = makeNote({ title: 'Groceries', note: '- oat milk\n- eggs' });
    const fake = fakeApi([groceries, makeNote({ title: 'Taxes' })]);
    fake.ai.search.mockResolvedValue(listed([hit(groceries, ['semantic'], 'oat milk eggs', true)]));
    renderNotes(fake.api, '/?q=what+to+buy&meaning=1');

    const results = await screen.findByRole('region', { name: 'Found by meaning' });
    await within(results).findByText(
      'Nothing in your notes is clearly about “what to buy”. The nearest in meaning:',
    );
    expect(within(results).getByRole('link').textContent).toBe('Groceries');
    // Listed, not found: the header does not count it as a match.
    await screen.findByText('No note close in meaning');
  });

  it('keeps the box ticked when it is ticked while the words typed are still being settled', async () => {
    const fake = fakeApi([makeNote({ title: 'Groceries' })]);
    renderNotes(fake.api, '/');
    await screen.findByRole('heading', { name: 'Groceries' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search notes' }), {
      target: { value: 'milk' },
    });
    // Ticked before the typed words reach the address (the search box waits a moment).
    fireEvent.click(screen.getByRole('checkbox', { name: 'Search by meaning' }));
    await vi.waitFor(() => expect(address()).toBe('/?meaning=1&q=milk'));
    expect(
      (screen.getByRole('checkbox', { name: 'Search by meaning' }) as HTMLInputElement).checked,
    ).toBe(true);
  });

  it('asks for words when there is no search yet, and says when nothing is found, once', async () => {
    const fake = fakeApi([makeNote({ title: 'Groceries' })]);
    renderNotes(fake.api, '/?meaning=1');
    expect(
      await screen.findByText('Type what you are looking for, in your own words.'),
    ).toBeTruthy();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search notes' }), {
      target: { value: 'holiday' },
    });

    expect(
      await screen.findByRole(
        'heading',
        { name: 'Nothing in your notes is close in meaning to “holiday”.' },
        { timeout: 2000 },
      ),
    ).toBeTruthy();
    await screen.findByText('No note close in meaning');
    // The list's own empty state (words) does not contradict it.
    expect(screen.queryByRole('article', { name: 'Groceries' })).toBeNull();
    expect(screen.getAllByRole('heading', { name: /Nothing|No notes/ })).toHaveLength(1);
  });
});
