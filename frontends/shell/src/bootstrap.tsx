import { matchesPage, sharedNotePath } from '@noted/api';
import {
  applyTheme,
  createI18n,
  followSystemTheme,
  readLocale,
  readThemePreference,
  registerMessages,
} from '@noted/ui';
import { createRoot } from 'react-dom/client';
import type { NavigateFunction } from '@noted/router';
import { BrowserRouter } from '@noted/router';
import { createAccount } from './account';
import { createShellApi } from './api';
import { createAuth, providerProbe } from './auth/auth';
import { loadConfig } from './config';
import { log } from './log';
import { shellMessages } from './messages';
import type {
  BillingDialogProps,
  DataPanelProps,
  FeedbackPageProps,
  MarketingAppProps,
  NotesAppProps,
  PlanPanelProps,
  SharedNoteProps,
  SubscriptionPageProps,
} from './remotes/contracts';
import { setUpFederation } from './remotes/federation';
import { createRemoteLoader } from './remotes/loader';
import { createLiveConnection } from './live/connection';
import { createOffline } from './offline/offline';
import { createPwa, workboxServiceWorker } from './pwa/pwa';
import { createShellServices, createShellState } from './services';
import { Shell } from './Shell';
import { StartupError } from './StartupError';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
// Boundaries log what they catch, with their own context; React's default would log it twice.
const root = createRoot(container, { onCaughtError: () => undefined });

/**
 * The start order of the spec: sidebar state and theme, then the session check, then the
 * message sets, then the `theme-loaded` class on the root. The first page renders as soon as
 * the configuration and the English text are there; the session check runs behind it.
 */
const start = async () => {
  // The sidebar reads its stored state as it renders; the theme class is already set by the
  // inline script of index.html, and from here on follows the system while on 'system'.
  applyTheme(readThemePreference());
  followSystemTheme();

  const [config, i18n] = await Promise.all([loadConfig(), createI18n(readLocale())]);
  await registerMessages(i18n, shellMessages);

  const federation = setUpFederation();
  const offline = createOffline({
    log,
    canSend: () => {
      const signedIn = auth.getState();
      return signedIn.status === 'signedIn' && !signedIn.offline;
    },
  });
  const auth = createAuth({
    createKeycloak: async () => {
      const { default: Keycloak } = await import('keycloak-js');
      return new Keycloak(config.keycloak);
    },
    isProviderReachable: providerProbe(config.keycloak),
    logoutUrl: config.logoutUrl,
    forget: () => offline.clear(),
  });
  const state = createShellState();
  let routerNavigate: NavigateFunction | undefined;
  const account = createAccount({
    api: () => api,
    openBilling: (view) => state.dialog.set({ kind: 'billing', view }),
  });
  const liveConnection = createLiveConnection({
    token: () => api.live.token(),
    baseUrl: new URL(config.apiBaseUrl || '/', window.location.origin).toString(),
    log,
  });
  const services = createShellServices({
    state,
    i18n,
    navigateInApp: () => routerNavigate,
    account,
    live: liveConnection.live,
    offline,
  });
  liveConnection.live.subscribe(offline.hear);
  const api = offline.wrap(createShellApi({ baseUrl: config.apiBaseUrl, auth, services }));
  const notesRemote = { name: 'notes', entry: config.remotes.notes };
  const billingRemote = { name: 'billing', entry: config.remotes.billing };
  const marketingRemote = { name: 'marketing', entry: config.remotes.marketing };
  const pwa = createPwa({ createServiceWorker: workboxServiceWorker, log });

  window.addEventListener('unhandledrejection', (event) => {
    log.error('Unhandled failure.', event.reason);
  });

  root.render(
    <BrowserRouter>
      <Shell
        app={{
          auth,
          api,
          identityProviders: config.keycloak.identityProviders,
          state,
          services,
          account,
          liveConnection,
          offline,
          loadNotesApp: createRemoteLoader<NotesAppProps>(federation, {
            ...notesRemote,
            expose: 'NotesApp',
          }),
          loadSharedNote: createRemoteLoader<SharedNoteProps>(federation, {
            ...notesRemote,
            expose: 'SharedNote',
          }),
          loadDataPanel: createRemoteLoader<DataPanelProps>(federation, {
            ...notesRemote,
            expose: 'DataPanel',
          }),
          loadBilling: {
            dialog: createRemoteLoader<BillingDialogProps>(federation, {
              ...billingRemote,
              expose: 'BillingDialog',
            }),
            planPanel: createRemoteLoader<PlanPanelProps>(federation, {
              ...billingRemote,
              expose: 'PlanPanel',
            }),
            subscriptionPage: createRemoteLoader<SubscriptionPageProps>(federation, {
              ...billingRemote,
              expose: 'SubscriptionPage',
            }),
          },
          loadMarketing: {
            site: createRemoteLoader<MarketingAppProps>(federation, {
              ...marketingRemote,
              expose: 'MarketingApp',
            }),
            feedback: createRemoteLoader<FeedbackPageProps>(federation, {
              ...marketingRemote,
              expose: 'FeedbackPage',
            }),
          },
          pwa,
        }}
        onNavigate={(navigate) => {
          routerNavigate = navigate;
        }}
      />
    </BrowserRouter>,
  );

  // A shared note is read signed out: its readers need no session check.
  if (!matchesPage(sharedNotePath, window.location.pathname)) await auth.start();
  document.documentElement.classList.add('theme-loaded');
  pwa.start();
};

start().catch((error: unknown) => {
  log.error('Noted could not start.', error);
  root.render(<StartupError error={error} />);
});
