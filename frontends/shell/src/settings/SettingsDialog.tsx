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
  type SettingsSection,
} from '@noted/ui';
import { useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useShellApp } from '../context';
import { log } from '../log';
import type { DataPanelProps, PlanPanelProps } from '../remotes/contracts';
import { RemoteModule } from '../remotes/RemoteModule';
import { DeleteAccount } from './DeleteAccount';

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

/** The notes remote's "Your data": export everything, import files, the Notion connection. */
function YourData() {
  const { api, auth, loadDataPanel, pwa } = useShellApp();
  const shell = useShell();
  const state = useSyncExternalStore(auth.subscribe, auth.getState);
  const props = useMemo<DataPanelProps>(() => ({ api, shell }), [api, shell]);
  if (state.status !== 'signedIn') return null;
  return (
    <RemoteModule
      load={loadDataPanel}
      props={props}
      name="data"
      onError={pwa.recoverFromLoadError}
      blocks={2}
    />
  );
}

/** The danger zone, for a signed-in account with an email to confirm with. */
function AccountDeletion() {
  const { t } = useTranslation('shell');
  const { api, auth, account } = useShellApp();
  const shell = useShell();
  const state = useSyncExternalStore(auth.subscribe, auth.getState);
  const { user } = useSyncExternalStore(account.subscribe, account.get);
  if (state.status !== 'signedIn' || state.offline) return null;
  const email = user?.email ?? state.user.email;
  if (!email) return null;
  return (
    <DeleteAccount
      email={email}
      remove={async (confirm) => {
        await api.users.delete({ confirm });
      }}
      onDeleted={() => {
        shell.toast(t('deleteAccount.deleted'), { type: 'success' });
        // The account is gone: nothing left on this device is worth asking about.
        void auth.logout();
      }}
    />
  );
}

/**
 * The settings modal, in sections: appearance and language, the plan, the user's data, deleting
 * the account. Every
 * choice applies at once. Opened on a `section`, it starts scrolled there.
 */
export function SettingsDialog({
  section,
  onClose,
}: {
  section?: SettingsSection | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation('shell');
  const shell = useShell();
  const appearanceId = useId();
  const sections = useRef<Partial<Record<SettingsSection, HTMLDivElement | null>>>({});
  useEffect(() => {
    if (section) sections.current[section]?.scrollIntoView?.({ block: 'start' });
  }, [section]);
  return (
    <Dialog title={t('settings.title')} onClose={onClose} className="settings-dialog">
      <section className="settings-section" aria-labelledby={appearanceId}>
        <h3 id={appearanceId} className="ui-overline">
          {t('settings.appearance')}
        </h3>
        <ThemeChoice />
        <LanguageChoice />
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
      </section>
      <div className="settings-section" ref={(node) => void (sections.current.plan = node)}>
        <Plan />
      </div>
      <div className="settings-section" ref={(node) => void (sections.current.data = node)}>
        <YourData />
      </div>
      <div className="settings-section">
        <AccountDeletion />
      </div>
    </Dialog>
  );
}
