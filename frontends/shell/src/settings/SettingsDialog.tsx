import type { User } from '@noted/api';
import {
  Dialog,
  ThemeChoice,
  changeLocale,
  isLocale,
  locales,
  useShell,
  type Locale,
} from '@noted/ui';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useShellApp } from '../context';
import { log } from '../log';

/** Each language named in itself. */
const localeNames: Record<Locale, string> = { en: 'English', zh: '中文（简体）' };

function LanguageChoice() {
  const { t, i18n } = useTranslation('shell');
  const shell = useShell();
  // The choice shows at once; the messages of the new language arrive a moment later.
  const [pending, setPending] = useState<Locale>();
  const current = pending ?? (isLocale(i18n.language) ? i18n.language : 'en');
  const choose = (locale: Locale) => {
    setPending(locale);
    changeLocale(i18n, locale)
      .catch((error: unknown) => {
        log.error('Switching the language failed.', error);
        shell.toast(t('settings.languageFailed'));
      })
      .finally(() => setPending(undefined));
  };
  return (
    <fieldset className="ui-choice">
      <legend>{t('settings.language')}</legend>
      {locales.map((locale) => (
        <label key={locale} lang={locale === 'zh' ? 'zh-CN' : 'en'}>
          <input
            type="radio"
            name="locale"
            value={locale}
            checked={current === locale}
            onChange={() => choose(locale)}
          />
          {localeNames[locale]}
        </label>
      ))}
    </fieldset>
  );
}

/** The plan's monthly note allowance, from the account the shell checked at sign-in. */
function Plan() {
  const { t } = useTranslation('shell');
  const { auth, checkAccount } = useShellApp();
  const shell = useShell();
  const state = useSyncExternalStore(auth.subscribe, auth.getState);
  const [user, setUser] = useState<User>();
  const sub = state.status === 'signedIn' ? state.user.sub : undefined;
  useEffect(() => {
    if (!sub) return;
    let active = true;
    checkAccount(sub).then(
      (loaded) => {
        if (active) setUser(loaded);
      },
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, [checkAccount, sub]);
  if (!user) return null;
  const limit = user.entitlements.notes_per_month;
  const unlimited = limit === undefined || limit === -1 || typeof limit !== 'number';
  return (
    <section className="settings-plan" aria-labelledby="settings-plan-title">
      <h3 id="settings-plan-title">{t('settings.plan')}</h3>
      <p>
        {unlimited ? t('settings.notesUnlimited') : t('settings.notesPerMonth', { count: limit })}
      </p>
      <button type="button" className="ui-button" onClick={shell.offerUpgrade}>
        {t('settings.seePlans')}
      </button>
    </section>
  );
}

/** The settings modal: theme, language and the plan. Every choice applies at once. */
export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('shell');
  return (
    <Dialog title={t('settings.title')} onClose={onClose}>
      <ThemeChoice />
      <LanguageChoice />
      <Plan />
    </Dialog>
  );
}
