import type { SummaryPeriodKind } from '@noted/api';

export const periodKinds: readonly SummaryPeriodKind[] = ['day', 'week', 'month', 'year'];

export const isPeriodKind = (value: string | null): value is SummaryPeriodKind =>
  periodKinds.includes(value as SummaryPeriodKind);

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

const write = (year: number, month: number, day: number) =>
  `${pad(year, 4)}-${pad(month)}-${pad(day)}`;

/** A real calendar day written YYYY-MM-DD (not 2025-02-30). */
export const isCalendarDate = (value: string | null): value is string => {
  const parts = value ? DATE.exec(value) : null;
  if (!parts) return false;
  const [year, month, day] = parts.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1;
};

/** The day `at` falls on where the browser is (its own time zone). */
export const localDate = (at: Date): string =>
  write(at.getFullYear(), at.getMonth() + 1, at.getDate());

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * The same day `steps` periods later (earlier when negative). A month or year on from the 31st
 * (or 29 February) is the last day of the shorter month.
 */
export const shiftDate = (date: string, kind: SummaryPeriodKind, steps: number): string => {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  if (kind === 'day' || kind === 'week') {
    const shifted = new Date(Date.UTC(year, month - 1, day + steps * (kind === 'week' ? 7 : 1)));
    return write(shifted.getUTCFullYear(), shifted.getUTCMonth() + 1, shifted.getUTCDate());
  }
  const months = year * 12 + (month - 1) + steps * (kind === 'year' ? 12 : 1);
  const nextYear = Math.floor(months / 12);
  const nextMonth = (months % 12) + 1;
  return write(nextYear, nextMonth, Math.min(day, daysIn(nextYear, nextMonth)));
};

/** The browser's IANA time zone, which periods are counted in; UTC if it has none. */
export const browserTimeZone = (): string =>
  Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
