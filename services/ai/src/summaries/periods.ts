import type { SummaryPeriodKind } from '@noted/api';

interface Day {
  year: number;
  month: number;
  day: number;
}

/** The zone's offset from UTC at `instant`, in ms (positive east of Greenwich). */
const offsetAt = (instant: number, timeZone: string): number => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
      .formatToParts(new Date(instant))
      .map((part) => [part.type, Number(part.value)]),
  ) as Record<string, number>;
  const wall = Date.UTC(
    parts.year as number,
    (parts.month as number) - 1,
    parts.day as number,
    parts.hour as number,
    parts.minute as number,
    parts.second as number,
  );
  return wall - Math.floor(instant / 1000) * 1000;
};

/** The instant a calendar day starts in the zone (midnight, or the first hour after a DST gap). */
export const startOfDay = ({ year, month, day }: Day, timeZone: string): Date => {
  const wall = Date.UTC(year, month - 1, day);
  let instant = wall - offsetAt(wall, timeZone);
  // Once more with the offset of the instant found: it differs across a DST change.
  instant = wall - offsetAt(instant, timeZone);
  return new Date(instant);
};

const dayOf = (date: string): Day => {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return { year, month, day };
};

const todayIn = (timeZone: string, now: Date): string =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);

const shift = ({ year, month, day }: Day, days: number): Day => {
  const date = new Date(Date.UTC(year, month - 1, day + days));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
};

/** The calendar days [first, next) of the period holding `day`; weeks start on Monday. */
const bounds = (kind: SummaryPeriodKind, day: Day): [Day, Day] => {
  switch (kind) {
    case 'day':
      return [day, shift(day, 1)];
    case 'week': {
      const weekday = (new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay() + 6) % 7;
      const monday = shift(day, -weekday);
      return [monday, shift(monday, 7)];
    }
    case 'month':
      return [
        { year: day.year, month: day.month, day: 1 },
        day.month === 12
          ? { year: day.year + 1, month: 1, day: 1 }
          : { year: day.year, month: day.month + 1, day: 1 },
      ];
    case 'year':
      return [
        { year: day.year, month: 1, day: 1 },
        { year: day.year + 1, month: 1, day: 1 },
      ];
  }
};

/** The period of `kind` holding `date` (default today) in `timeZone`, as instants [from, to). */
export const periodOf = (
  kind: SummaryPeriodKind,
  options: { date?: string; timeZone?: string; now?: Date } = {},
): { from: Date; to: Date; timeZone: string } => {
  const timeZone = options.timeZone ?? 'UTC';
  const date = options.date ?? todayIn(timeZone, options.now ?? new Date());
  const [first, next] = bounds(kind, dayOf(date));
  return { from: startOfDay(first, timeZone), to: startOfDay(next, timeZone), timeZone };
};
