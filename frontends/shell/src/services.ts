import {
  createConfirmer,
  createNavigator,
  createNoteOpener,
  createToaster,
  type BillingView,
  type Confirmer,
  type ShellAccount,
  type ShellLive,
  type ShellOffline,
  type SettingsSection,
  type ShellServices,
  type Toaster,
} from '@noted/ui';
import type { i18n as I18n } from 'i18next';
import { createStore, type Store } from './store';

export interface ImagePreviewRequest {
  src: string;
  title?: string;
  onClose?: () => void;
}

/** Which of the shell's own dialogs is open; one at a time. */
export type OpenDialog =
  | { kind: 'none' }
  | { kind: 'signIn' }
  | { kind: 'settings'; section?: SettingsSection }
  | { kind: 'billing'; view: BillingView }
  | { kind: 'noteLink'; noteId: string };

/** The state behind the shell's popups, created once per page. */
export interface ShellState {
  toaster: Toaster;
  confirmer: Confirmer;
  preview: Store<ImagePreviewRequest | undefined>;
  dialog: Store<OpenDialog>;
  /** Badges on the navigation's entries, by path ('/review' → "New"). */
  navBadges: Store<Readonly<Record<string, string>>>;
}

export const createShellState = (): ShellState => ({
  toaster: createToaster(),
  confirmer: createConfirmer(),
  preview: createStore<ImagePreviewRequest | undefined>(undefined),
  dialog: createStore<OpenDialog>({ kind: 'none' }),
  navBadges: createStore<Readonly<Record<string, string>>>({}),
});

/**
 * The services the shell hands to every remote. `navigateInApp` is the router's navigate,
 * which exists only inside the router; it is read at call time so the services stay stable.
 */
export const createShellServices = ({
  state,
  i18n,
  navigateInApp,
  account,
  live,
  offline,
}: {
  state: ShellState;
  i18n: I18n;
  navigateInApp: () => ((path: string, options: { replace: boolean }) => void) | undefined;
  account: ShellAccount;
  live: ShellLive;
  offline: ShellOffline;
}): ShellServices => {
  const navigate = createNavigator({
    navigateInApp: (path, options) => {
      const routerNavigate = navigateInApp();
      if (routerNavigate) routerNavigate(path, options);
      else window.location.assign(path);
    },
  });
  return {
    toast: (message, options) => state.toaster.show(message, options),
    confirm: (options) => state.confirmer.confirm(options),
    previewImage: (src, options = {}) => state.preview.set({ src, ...options }),
    openNote: createNoteOpener(navigate),
    showNoteLink: (noteId) => state.dialog.set({ kind: 'noteLink', noteId }),
    navigate,
    requestSignIn: () => state.dialog.set({ kind: 'signIn' }),
    openSettings: (section) =>
      state.dialog.set(section ? { kind: 'settings', section } : { kind: 'settings' }),
    offerUpgrade: () => account.openBilling('upgrade'),
    account,
    setNavBadge: (path, badge) =>
      state.navBadges.set((current) => {
        if (current[path] === badge) return current;
        const { [path]: _cleared, ...rest } = current;
        return badge === undefined ? rest : { ...rest, [path]: badge };
      }),
    live,
    offline,
    i18n,
  };
};
