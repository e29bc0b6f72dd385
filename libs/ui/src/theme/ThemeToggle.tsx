import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  onThemeChanged,
  readThemePreference,
  saveThemePreference,
  themePreferences,
  type ThemePreference,
} from './theme';

const next = (preference: ThemePreference): ThemePreference =>
  themePreferences[(themePreferences.indexOf(preference) + 1) % themePreferences.length] ??
  'system';

/** One button that steps light → dark → system; its name says the current and the next. */
export function ThemeToggle() {
  const { t } = useTranslation('ui');
  const [preference, setPreference] = useState(readThemePreference);

  useEffect(() => onThemeChanged((detail) => setPreference(detail.preference)), []);

  const label = (value: ThemePreference) => t(`theme.${value}`);
  return (
    <button
      type="button"
      className="ui-button ui-button-quiet"
      onClick={() => saveThemePreference(next(preference))}
      aria-label={t('theme.toggle', { current: label(preference), next: label(next(preference)) })}
    >
      {t('theme.current', { current: label(preference) })}
    </button>
  );
}

/** The three choices as a radio group, for the settings dialog. */
export function ThemeChoice() {
  const { t } = useTranslation('ui');
  const [preference, setPreference] = useState(readThemePreference);
  useEffect(() => onThemeChanged((detail) => setPreference(detail.preference)), []);
  return (
    <fieldset className="ui-choice">
      <legend>{t('theme.legend')}</legend>
      {themePreferences.map((value) => (
        <label key={value}>
          <input
            type="radio"
            name="theme"
            value={value}
            checked={preference === value}
            onChange={() => saveThemePreference(value)}
          />
          {t(`theme.${value}`)}
        </label>
      ))}
    </fieldset>
  );
}
