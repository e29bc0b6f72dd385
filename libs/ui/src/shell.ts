import type { i18n as I18n } from 'i18next';
import { createContext, useContext } from 'react';
import type { ConfirmOptions } from './dialog/confirmer';
import type { NavigateOptions } from './navigation/navigation';
import type { OpenNoteOptions } from './navigation/navigation';
import type { ToastOptions } from './toast/toaster';

/**
 * What the shell offers every remote: its toast area, confirm popup, image preview, sign-in
 * and settings dialogs, navigation and language. Remotes receive it as the `shell` prop and
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
  /** Opens the settings dialog. */
  openSettings: () => void;
  /** Shows the plans, e.g. after NOTES_LEFT_NOT_ENOUGH. */
  offerUpgrade: () => void;
  /**
   * Marks an entry of the shell's navigation (by its path, e.g. '/review') with a short
   * badge ("New"), or clears it with undefined.
   */
  setNavBadge: (path: string, badge: string | undefined) => void;
  i18n: I18n;
}

export const ShellContext = createContext<ShellServices | null>(null);

/** The shell's services inside a component; a remote rendered outside the shell fails loudly. */
export const useShell = (): ShellServices => {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error('useShell() needs a <ShellContext.Provider> (the shell gives it)');
  return shell;
};
