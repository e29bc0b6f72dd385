import { describe, expect, it } from 'vitest';
import { relativeDate } from './text';

const now = Date.UTC(2026, 10, 24, 12, 0, 0);
const ago = (ms: number) => new Date(now - ms).toISOString();
const minute = 60_000;
const day = 24 * 60 * minute;

describe('relativeDate', () => {
  it('says when as a person would: just now, minutes, hours, days, then the date', () => {
    expect(relativeDate(ago(10_000), 'en', 'just now', now)).toBe('just now');
    expect(relativeDate(ago(5 * minute), 'en', 'just now', now)).toBe('5 minutes ago');
    expect(relativeDate(ago(3 * 60 * minute), 'en', 'just now', now)).toBe('3 hours ago');
    expect(relativeDate(ago(day), 'en', 'just now', now)).toBe('yesterday');
    expect(relativeDate(ago(4 * day), 'en', 'just now', now)).toBe('4 days ago');
    expect(relativeDate(ago(20 * day), 'en', 'just now', now)).toBe('Nov 4');
    expect(relativeDate(ago(400 * day), 'en', 'just now', now)).toBe('Oct 20, 2025');
  });

  it('writes it in the language of the page', () => {
    expect(relativeDate(ago(day), 'zh', '刚刚', now)).toBe('昨天');
    expect(relativeDate(ago(20 * day), 'zh', '刚刚', now)).toBe('11月4日');
  });

  it('gives back what it cannot read', () => {
    expect(relativeDate('not a date', 'en', 'just now', now)).toBe('not a date');
  });
});
