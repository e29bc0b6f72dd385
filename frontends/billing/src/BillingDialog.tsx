import type { SubscriptionStatus } from '@noted/api';
import { Dialog, type BillingView, type ShellServices } from '@noted/ui';
import { useState } from 'react';
import type { BillingApi } from './api';
import { BillingRoot, usePaymentsOff } from './BillingRoot';
import { ManagePlan } from './ManagePlan';
import { useBillingMessages } from './messages';
import { PricingPlans } from './PricingTable';
import './billing.css';

/** Props of the module exposed as './BillingDialog'; the shell opens it on either view. */
export interface BillingDialogProps {
  api: BillingApi;
  shell: ShellServices;
  view: BillingView;
  onClose: () => void;
}

function BillingViews({ api, view: initial, onClose }: Omit<BillingDialogProps, 'shell'>) {
  const { t } = useBillingMessages();
  const [view, setView] = useState<BillingView>(initial);
  // Nothing to choose on a server without payments: either view says it is free to use.
  const paymentsOff = usePaymentsOff();
  // A subscriber who chose another plan sees their plan as it is now.
  const changed = (_status: SubscriptionStatus) => setView('manage');
  return (
    <Dialog
      title={view === 'upgrade' && !paymentsOff ? t('dialog.upgrade') : t('dialog.manage')}
      onClose={onClose}
      className={
        view === 'upgrade' && !paymentsOff ? 'billing-dialog billing-dialog-wide' : 'billing-dialog'
      }
    >
      {view === 'upgrade' && !paymentsOff ? (
        <PricingPlans api={api} onChanged={changed} />
      ) : (
        <ManagePlan api={api} onChangePlan={() => setView('upgrade')} />
      )}
    </Dialog>
  );
}

/** The plans to choose from (upgrade) or the user's own plan (manage), as a modal. */
export function BillingDialog({ shell, ...props }: BillingDialogProps) {
  return (
    <BillingRoot shell={shell}>
      <BillingViews {...props} />
    </BillingRoot>
  );
}

export default BillingDialog;
