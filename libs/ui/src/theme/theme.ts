export const themePreferences = ['light', 'dark', 'system'] as const;
export type ThemePreference = (typeof themePreferences)[number];

export const themeStorageKey = 'theme';
/** Dispatched on window after every change; `detail.dark` tells whether dark now applies. */
export const themeChangedEvent = 'themeChanged';
export interface ThemeChangedDetail {
  dark: boolean;
  preference: ThemePreference;
}

const darkQuery = '(prefers-color-scheme: dark)';

export const isThemePreference = (value: unknown): value is ThemePreference =>
  typeof value === 'string' && (themePreferences as readonly string[]).includes(value);

export const readThemePreference = (): ThemePreference => {
  try {
    const stored = localStorage.getItem(themeStorageKey);
    return isThemePreference(stored) ? stored : 'system';
  } catch {
    return 'system';
  }
};

const systemIsDark = () => window.matchMedia(darkQuery).matches;

/**
 * Puts the `dark` class on the document root and announces it. index.html runs the same rule
 * inline before the first paint, so a reload never flashes the other theme.
 */
export const applyTheme = (preference: ThemePreference): boolean => {
  const dark = preference === 'dark' || (preference === 'system' && systemIsDark());
  document.documentElement.classList.toggle('dark', dark);
  window.dispatchEvent(
    new CustomEvent<ThemeChangedDetail>(themeChangedEvent, { detail: { dark, preference } }),
  );
  return dark;
};

/** Every change is saved, applied and announced. */
export const saveThemePreference = (preference: ThemePreference): boolean => {
  try {
    localStorage.setItem(themeStorageKey, preference);
  } catch {
    // Private modes may refuse storage; the choice then lasts for this page only.
  }
  return applyTheme(preference);
};

/** Follows the operating system live while the preference is 'system'. */
export const followSystemTheme = (): (() => void) => {
  const query = window.matchMedia(darkQuery);
  const onChange = () => {
    if (readThemePreference() === 'system') applyTheme('system');
  };
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};

/** Keeps a component in step with the preference, whoever changed it. */
export const onThemeChanged = (listener: (detail: ThemeChangedDetail) => void): (() => void) => {
  const handler = (event: Event) => listener((event as CustomEvent<ThemeChangedDetail>).detail);
  window.addEventListener(themeChangedEvent, handler);
  return () => window.removeEventListener(themeChangedEvent, handler);
};
