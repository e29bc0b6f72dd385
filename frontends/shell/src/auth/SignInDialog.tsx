import { Button, Callout, Dialog } from '@noted/ui';
import { useRef, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from '@noted/router';
import { useShellApp } from '../context';
import { BrandMark } from '@noted/ui';

const providerNames: Record<string, string> = { google: 'Google', github: 'GitHub' };

const providerName = (alias: string) =>
  providerNames[alias] ?? alias.charAt(0).toUpperCase() + alias.slice(1);

/**
 * The login modal: continue to the identity provider, or straight to a provider the realm
 * brokers (kc_idp_hint), such as Google or GitHub when the realm has them.
 */
export function SignInDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('shell');
  const { auth, identityProviders } = useShellApp();
  const state = useSyncExternalStore(auth.subscribe, auth.getState);
  const continueRef = useRef<HTMLButtonElement>(null);
  // Signing in comes back to the page it started from.
  const { pathname, search } = useLocation();
  const returnTo = `${pathname}${search}`;
  return (
    <Dialog
      title={t('signIn.title')}
      onClose={onClose}
      initialFocus={continueRef}
      className="sign-in-dialog"
    >
      <div className="sign-in-head">
        <BrandMark />
        <p className="ui-dialog-text">{t('signIn.body')}</p>
      </div>
      {state.status === 'signedOut' && state.notice ? (
        <Callout tone="info" role="status">
          {t(`auth.notice.${state.notice}`)}
        </Callout>
      ) : null}
      <div className="sign-in-options">
        <Button
          ref={continueRef}
          variant="primary"
          size="lg"
          block
          onClick={() => void auth.login({ returnTo })}
        >
          {t('signIn.continue')}
        </Button>
        {identityProviders.map((alias) => (
          <Button
            key={alias}
            size="lg"
            block
            onClick={() => void auth.login({ idpHint: alias, returnTo })}
          >
            {t('signIn.withProvider', { provider: providerName(alias) })}
          </Button>
        ))}
      </div>
      <p className="sign-in-fine">{t('signIn.fine')}</p>
    </Dialog>
  );
}
