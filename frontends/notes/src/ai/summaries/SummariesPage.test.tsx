import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { address, fakeApi, makeNote, renderNotes } from '../../testing';
import { browserTimeZone } from './period';

beforeEach(() => {
  // Only the clock is fixed, on Wednesday 14 January 2026 where the browser is.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 0, 14, 12));
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const at = (iso: string) => ({ createdAt: iso, updatedAt: iso });

const openSummaries = async (fake: ReturnType<typeof fakeApi>, path = '/summaries') => {
  renderNotes(fake.api, path);
  await screen.findByRole('heading', { name: 'Summaries' }, { timeout: 5000 });
};

describe('the Summaries page', () => {
  it('summarises today in the browser’s time zone, with keywords and the notes, each opening', async () => {
    const standup = makeNote({
      title: 'Standup',
      note: 'Shipped the search.',
      tags: ['work'],
      ...at('2026-01-14T10:00:00.000Z'),
    });
    const fake = fakeApi([standup, makeNote({ title: 'Old', ...at('2025-11-02T10:00:00.000Z') })]);
    await openSummaries(fake);

    expect(await screen.findByText('Shipped the search.')).toBeTruthy();
    expect(fake.ai.summarizePeriod).toHaveBeenCalledWith('day', {
      date: '2026-01-14',
      timeZone: browserTimeZone(),
    });
    expect(screen.getByRole('tab', { name: 'Day' }).getAttribute('aria-selected')).toBe('true');
    expect(
      within(screen.getByRole('list', { name: 'Mostly about' })).getByText('work'),
    ).toBeTruthy();
    const notes = screen.getByRole('list', { name: 'The note summarized' });
    expect(within(notes).queryByText('Old')).toBeNull();
    expect(screen.getByRole('button', { name: 'Next day' }).hasAttribute('disabled')).toBe(true);

    fireEvent.click(within(notes).getByRole('link', { name: 'Standup' }));
    expect(address()).toBe(`/notes/${standup.id}`);
  });

  it('switches to the week, and Previous moves back a week', async () => {
    const fake = fakeApi([
      makeNote({
        title: 'Last week',
        note: 'Planned the quarter.',
        ...at('2026-01-07T09:00:00.000Z'),
      }),
    ]);
    await openSummaries(fake);
    expect(await screen.findByText('You wrote no notes this day.')).toBeTruthy();

    fireEvent.click(screen.getByRole('tab', { name: 'Week' }));

    await vi.waitFor(() =>
      expect(fake.ai.summarizePeriod).toHaveBeenLastCalledWith('week', {
        date: '2026-01-14',
        timeZone: browserTimeZone(),
      }),
    );
    expect(address()).toBe('/summaries?period=week');
    expect(await screen.findByText('You wrote no notes this week.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Previous week' }));

    expect(await screen.findByText('Planned the quarter.')).toBeTruthy();
    expect(fake.ai.summarizePeriod).toHaveBeenLastCalledWith('week', {
      date: '2026-01-07',
      timeZone: browserTimeZone(),
    });
    expect((screen.getByLabelText('Date') as HTMLInputElement).value).toBe('2026-01-07');
    expect(screen.getByRole('button', { name: 'Next week' }).hasAttribute('disabled')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Today' }));
    await vi.waitFor(() =>
      expect(fake.ai.summarizePeriod).toHaveBeenLastCalledWith('week', {
        date: '2026-01-14',
        timeZone: browserTimeZone(),
      }),
    );
  });

  it('summarises the period of a day picked in the date field, and moves between tabs with the arrow keys', async () => {
    const fake = fakeApi();
    await openSummaries(fake, '/summaries?period=month');
    await screen.findByText('You wrote no notes this month.');

    fireEvent.change(screen.getByLabelText('Date'), { target: { value: '2025-12-25' } });

    await vi.waitFor(() =>
      expect(fake.ai.summarizePeriod).toHaveBeenLastCalledWith('month', {
        date: '2025-12-25',
        timeZone: browserTimeZone(),
      }),
    );
    const month = screen.getByRole('tab', { name: 'Month' });
    fireEvent.keyDown(month, { key: 'ArrowRight' });

    expect(screen.getByRole('tab', { name: 'Year' }).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Year' }));
    await vi.waitFor(() =>
      expect(fake.ai.summarizePeriod).toHaveBeenLastCalledWith('year', {
        date: '2025-12-25',
        timeZone: browserTimeZone(),
      }),
    );
  });
});
