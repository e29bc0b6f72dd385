import { describe, expect, it } from 'vitest';
import { isCalendarDate, localDate, shiftDate } from './period';

describe('shiftDate', () => {
  it('moves by days and weeks across months and years', () => {
    expect(shiftDate('2026-01-01', 'day', -1)).toBe('2025-12-31');
    expect(shiftDate('2026-02-26', 'week', 1)).toBe('2026-03-05');
    expect(shiftDate('2026-01-05', 'week', -1)).toBe('2025-12-29');
  });

  it('moves by months and years to the same day, or the last day of a shorter month', () => {
    expect(shiftDate('2026-03-31', 'month', -1)).toBe('2026-02-28');
    expect(shiftDate('2026-01-15', 'month', -1)).toBe('2025-12-15');
    expect(shiftDate('2025-12-15', 'month', 1)).toBe('2026-01-15');
    expect(shiftDate('2024-02-29', 'year', 1)).toBe('2025-02-28');
    expect(shiftDate('2026-06-10', 'year', -1)).toBe('2025-06-10');
  });
});

describe('isCalendarDate', () => {
  it('takes real days only', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2025-02-29')).toBe(false);
    expect(isCalendarDate('2025-13-01')).toBe(false);
    expect(isCalendarDate('1 May')).toBe(false);
    expect(isCalendarDate(null)).toBe(false);
  });
});

describe('localDate', () => {
  it('writes the day as the browser sees it', () => {
    expect(localDate(new Date(2026, 0, 9, 23, 30))).toBe('2026-01-09');
  });
});
