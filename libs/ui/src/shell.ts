import type { LiveMessage, Note, SubscriptionStatus, User, UserUsage } from '@noted/api';
import type { i18n as I18n } from 'i18next';
import { createContext, useContext } from 'react';
import type { ConfirmOptions } from './dialog/confirmer';
import type { NavigateOptions } from './navigation/navigation';
import type { OpenNoteOptions } from './navigation/navigation';
import type { ToastOptions } from './toast/toaster';

/** A section of the settings dialog that it can open on (scrolled to and focused). */
export type SettingsSection = 'plan' | 'data';

/** The billing dialogs the shell opens: the plans to choose from, or the plan one has. */
export type BillingView = 'upgrade' | 'manage';

/** What the shell knows of the signed-in user's account, checked after sign-in (spec section 4). */
export interface AccountState {
  /** 'failed': the user could not be checked or created (`error` says why). */
  phase: 'signedOut' | 'loading' | 'ready' | 'failed';
  user: User | undefined;
  /**
   * The plan, as the status call answered (or the verification of a checkout); free and
   * inactive without entitlements when both failed, with `subscriptionError` saying why.
   */
  subscription: SubscriptionStatus | undefined;
  subscriptionError: string | undefined;
  /** This month's use of the plan; undefined until loaded or when it could not be. */
  usage: UserUsage | undefined;
  error: string | undefined;
}

/** The signed-in user's plan and usage, kept by the shell; every remote reads the same. */
export interface ShellAccount {
  get: () => AccountState;
  subscribe: (listener: () => void) => () => void;
  /**
   * Asks again for the plan and the usage; with the `sessionId` of a checkout, verifies that
   * first and falls back to the status when it answers an error.
   */
  refresh: (options?: { sessionId?: string }) => Promise<AccountState>;
  /** Takes the status a billing call answered (a plan changed or cancelled) as the current one. */
  setSubscription: (subscription: SubscriptionStatus) => void;
  /** Opens the billing remote's dialog on the plans or on the user's own plan. */
  openBilling: (view: BillingView) => void;
}

/** The live connection as the page sees it: off (signed out), connecting, open, or waiting to retry. */
export type LiveStatus = 'off' | 'connecting' | 'open' | 'waiting';

/**
 * The shell's live connection (spec section 7): every message the server pushes is re-emitted
 * here to whoever listens in the page. A `connection` message comes with every connect,
 * reconnects included: what was pushed while the connection was down was missed, so a listener
 * that shows server state reads it again then.
 */
export interface ShellLive {
  subscribe: (listener: (message: LiveMessage) => void) => () => void;
  status: () => LiveStatus;
  onStatus: (listener: () => void) => () => void;
}

/**
 * A change made on this device that the server has not taken yet: a note written or edited
 * offline, or while the server failed. `waiting`: sent when the network is back; `sending`:
 * on its way; `conflict`: the note changed elsewhere since the version this change was made
 * on, so it waits for the user's choice; `refused`: the server said no (`code`), and the
 * change waits for the user to send it again or drop it.
 */
export interface PendingChange {
  noteId: string;
  kind: 'create' | 'update';
  /** The note's title as this change leaves it, for saying which note waits. */
  title: string;
  state: 'waiting' | 'sending' | 'conflict' | 'refused';
  /** Why the server did not take it: its error code and what it said. */
  code?: string;
  message?: string;
  /** When the change was first kept, ISO 8601. */
  since: string;
}

/**
 * The device copy of the signed-in user's notes (IndexedDB): the notes read recently, readable
 * offline through the same API client, and the changes waiting to be sent, in order.
 */
export interface ShellOffline {
  /** Whether the browser has a network, as the page last heard. */
  online: () => boolean;
  /** What waits to be sent, in the order it will go (empty when signed out). */
  pending: () => readonly PendingChange[];
  /** Called when `online()` or `pending()` changed. */
  subscribe: (listener: () => void) => () => void;
  /** Sends what waits now; settles when the queue has been tried. */
  sendNow: () => Promise<void>;
  /** A change in conflict goes over the version saved elsewhere; a refused one is tried again. */
  keepMine: (noteId: string) => Promise<void>;
  /** Drops the change waiting for this note; answers the server's version when there is one. */
  discard: (noteId: string) => Promise<Note | undefined>;
}

/**
 * Where the billing remote keeps the id of the checkout it sent the browser to, so the shell
 * verifies it after Stripe sends the browser back (sessionStorage, read once).
 */
export const checkoutSessionKey = 'checkoutSessionId';

/**
 * Where the shell notes that this browser is signed in ('1'), a hint and never a token: the
 * site's prerendered pages, which run without the shell, read it to offer "Open your notes"
 * instead of "Sign in". The app itself always checks the session for real.
 */
export const signedInHintKey = 'notedSignedIn';

/**
 * What the shell offers every remote: its toast area, confirm popup, image preview, sign-in
 * and settings dialogs, navigation, the account's plan and language. Remotes receive it as the `shell` prop and
 * put it in ShellContext, so each popup exists once in the page, owned by the shell.
 */
export interface ShellServices {
  toast: (message: string, options?: ToastOptions) => void;
  confirm: (options: ConfirmOptions) => Promise<boolean>;
  /** The full-screen image overlay; `onClose` runs when it closes (revoke object URLs there). */
  previewImage: (src: string, options?: { title?: string; onClose?: () => void }) => void;
  /** Opens /notes/{id} here or in a new tab. */
  openNote: (id: string, options?: OpenNoteOptions) => void;
  /** The note link popup: a linked note read in place, with ways to open it. */
  showNoteLink: (id: string) => void;
  /** Router navigation that refuses external addresses unless allowed. */
  navigate: (to: string, options?: NavigateOptions) => void;
  /** Opens the sign-in dialog (for example from a page that needs an account). */
  requestSignIn: () => void;
  /** Opens the settings dialog, on one of its sections when given. */
  openSettings: (section?: SettingsSection) => void;
  /** Shows the plans, e.g. after NOTES_LEFT_NOT_ENOUGH. */
  offerUpgrade: () => void;
  /** The signed-in user's plan, its status and this month's usage. */
  account: ShellAccount;
  /**
   * Marks an entry of the shell's navigation (by its path, e.g. '/review') with a short
   * badge ("New"), or clears it with undefined.
   */
  setNavBadge: (path: string, badge: string | undefined) => void;
  /** The live connection's messages, re-emitted in the page. */
  live: ShellLive;
  /** The notes kept on this device and the changes waiting to be sent. */
  offline: ShellOffline;
  i18n: I18n;
}

export const ShellContext = createContext<ShellServices | null>(null);

/** The shell's services inside a component; a remote rendered outside the shell fails loudly. */
export const useShell = (): ShellServices => {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error('useShell() needs a <ShellContext.Provider> (the shell gives it)');
  return shell;
};
