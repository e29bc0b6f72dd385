/**
 * The locale: which there are, which one is chosen. Apart from the i18next set-up so that a page
 * without i18next (the site's prerendered pages) can read and keep the choice.
 */
export const locales = ['en', 'zh'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'en';
export const localeStorageKey = 'locale';

export const isLocale = (value: unknown): value is Locale =>
  typeof value === 'string' && (locales as readonly string[]).includes(value);

/**
 * Keeps the chosen locale: in localStorage for the app, and in a `locale` cookie for the
 * gateway, which serves the site's prerendered pages in it.
 */
export const rememberLocale = (
  locale: Locale,
  storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage,
): void => {
  try {
    storage?.setItem(localeStorageKey, locale);
  } catch {
    // Storage may be refused (private modes); the choice then lasts for this page.
  }
  if (typeof document !== 'undefined') {
    document.cookie = `locale=${locale}; path=/; max-age=31536000; samesite=lax`;
  }
};

/** The chosen locale, English until the user picks another in the settings. */
export const readLocale = (
  storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage,
): Locale => {
  try {
    const stored = storage?.getItem(localeStorageKey);
    return isLocale(stored) ? stored : defaultLocale;
  } catch {
    return defaultLocale;
  }
};
