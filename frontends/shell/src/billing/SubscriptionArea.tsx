import { Skeleton, useShell } from '@noted/ui';
import { useMemo, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useShellApp } from '../context';
import { PlainLayout } from '../layout/Layouts';
import { Welcome } from '../pages/Welcome';
import type { SubscriptionPageProps } from '../remotes/contracts';
import { RemoteModule } from '../remotes/RemoteModule';

/**
 * `/subscription/success` and `/subscription/cancel`, where Stripe's checkout sends the browser
 * back, in the layout without sidebar. The success page confirms the caller's own checkout, so
 * it needs the session; the cancel page is for anyone.
 */
export function SubscriptionArea({ page }: { page: SubscriptionPageProps['page'] }) {
  const { t } = useTranslation('shell');
  const { api, auth, loadBilling, pwa } = useShellApp();
  const shell = useShell();
  const state = useSyncExternalStore(auth.subscribe, auth.getState);
  const props = useMemo<SubscriptionPageProps>(() => ({ api, shell, page }), [api, shell, page]);
  const needsSession = page === 'success' && state.status !== 'signedIn';
  return (
    <PlainLayout>
      {!needsSession ? (
        <RemoteModule
          load={loadBilling.subscriptionPage}
          props={props}
          name="billing"
          onError={pwa.recoverFromLoadError}
          blocks={1}
        />
      ) : state.status === 'loading' ? (
        <Skeleton blocks={1} label={t('auth.checking')} />
      ) : (
        <Welcome notice={state.status === 'signedOut' ? state.notice : undefined} privatePage />
      )}
    </PlainLayout>
  );
}
