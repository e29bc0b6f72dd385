import { entitlementNames } from '@noted/api';
import { Button, Callout, CreditCardIcon, Skeleton, useShell, type ShellServices } from '@noted/ui';
import type { BillingApi } from './api';
import { BillingRoot, useAccount, usePaymentsOff } from './BillingRoot';
import { formatDuration, formatNumber, formatResetDay } from '@noted/ui';
import { ServerFree } from './FreeToUse';
import { useBillingMessages } from './messages';
import { StatusBadge, limitOf, periodLine } from './PlanParts';
import { isSubscriber } from './subscription';
import { useBillingActions } from './useBillingActions';
import './billing.css';

/** Props of the module exposed as './PlanPanel', which the settings show. */
export interface PlanPanelProps {
  api: BillingApi;
  shell: ShellServices;
}

/**
 * This month's notes: how many are left of the allowance, as words and a bar. `onlyLimited`:
 * nothing when there is no limit (the free-to-use notice said so already).
 */
function NotesLeft({ onlyLimited = false }: { onlyLimited?: boolean }) {
  const { t, i18n } = useBillingMessages();
  const { usage, subscription } = useAccount();
  const limit = usage
    ? usage.notes.limit >= 0
      ? usage.notes.limit
      : undefined
    : limitOf(subscription?.entitlements, entitlementNames.notesPerMonth);
  if (limit === undefined) {
    if (onlyLimited) return null;
    return <p className="billing-panel-line">{t('panel.notesUnlimited')}</p>;
  }
  if (!usage) return null;
  const left = Math.max(0, limit - usage.notes.used);
  const share = limit === 0 ? 1 : Math.min(1, usage.notes.used / limit);
  return (
    <div className="billing-usage">
      <p className="billing-panel-line">
        {t('panel.notesLeft', {
          count: limit,
          left: formatNumber(left, i18n.language),
          limit: formatNumber(limit, i18n.language),
          date: formatResetDay(usage.resetsAt, i18n.language),
        })}
      </p>
      <div
        className={left === 0 ? 'billing-meter billing-meter-full' : 'billing-meter'}
        aria-hidden="true"
      >
        <span style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
    </div>
  );
}

function RecordingLimit() {
  const { t, i18n } = useBillingMessages();
  const { usage, subscription } = useAccount();
  const seconds = usage
    ? usage.recordingTimeLimit >= 0
      ? usage.recordingTimeLimit
      : undefined
    : limitOf(subscription?.entitlements, entitlementNames.recordingTimeLimit);
  if (seconds === undefined && !usage && !subscription?.entitlements) return null;
  return (
    <p className="billing-panel-line">
      {seconds === undefined
        ? t('panel.recordingUnlimited')
        : t('panel.recording', { duration: formatDuration(seconds, i18n.language) })}
    </p>
  );
}

function Panel({ api }: { api: BillingApi }) {
  const { t, i18n } = useBillingMessages();
  const shell = useShell();
  const { phase, subscription, subscriptionError } = useAccount();
  const paymentsOff = usePaymentsOff();
  const actions = useBillingActions(api);
  if (phase === 'loading') return <Skeleton lines={3} label={t('panel.loading')} />;
  if (phase !== 'ready' || !subscription) return null;
  if (paymentsOff) {
    // Nothing to buy or manage here: what the server gives, and this month's count if limited.
    return (
      <section className="billing-panel-free" aria-labelledby="billing-panel-title">
        <h3 id="billing-panel-title" className="ui-overline">
          {t('panel.title')}
        </h3>
        <ServerFree entitlements={subscription.entitlements} />
        <NotesLeft onlyLimited />
      </section>
    );
  }
  const subscriber = isSubscriber(subscription);
  const planName = subscriber ? subscription.planName : 'free';
  const plan = t(`plans.${planName}.name`);
  const period = periodLine(subscription, t, i18n.language);
  const pastDue = subscriber && (subscription.paymentFailed || subscription.status === 'past_due');
  return (
    <section className="billing-panel" aria-labelledby="billing-panel-title">
      <div className="billing-panel-head">
        <div className="billing-panel-name">
          <h3 id="billing-panel-title">{t('panel.title')}</h3>
          <p className="billing-panel-plan">
            {t('panel.plan', { plan })}
            <StatusBadge subscription={subscription} />
          </p>
        </div>
        <div className="billing-panel-actions">
          {subscriber ? (
            <Button size="sm" onClick={() => shell.account.openBilling('manage')}>
              {t('panel.manage')}
            </Button>
          ) : null}
          {planName !== 'premium' ? (
            <Button
              size="sm"
              variant="primary"
              onClick={() => shell.account.openBilling('upgrade')}
            >
              {t('panel.upgrade')}
            </Button>
          ) : null}
        </div>
      </div>
      <div className="billing-panel-lines">
        <NotesLeft />
        <RecordingLimit />
        {period ? <p className="billing-panel-line">{period}</p> : null}
      </div>
      {pastDue ? (
        <Callout
          tone="warning"
          role="status"
          actions={
            <Button
              size="sm"
              icon={CreditCardIcon}
              loading={actions.busy === 'portal'}
              disabled={actions.leaving}
              onClick={() => void actions.portal()}
            >
              {t('panel.updateCard')}
            </Button>
          }
        >
          {t('panel.pastDue', { plan })}
        </Callout>
      ) : null}
      {subscriptionError ? (
        <Callout tone="warning" role="status">
          {t('panel.loadFailed', { reason: subscriptionError })}
        </Callout>
      ) : null}
    </section>
  );
}

/**
 * The plan and this month's usage, for the settings: Upgrade and Manage open the dialogs. On a
 * server without payments: that it is free to use, with the limits its operator set, if any.
 */
export function PlanPanel({ shell, api }: PlanPanelProps) {
  return (
    <BillingRoot shell={shell}>
      <Panel api={api} />
    </BillingRoot>
  );
}

export default PlanPanel;
