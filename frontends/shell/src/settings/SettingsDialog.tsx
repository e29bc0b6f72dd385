import type { User } from '@noted/api';
import {
  ArrowUpRightIcon,
  Button,
  Dialog,
  SparklesIcon,
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
      <div className="ui-segmented ui-segmented-block">
        {locales.map((locale) => (
          <label
            key={locale}
            lang={locale === 'zh' ? 'zh-CN' : 'en'}
            className="ui-segmented-option"
          >
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
      </div>
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
      <div className="settings-plan-text">
        <h3 id="settings-plan-title">{t('settings.plan')}</h3>
        <p>
          {unlimited ? t('settings.notesUnlimited') : t('settings.notesPerMonth', { count: limit })}
        </p>
      </div>
      <Button size="sm" onClick={shell.offerUpgrade}>
        {t('settings.seePlans')}
      </Button>
    </section>
  );
}

/** The settings modal: theme, language, the plan, and AI settings. Every choice applies at once. */
export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('shell');
  const shell = useShell();
  return (
    <Dialog title={t('settings.title')} onClose={onClose} className="settings-dialog">
      <ThemeChoice />
      <LanguageChoice />
      <Plan />
      <div className="settings-links">
        <Button
          variant="ghost"
          icon={SparklesIcon}
          onClick={() => {
            onClose();
            shell.navigate('/settings/ai');
          }}
        >
          {t('account.aiSettings')}
          <ArrowUpRightIcon className="ui-icon" aria-hidden="true" />
        </Button>
      </div>
    </Dialog>
  );
}
