import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MonitorIcon, MoonIcon, SunIcon, type IconComponent } from '../icons/icons';
import {
  onThemeChanged,
  readThemePreference,
  saveThemePreference,
  themePreferences,
  type ThemePreference,
} from './theme';

const themeIcons: Record<ThemePreference, IconComponent> = {
  light: SunIcon,
  dark: MoonIcon,
  system: MonitorIcon,
};

const next = (preference: ThemePreference): ThemePreference =>
  themePreferences[(themePreferences.indexOf(preference) + 1) % themePreferences.length] ??
  'system';

const useThemePreference = () => {
  const [preference, setPreference] = useState(readThemePreference);
  useEffect(() => onThemeChanged((detail) => setPreference(detail.preference)), []);
  return preference;
};

/**
 * One button that steps light → dark → system, showing the current choice's icon; its name
 * says the current and the next ("Theme: Light. Switch to Dark.").
 */
export function ThemeToggle() {
  const { t } = useTranslation('ui');
  const preference = useThemePreference();
  const label = (value: ThemePreference) => t(`theme.${value}`);
  const Icon = themeIcons[preference];
  const name = t('theme.toggle', { current: label(preference), next: label(next(preference)) });
  return (
    <button
      type="button"
      className="ui-button ui-button-ghost ui-button-icon"
      onClick={() => saveThemePreference(next(preference))}
      aria-label={name}
      title={name}
      data-theme-preference={preference}
    >
      <Icon className="ui-icon" aria-hidden="true" />
    </button>
  );
}

/** The three choices as a segmented radio group with icons, for the settings dialog. */
export function ThemeChoice() {
  const { t } = useTranslation('ui');
  const preference = useThemePreference();
  return (
    <fieldset className="ui-choice">
      <legend>{t('theme.legend')}</legend>
      <div className="ui-segmented ui-segmented-block">
        {themePreferences.map((value) => {
          const Icon = themeIcons[value];
          return (
            <label key={value} className="ui-segmented-option">
              <input
                type="radio"
                name="theme"
                value={value}
                checked={preference === value}
                onChange={() => saveThemePreference(value)}
              />
              <Icon className="ui-icon" aria-hidden="true" />
              {t(`theme.${value}`)}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
