import type { BillingInterval, PaidPlanName, PlanName, SubscriptionStatus } from '@noted/api';
import { checkoutSessionKey, useShell } from '@noted/ui';
import { useState } from 'react';
import type { BillingApi } from './api';
import { useAccount, useBillingContext } from './BillingRoot';
import { formatDay } from '@noted/ui';
import { log } from './log';
import { useBillingMessages, useErrorText } from './messages';
import { isSubscriber } from './subscription';
import { errorCode } from '@noted/ui';

/** What runs now: a plan being chosen, the cancellation, keeping the plan, or the portal. */
export type BillingAction = `choose:${PlanName}` | 'cancel' | 'keep' | 'portal';

/**
 * What the billing screens do with a plan: choose one (Stripe's checkout for a new
 * subscriber, a change for one who pays already), cancel at the end of the period, keep a
 * cancelled plan, and open Stripe's portal. Each answer becomes the shell's account's status.
 */
export const useBillingActions = (api: BillingApi) => {
  const shell = useShell();
  const { t, i18n } = useBillingMessages();
  const errorText = useErrorText();
  const account = useAccount();
  const { refusePayments } = useBillingContext();
  const [busy, setBusy] = useState<BillingAction>();
  /** The browser is on its way to Stripe: nothing else is to be started. */
  const [leaving, setLeaving] = useState(false);
  const planName = (plan: PlanName) => t(`plans.${plan}.name`);

  const run = async <T>(action: BillingAction, work: () => Promise<T>): Promise<T | undefined> => {
    setBusy(action);
    try {
      return await work();
    } catch (error) {
      if (errorCode(error) === 'PAYMENTS_DISABLED') {
        refusePayments();
        return undefined;
      }
      log.error(`Billing: ${action} failed.`, error);
      shell.toast(t('common.failed', { reason: errorText(error) }));
      return undefined;
    } finally {
      setBusy(undefined);
    }
  };

  const leaveFor = (url: string) => {
    setLeaving(true);
    shell.navigate(url, { allowExternal: true });
  };

  const applied = (status: SubscriptionStatus) => {
    shell.account.setSubscription(status);
    // The limits come with the plan: the usage is asked for again.
    void shell.account.refresh();
    return status;
  };

  const change = async (plan: PaidPlanName, interval: BillingInterval) => {
    const status = applied(await api.billing.change({ plan, interval }));
    shell.toast(t('toast.changed', { plan: planName(status.planName) }), { type: 'success' });
    return status;
  };

  const checkout = async (plan: PaidPlanName, interval: BillingInterval) => {
    try {
      const session = await api.billing.checkout({ plan, interval });
      try {
        sessionStorage.setItem(checkoutSessionKey, session.sessionId);
      } catch (error) {
        // The success page's address still names the session.
        log.warn('The checkout session could not be remembered.', error);
      }
      leaveFor(session.url);
      return undefined;
    } catch (error) {
      // Subscribed meanwhile (another tab): the plan is changed instead.
      if (errorCode(error) === 'CONFLICT') return change(plan, interval);
      throw error;
    }
  };

  /** Chooses a paid plan; signed out, asks to sign in first. Resolves to the new status, if any. */
  const choose = (plan: PaidPlanName, interval: BillingInterval) => {
    if (account.phase === 'signedOut') {
      shell.requestSignIn();
      return Promise.resolve(undefined);
    }
    return run(`choose:${plan}`, () =>
      isSubscriber(account.subscription) ? change(plan, interval) : checkout(plan, interval),
    );
  };

  const cancel = async () => {
    const subscription = account.subscription;
    if (!subscription) return undefined;
    const plan = planName(subscription.planName);
    const confirmed = await shell.confirm({
      title: t('cancel.title', { plan }),
      message: subscription.expiresAt
        ? t('cancel.message', {
            plan,
            date: formatDay(subscription.expiresAt, i18n.language),
          })
        : t('cancel.messageNow'),
      confirmLabel: t('cancel.confirm'),
      cancelLabel: t('cancel.back'),
      danger: true,
    });
    if (!confirmed) return undefined;
    return run('cancel', async () => {
      try {
        const status = applied(await api.billing.cancel());
        shell.toast(
          status.expiresAt
            ? t('cancel.done', { plan, date: formatDay(status.expiresAt, i18n.language) })
            : t('cancel.doneNow'),
          { type: 'success' },
        );
        return status;
      } catch (error) {
        if (errorCode(error) !== 'CONFLICT') throw error;
        shell.toast(t('cancel.nothing'), { type: 'info' });
        await shell.account.refresh();
        return undefined;
      }
    });
  };

  const keep = () => {
    const subscription = account.subscription;
    if (!subscription || subscription.planName === 'free') return Promise.resolve(undefined);
    const plan = subscription.planName;
    return run('keep', async () => {
      const status = applied(
        await api.billing.change({ plan, interval: subscription.interval ?? 'month' }),
      );
      shell.toast(t('toast.kept', { plan: planName(plan) }), { type: 'success' });
      return status;
    });
  };

  const portal = () =>
    run('portal', async () => {
      try {
        leaveFor((await api.billing.portal()).url);
      } catch (error) {
        if (errorCode(error) !== 'NOT_FOUND') throw error;
        shell.toast(t('toast.noCustomer'), { type: 'info' });
      }
    });

  return { busy, leaving, choose, cancel, keep, portal };
};
