/** Numbers, prices, lengths of time and dates as the page's language writes them. */

const cached = <T>(make: (key: string) => T) => {
  const made = new Map<string, T>();
  return (key: string): T => {
    let value = made.get(key);
    if (value === undefined) {
      value = make(key);
      made.set(key, value);
    }
    return value;
  };
};

/** A count as the language writes it: "1,000". */
export const formatNumber = (value: number, locale: string): string =>
  new Intl.NumberFormat(locale).format(value);

/** A price in the currency's smallest unit (cents): "$8", "$7.50", "€80". */
export const formatPrice = (amount: number, currency: string, locale: string): string =>
  new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: amount % 100 === 0 ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(amount / 100);

/** A length in seconds in its largest whole unit: "1 minute", "10 minutes", "1 hour", "45 seconds". */
export const formatDuration = (seconds: number, locale: string): string => {
  const [value, unit] =
    seconds >= 3600 && seconds % 3600 === 0
      ? [seconds / 3600, 'hour']
      : seconds >= 60 && seconds % 60 === 0
        ? [seconds / 60, 'minute']
        : [seconds, 'second'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
};

const dayFormat = cached(
  (locale) => new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric' }),
);

/** A day of the plan (a renewal, the end of a trial): "December 1, 2025". */
export const formatDay = (iso: string, locale: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dayFormat(locale).format(date);
};

const monthDayFormat = cached(
  (locale) => new Intl.DateTimeFormat(locale, { month: 'long', day: 'numeric', timeZone: 'UTC' }),
);

/** When the monthly count starts again, a UTC month's first day: "December 1". */
export const formatResetDay = (iso: string, locale: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : monthDayFormat(locale).format(date);
};

/** "Markdown, PDF and images", joined as the language joins a list. */
export const formatList = (items: string[], locale: string): string =>
  new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }).format(items);
