export type ThemePreference = 'light' | 'dark' | 'system';

const storageKey = 'theme';
const darkQuery = '(prefers-color-scheme: dark)';

const isPreference = (value: unknown): value is ThemePreference =>
  value === 'light' || value === 'dark' || value === 'system';

export const readThemePreference = (): ThemePreference => {
  try {
    const stored = localStorage.getItem(storageKey);
    return isPreference(stored) ? stored : 'system';
  } catch {
    return 'system';
  }
};

/** Mirrors the inline script in index.html, which applies the class before the first paint. */
export const applyTheme = (preference: ThemePreference): void => {
  const dark =
    preference === 'dark' || (preference === 'system' && window.matchMedia(darkQuery).matches);
  document.documentElement.classList.toggle('dark', dark);
};

export const saveThemePreference = (preference: ThemePreference): void => {
  try {
    localStorage.setItem(storageKey, preference);
  } catch {
    // Private modes may refuse storage; the choice then lasts for this page only.
  }
  applyTheme(preference);
};

/** Follows the operating system while the preference is 'system'. */
export const followSystemTheme = (getPreference: () => ThemePreference): (() => void) => {
  const query = window.matchMedia(darkQuery);
  const onChange = () => {
    if (getPreference() === 'system') applyTheme('system');
  };
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};
