import { Button, Callout, CreditCardIcon } from '@noted/ui';
import type { BillingApi } from './api';
import { useAccount, usePaymentsOff } from './BillingRoot';
import { ServerFree } from './FreeToUse';
import { useBillingMessages } from './messages';
import { PlanFeatures, StatusBadge, periodLine } from './PlanParts';
import { canCancel, canKeep, isSubscriber } from './subscription';
import { useBillingActions } from './useBillingActions';

/**
 * The user's own plan: its state and dates, what it gives, and what can be done with it
 * (change it, the card and invoices at Stripe, cancel it, or keep it once cancelled). On a
 * server without payments there is nothing to do with it: it says the server is free to use.
 */
export function ManagePlan({ api, onChangePlan }: { api: BillingApi; onChangePlan: () => void }) {
  const { t, i18n } = useBillingMessages();
  const { subscription } = useAccount();
  const paymentsOff = usePaymentsOff();
  const actions = useBillingActions(api);
  if (!subscription) return null;
  if (paymentsOff) {
    return (
      <div className="billing-manage">
        <ServerFree entitlements={subscription.entitlements} />
      </div>
    );
  }
  const subscriber = isSubscriber(subscription);
  const plan = t(`plans.${subscription.planName}.name`);
  const period = periodLine(subscription, t, i18n.language);
  const idle = actions.busy === undefined && !actions.leaving;

  if (!subscriber) {
    return (
      <div className="billing-manage">
        <div className="billing-manage-head">
          <p className="billing-manage-plan">{t('plans.free.name')}</p>
        </div>
        <p className="billing-muted">{t('manage.freeBody')}</p>
        <div className="ui-dialog-actions">
          <Button variant="primary" onClick={onChangePlan}>
            {t('manage.seePlans')}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="billing-manage">
      <div className="billing-manage-head">
        <p className="billing-manage-plan">{plan}</p>
        <StatusBadge subscription={subscription} />
      </div>
      {period ? <p className="billing-muted">{period}</p> : null}
      {subscription.paymentFailed || subscription.status === 'past_due' ? (
        <Callout tone="warning" role="status">
          {t('panel.pastDue', { plan })}
        </Callout>
      ) : null}
      <section className="billing-manage-gives" aria-labelledby="billing-manage-gives">
        <h3 id="billing-manage-gives">{t('manage.gives')}</h3>
        <PlanFeatures
          entitlements={subscription.entitlements}
          label={t('features.label', { plan })}
        />
      </section>
      <div className="ui-dialog-actions billing-manage-actions">
        {canCancel(subscription) ? (
          <Button
            variant="danger-ghost"
            className="billing-cancel"
            disabled={!idle}
            loading={actions.busy === 'cancel'}
            onClick={() => void actions.cancel()}
          >
            {t('manage.cancel')}
          </Button>
        ) : null}
        <Button
          icon={CreditCardIcon}
          disabled={!idle}
          loading={actions.busy === 'portal'}
          onClick={() => void actions.portal()}
        >
          {t('manage.portal')}
        </Button>
        {canKeep(subscription) ? (
          <Button
            variant="primary"
            disabled={!idle}
            loading={actions.busy === 'keep'}
            onClick={() => void actions.keep()}
          >
            {t('manage.keep')}
          </Button>
        ) : (
          <Button variant="primary" disabled={!idle} onClick={onChangePlan}>
            {t('manage.changePlan')}
          </Button>
        )}
      </div>
    </div>
  );
}
