import type { ApiClient } from '@noted/api';
import type { ShellServices } from '@noted/ui';
import { createContext, useContext } from 'react';
import type { Account } from './account';
import type { Auth } from './auth/auth';
import type { LiveConnection } from './live/connection';
import type { Offline } from './offline/offline';
import type { Pwa } from './pwa/pwa';
import type {
  BillingModules,
  DataPanelModule,
  MarketingModules,
  NotesAppModule,
  SharedNoteModule,
} from './remotes/contracts';
import type { ShellState } from './services';

/** Everything the shell's own components share, given once at the top of the tree. */
export interface ShellApp {
  auth: Auth;
  api: ApiClient;
  /** Identity providers the realm brokers (kc_idp_hint values), offered in the sign-in dialog. */
  identityProviders: string[];
  state: ShellState;
  services: ShellServices;
  /** The signed-in user's plan and usage; `services.account` is the same, as remotes see it. */
  account: Account;
  /** The live connection, opened once the signed-in user is found (spec section 4). */
  liveConnection: LiveConnection;
  /** The device copy of the signed-in user's notes and the changes waiting to be sent. */
  offline: Offline;
  loadNotesApp: () => Promise<NotesAppModule>;
  loadSharedNote: () => Promise<SharedNoteModule>;
  /** The notes remote's panel of the settings: the user's notes exported and imported. */
  loadDataPanel: () => Promise<DataPanelModule>;
  loadBilling: BillingModules;
  /** The site's pages and the feedback page. */
  loadMarketing: MarketingModules;
  /** The installed-app side: service worker, new versions, install offer, chunk-error reloads. */
  pwa: Pwa;
}

export const ShellAppContext = createContext<ShellApp | null>(null);

export const useShellApp = (): ShellApp => {
  const app = useContext(ShellAppContext);
  if (!app) throw new Error('useShellApp() needs <ShellAppContext.Provider>');
  return app;
};
