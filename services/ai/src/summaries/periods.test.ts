import { describe, expect, it } from 'vitest';
import { periodOf } from './periods.js';

describe('summary periods', () => {
  it('counts a day from midnight to midnight in the given time zone', () => {
    const { from, to } = periodOf('day', { date: '2026-11-23', timeZone: 'Asia/Shanghai' });
    expect(from.toISOString()).toBe('2026-11-22T16:00:00.000Z');
    expect(to.toISOString()).toBe('2026-11-23T16:00:00.000Z');
  });

  it('starts weeks on Monday', () => {
    // 2026-11-26 is a Thursday.
    const { from, to } = periodOf('week', { date: '2026-11-26' });
    expect(from.toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(to.toISOString()).toBe('2026-11-30T00:00:00.000Z');
  });

  it('follows a daylight-saving change: the day of the change is 23 hours long', () => {
    const { from, to } = periodOf('day', { date: '2026-03-29', timeZone: 'Europe/Berlin' });
    expect(from.toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(to.toISOString()).toBe('2026-03-29T22:00:00.000Z');
  });

  it('gives whole months and years, December rolling into the next year', () => {
    const month = periodOf('month', { date: '2026-12-15', timeZone: 'America/New_York' });
    expect(month.from.toISOString()).toBe('2026-12-01T05:00:00.000Z');
    expect(month.to.toISOString()).toBe('2027-01-01T05:00:00.000Z');
    const year = periodOf('year', { date: '2026-06-01' });
    expect(year.from.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(year.to.toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('takes today in the time zone when no date is given', () => {
    const now = new Date('2026-11-23T20:00:00Z'); // already the 24th in Shanghai
    const { from } = periodOf('day', { timeZone: 'Asia/Shanghai', now });
    expect(from.toISOString()).toBe('2026-11-23T16:00:00.000Z');
  });
});
