import { Dialog, useShell, type BillingView } from '@noted/ui';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useShellApp } from '../context';
import type { BillingDialogProps } from '../remotes/contracts';
import { RemoteModule } from '../remotes/RemoteModule';

/**
 * The billing remote's dialog (the plans, or the user's plan), fetched when first opened; a
 * dialog of the shell's stands in while it loads or when it cannot be loaded.
 */
export function BillingDialogHost({ view, onClose }: { view: BillingView; onClose: () => void }) {
  const { t } = useTranslation('shell');
  const { api, loadBilling, pwa } = useShellApp();
  const shell = useShell();
  const props = useMemo<BillingDialogProps>(
    () => ({ api, shell, view, onClose }),
    [api, shell, view, onClose],
  );
  const frame = (placeholder: ReactNode) => (
    <Dialog title={t(`billing.${view}`)} onClose={onClose} className="billing-frame">
      {placeholder}
    </Dialog>
  );
  return (
    <RemoteModule
      load={loadBilling.dialog}
      props={props}
      name="billing"
      onError={pwa.recoverFromLoadError}
      frame={frame}
      blocks={1}
    />
  );
}
