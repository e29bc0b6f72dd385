import { useEffect, useState } from 'react';
import { followSystemTheme, readThemePreference, saveThemePreference } from './theme';
import type { ThemePreference } from './theme';

const next: Record<ThemePreference, ThemePreference> = {
  system: 'light',
  light: 'dark',
  dark: 'system',
};

const label: Record<ThemePreference, string> = {
  system: 'System',
  light: 'Light',
  dark: 'Dark',
};

export function ThemeToggle() {
  const [preference, setPreference] = useState(readThemePreference);

  useEffect(() => followSystemTheme(readThemePreference), []);

  const change = () => {
    const chosen = next[preference];
    saveThemePreference(chosen);
    setPreference(chosen);
  };

  return (
    <button
      type="button"
      className="button button-quiet"
      onClick={change}
      aria-label={`Theme: ${label[preference]}. Switch to ${label[next[preference]]}.`}
    >
      Theme: {label[preference]}
    </button>
  );
}
