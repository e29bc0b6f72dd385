/** Tags typed as "work, ideas #later" become ['work', 'ideas', 'later'], without repeats. */
export const parseTags = (input: string): string[] => [
  ...new Set(
    input
      .split(/[\s,]+/)
      .map((tag) => tag.replace(/^#+/, '').trim())
      .filter((tag) => tag.length > 0),
  ),
];

/** A plain-text preview of a Markdown body. */
export const excerpt = (body: string, maxLength = 180): string => {
  const plain = body
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/[*_`~]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (plain.length <= maxLength) return plain;
  const cut = plain.slice(0, maxLength);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > maxLength * 0.6 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
};

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A date and time as written in `locale` (the page's language). */
export const formatDate = (iso: string, locale: string): string => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    dateFormats.set(locale, format);
  }
  return format.format(date);
};

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * When something happened, as a person says it: `justNow`, "5 minutes ago", "yesterday",
 * "3 days ago"; past a week, the date ("Nov 3", with the year when it is not this year).
 */
export const relativeDate = (
  iso: string,
  locale: string,
  justNow: string,
  now = Date.now(),
): string => {
  const date = new Date(iso);
  const time = date.getTime();
  if (Number.isNaN(time)) return iso;
  let relative = relativeFormats.get(locale);
  if (!relative) {
    relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    relativeFormats.set(locale, relative);
  }
  const seconds = Math.round((time - now) / 1000);
  const minutes = Math.round(seconds / 60);
  const hours = Math.round(minutes / 60);
  const days = Math.round(hours / 24);
  if (Math.abs(seconds) < 45) return justNow;
  if (Math.abs(minutes) < 45) return relative.format(minutes, 'minute');
  if (Math.abs(hours) < 22) return relative.format(hours, 'hour');
  if (Math.abs(days) <= 6) return relative.format(days, 'day');
  const sameYear = date.getFullYear() === new Date(now).getFullYear();
  const formatKey = `${locale}:${sameYear}`;
  let format = dayFormats.get(formatKey);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      month: 'short',
      day: 'numeric',
      ...(sameYear ? {} : { year: 'numeric' }),
    });
    dayFormats.set(formatKey, format);
  }
  return format.format(date);
};

/** Errors as the shell and every remote read them (see useErrorText). */
export { errorCode, errorMessage } from '@noted/ui';
