import { Button, useShell } from '@noted/ui';
import { useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useShellApp } from '../context';
import { BrandMark } from '@noted/ui';

/**
 * Says once that the app now works offline, and offers the new version (Refresh) when one
 * is ready; the offer stays until it is taken or closed.
 */
export function PwaNotices() {
  const { t } = useTranslation('shell');
  const { pwa } = useShellApp();
  const shell = useShell();
  const { offlineReady, updateReady } = useSyncExternalStore(pwa.state.subscribe, pwa.state.get);

  useEffect(() => {
    if (offlineReady) shell.toast(t('pwa.offlineReady'), { type: 'success' });
  }, [offlineReady, shell, t]);

  useEffect(() => {
    if (!updateReady) return;
    shell.toast(t('pwa.updateReady'), {
      type: 'info',
      duration: 0,
      action: { label: t('pwa.refresh'), run: pwa.applyUpdate },
    });
  }, [updateReady, pwa, shell, t]);

  return null;
}

/** The offer to install the app, until it is taken, put off, or hidden for good. */
export function InstallPrompt() {
  const { t } = useTranslation('shell');
  const { pwa } = useShellApp();
  const { installable } = useSyncExternalStore(pwa.state.subscribe, pwa.state.get);
  if (!installable) return null;
  return (
    <aside className="install-prompt" aria-labelledby="install-prompt-title">
      <BrandMark />
      <div className="install-prompt-text">
        <p id="install-prompt-title" className="install-prompt-title">
          {t('pwa.installTitle')}
        </p>
        <p className="install-prompt-body">{t('pwa.installOffer')}</p>
      </div>
      <div className="install-prompt-actions">
        <Button variant="primary" size="sm" onClick={() => void pwa.install()}>
          {t('pwa.install')}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => pwa.hideInstall(false)}>
          {t('pwa.notNow')}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => pwa.hideInstall(true)}>
          {t('pwa.neverAsk')}
        </Button>
      </div>
    </aside>
  );
}
