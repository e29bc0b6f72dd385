import { ConfirmHost, ImagePreview, ToastArea } from '@noted/ui';
import { useCallback, useSyncExternalStore } from 'react';
import { SignInDialog } from './auth/SignInDialog';
import { BillingDialogHost } from './billing/BillingDialogHost';
import { useShellApp } from './context';
import { NoteLinkPopup } from './notes/NoteLinkPopup';
import { PwaNotices } from './pwa/PwaNotices';
import { SettingsDialog } from './settings/SettingsDialog';

function PreviewHost() {
  const { state } = useShellApp();
  const request = useSyncExternalStore(state.preview.subscribe, state.preview.get);
  if (!request) return null;
  return (
    <ImagePreview
      key={request.src}
      src={request.src}
      title={request.title}
      onClose={() => {
        state.preview.set(undefined);
        request.onClose?.();
      }}
    />
  );
}

function DialogHost() {
  const { state } = useShellApp();
  const open = useSyncExternalStore(state.dialog.subscribe, state.dialog.get);
  const close = useCallback(() => state.dialog.set({ kind: 'none' }), [state]);
  switch (open.kind) {
    case 'signIn':
      return <SignInDialog onClose={close} />;
    case 'settings':
      return <SettingsDialog section={open.section} onClose={close} />;
    case 'billing':
      return <BillingDialogHost view={open.view} onClose={close} />;
    case 'noteLink':
      return <NoteLinkPopup key={open.noteId} noteId={open.noteId} onClose={close} />;
    case 'none':
      return null;
  }
}

/**
 * The popups of the whole app, once each: toasts, confirm, image preview, sign-in, settings,
 * the billing dialog and the note link popup.
 */
export function ShellHosts() {
  const { state } = useShellApp();
  return (
    <>
      <ToastArea toaster={state.toaster} />
      <ConfirmHost confirmer={state.confirmer} />
      <PreviewHost />
      <DialogHost />
      <PwaNotices />
    </>
  );
}
