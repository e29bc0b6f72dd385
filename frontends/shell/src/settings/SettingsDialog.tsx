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
import { useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useShellApp } from '../context';
import { log } from '../log';
import type { PlanPanelProps } from '../remotes/contracts';
import { RemoteModule } from '../remotes/RemoteModule';

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

/** The plan and this month's usage: the billing remote's panel, fetched when Settings opens. */
function Plan() {
  const { api, auth, loadBilling, pwa } = useShellApp();
  const shell = useShell();
  const state = useSyncExternalStore(auth.subscribe, auth.getState);
  const props = useMemo<PlanPanelProps>(() => ({ api, shell }), [api, shell]);
  if (state.status !== 'signedIn') return null;
  return (
    <RemoteModule
      load={loadBilling.planPanel}
      props={props}
      name="billing"
      onError={pwa.recoverFromLoadError}
      blocks={1}
    />
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
