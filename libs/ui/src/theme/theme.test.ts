import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  followSystemTheme,
  onThemeChanged,
  readThemePreference,
  saveThemePreference,
  type ThemeChangedDetail,
} from './theme';

/** A controllable `prefers-color-scheme: dark` query. */
const fakeSystem = (dark: boolean) => {
  const listeners = new Set<() => void>();
  const query = {
    get matches() {
      return dark;
    },
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  vi.spyOn(window, 'matchMedia').mockImplementation(() => query as unknown as MediaQueryList);
  return {
    set: (next: boolean) => {
      dark = next;
      for (const listener of listeners) listener();
    },
  };
};

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
  document.documentElement.classList.remove('dark');
});

describe('the theme', () => {
  it('is system by default and reads a saved choice', () => {
    expect(readThemePreference()).toBe('system');
    localStorage.setItem('theme', 'dark');
    expect(readThemePreference()).toBe('dark');
    localStorage.setItem('theme', 'purple');
    expect(readThemePreference()).toBe('system');
  });

  it('saves every change, toggles the dark class and emits themeChanged with a dark flag', () => {
    fakeSystem(false);
    const seen: ThemeChangedDetail[] = [];
    const stop = onThemeChanged((detail) => seen.push(detail));

    saveThemePreference('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    saveThemePreference('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    saveThemePreference('system');

    expect(seen).toEqual([
      { dark: true, preference: 'dark' },
      { dark: false, preference: 'light' },
      { dark: false, preference: 'system' },
    ]);
    stop();
  });

  it('follows the operating system live while on system, and only then', () => {
    const system = fakeSystem(false);
    const stop = followSystemTheme();
    saveThemePreference('system');

    system.set(true);
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    system.set(false);
    expect(document.documentElement.classList.contains('dark')).toBe(false);

    saveThemePreference('light');
    system.set(true);
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    stop();
  });
});
