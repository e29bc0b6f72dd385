import type { BillingInterval, Plan, PlanList, PlanPrice, SubscriptionStatus } from '@noted/api';
import { Button, Callout, RefreshIcon, Skeleton, useShell, type ShellServices } from '@noted/ui';
import { useEffect, useState } from 'react';
import type { BillingApi } from './api';
import {
  BillingRoot,
  useAccount,
  useBillingContext,
  usePaymentsOff,
  usePlanList,
} from './BillingRoot';
import { formatPrice } from '@noted/ui';
import { ServerFree } from './FreeToUse';
import { useBillingMessages, useErrorText } from './messages';
import { usePayments, type PaymentsState } from './payments';
import { PlanFeatures } from './PlanParts';
import { canCancel, currentPlanOf, isSubscriber } from './subscription';
import { useBillingActions } from './useBillingActions';
import './billing.css';

const priceFor = (plan: Plan, interval: BillingInterval): PlanPrice | undefined =>
  plan.prices.find((price) => price.interval === interval);

/** The most a yearly price saves on twelve monthly ones, over the paid plans (0 to 1). */
const yearlySaving = (plans: Plan[]): number =>
  Math.max(
    0,
    ...plans.map((plan) => {
      const month = priceFor(plan, 'month')?.amount;
      const year = priceFor(plan, 'year')?.amount;
      return month && year ? 1 - year / (12 * month) : 0;
    }),
  );

function IntervalChoice({
  value,
  saving,
  onChange,
}: {
  value: BillingInterval;
  saving: number;
  onChange: (interval: BillingInterval) => void;
}) {
  const { t, i18n } = useBillingMessages();
  const percent = new Intl.NumberFormat(i18n.language, {
    style: 'percent',
    maximumFractionDigits: 0,
  }).format(saving);
  return (
    <fieldset className="billing-interval">
      <legend className="visually-hidden">{t('pricing.interval')}</legend>
      <div className="ui-segmented">
        {(['month', 'year'] as const).map((interval) => (
          <label key={interval} className="ui-segmented-option">
            <input
              type="radio"
              name="billing-interval"
              value={interval}
              checked={value === interval}
              onChange={() => onChange(interval)}
            />
            {t(`pricing.${interval}`)}
            {interval === 'year' && saving >= 0.05 ? (
              <span className="ui-badge ui-badge-accent">{t('pricing.save', { percent })}</span>
            ) : null}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function Price({
  plan,
  price,
  payments,
}: {
  plan: Plan;
  price: PlanPrice | undefined;
  payments: PaymentsState;
}) {
  const { t, i18n } = useBillingMessages();
  const locale = i18n.language;
  if (plan.name === 'free' || price?.amount === 0) {
    return (
      <p className="billing-price">
        <span className="billing-price-amount">{t('pricing.free')}</span>
        <span className="billing-price-period">{t('pricing.forever')}</span>
      </p>
    );
  }
  if (!price || price.amount === null) {
    return (
      <p className="billing-price">
        <span className="billing-price-none">
          {/* A server that takes no payments may have no prices to show at all. */}
          {payments === 'disabled' ? t('pricing.unavailable') : t('pricing.notOffered')}
        </span>
      </p>
    );
  }
  return (
    <>
      <p className="billing-price">
        <span className="billing-price-amount">
          {formatPrice(price.amount, price.currency, locale)}
        </span>
        <span className="billing-price-period">
          {price.interval === 'year' ? t('pricing.perYear') : t('pricing.perMonth')}
        </span>
      </p>
      {price.interval === 'year' ? (
        <p className="billing-price-note">
          {t('pricing.monthly', {
            price: formatPrice(Math.round(price.amount / 12), price.currency, locale),
          })}
        </p>
      ) : null}
    </>
  );
}

interface CardProps {
  plan: Plan;
  interval: BillingInterval;
  payments: PaymentsState;
  actions: ReturnType<typeof useBillingActions>;
  onChanged?: (status: SubscriptionStatus) => void;
}

/** The button of a plan's card: what choosing it means for this user, or nothing to do. */
function CardAction({ plan, interval, payments, actions, onChanged }: CardProps) {
  const { t } = useBillingMessages();
  const shell = useShell();
  const account = useAccount();
  const { subscription } = account;
  const name = t(`plans.${plan.name}.name`);
  const signedOut = account.phase === 'signedOut';
  const current = !signedOut && currentPlanOf(subscription) === plan.name;
  const sameInterval =
    plan.name === 'free' || !subscription?.interval || subscription.interval === interval;

  if (current && sameInterval) {
    return (
      <Button block disabled>
        {t('pricing.current')}
      </Button>
    );
  }
  if (payments === 'disabled') return null;
  if (signedOut) {
    return (
      <Button
        block
        variant={plan.name === 'free' ? 'secondary' : 'primary'}
        onClick={shell.requestSignIn}
      >
        {t('pricing.signInToChoose')}
      </Button>
    );
  }
  const idle = actions.busy === undefined && !actions.leaving && payments === 'ready';
  if (plan.name === 'free') {
    // Going back to free is cancelling the paid plan, only where that is allowed.
    if (!canCancel(subscription)) return null;
    return (
      <Button block disabled={!idle} onClick={() => void actions.cancel()}>
        {t('pricing.choose')}
      </Button>
    );
  }
  const price = priceFor(plan, interval);
  const offered = price !== undefined && price.amount !== null;
  const label = current ? t(`pricing.switchTo_${interval}`) : t('pricing.choose');
  return (
    <Button
      block
      variant="primary"
      aria-label={current ? undefined : t('pricing.chooseNamed', { plan: name })}
      disabled={!offered || !idle}
      loading={actions.busy === `choose:${plan.name}` || payments === 'checking'}
      onClick={() => {
        void actions.choose(plan.name as 'standard' | 'premium', interval).then((status) => {
          if (status) onChanged?.(status);
        });
      }}
    >
      {label}
    </Button>
  );
}

function PlanCard(props: CardProps) {
  const { plan, interval } = props;
  const { t } = useBillingMessages();
  const account = useAccount();
  const current =
    account.phase !== 'signedOut' && currentPlanOf(account.subscription) === plan.name;
  const name = t(`plans.${plan.name}.name`);
  const price = plan.name === 'free' ? undefined : priceFor(plan, interval);
  const titleId = `billing-plan-${plan.name}`;
  return (
    <li
      className={current ? 'billing-plan billing-plan-current' : 'billing-plan'}
      aria-labelledby={titleId}
    >
      <div className="billing-plan-head">
        <h3 id={titleId}>{name}</h3>
        {current ? <span className="ui-badge ui-badge-accent">{t('pricing.current')}</span> : null}
      </div>
      <p className="billing-plan-tagline">{t(`plans.${plan.name}.tagline`)}</p>
      <div className="billing-plan-price">
        <Price plan={plan} price={price} payments={props.payments} />
        {price?.trialDays && !isSubscriber(account.subscription) ? (
          <p className="billing-price-note billing-trial">
            {t('pricing.trial', { count: price.trialDays })}
          </p>
        ) : null}
      </div>
      <PlanFeatures entitlements={plan.entitlements} label={t('features.label', { plan: name })} />
      <div className="billing-plan-action">
        <CardAction {...props} />
      </div>
    </li>
  );
}

/**
 * Spec section 8: said plainly instead of offering buttons that would fail, where the server
 * sells plans but this page cannot take payments (no publishable key, Stripe.js not loaded).
 * A server that sells nothing says it is free to use instead (ServerFree).
 */
export function PaymentsDisabled() {
  const { t } = useBillingMessages();
  return (
    <Callout tone="info" title={t('payments.disabled')}>
      <p>{t('payments.disabledDetail')}</p>
    </Callout>
  );
}

export interface PricingPlansProps {
  api: BillingApi;
  /** Told of the new status after a subscriber changed plan (a checkout leaves the page). */
  onChanged?: (status: SubscriptionStatus) => void;
}

/**
 * The plans as cards with the interval switch: the table itself, loaded or not. On a server
 * that takes no payments there are no cards that cannot be bought: it says it is free to use.
 */
export function PlansTable({ api, list, onChanged }: PricingPlansProps & { list: PlanList }) {
  const { t } = useBillingMessages();
  const account = useAccount();
  const { refusePayments } = useBillingContext();
  const serverFree = usePaymentsOff() || !list.paymentsEnabled;
  const payments = usePayments(list, { load: account.phase !== 'signedOut' && !serverFree });
  const actions = useBillingActions(api);
  const [interval, setInterval] = useState<BillingInterval>(
    account.subscription?.interval ?? 'month',
  );
  // What the plans said counts for the whole dialog (its title), as a refused call would.
  useEffect(() => {
    if (!list.paymentsEnabled) refusePayments();
  }, [list, refusePayments]);
  if (serverFree) {
    const signedIn = account.phase === 'ready' && !account.subscriptionError;
    const free = list.plans.find((plan) => plan.name === 'free');
    return (
      <div className="billing-pricing">
        <ServerFree
          entitlements={
            signedIn && account.subscription?.entitlements
              ? account.subscription.entitlements
              : free?.entitlements
          }
        />
      </div>
    );
  }
  const paid = list.plans.filter((plan) => plan.name !== 'free');
  const yearly = paid.some((plan) => priceFor(plan, 'year'));
  return (
    <div className="billing-pricing">
      {payments === 'disabled' ? <PaymentsDisabled /> : null}
      {yearly ? (
        <IntervalChoice value={interval} saving={yearlySaving(paid)} onChange={setInterval} />
      ) : null}
      <ul className="billing-plans" aria-label={t('pricing.label')}>
        {list.plans.map((plan) => (
          <PlanCard
            key={plan.name}
            plan={plan}
            interval={interval}
            payments={payments}
            actions={actions}
            onChanged={onChanged}
          />
        ))}
      </ul>
    </div>
  );
}

/** The plans from the API, with their loading and failure. */
export function PricingPlans({ api, onChanged }: PricingPlansProps) {
  const { t } = useBillingMessages();
  const errorText = useErrorText();
  const { list, error, retry } = usePlanList(api);
  if (error) {
    return (
      <Callout
        tone="danger"
        role="alert"
        actions={
          <Button size="sm" icon={RefreshIcon} onClick={retry}>
            {t('common.retry')}
          </Button>
        }
      >
        {t('pricing.loadFailed', { reason: errorText(error) })}
      </Callout>
    );
  }
  if (!list) return <Skeleton blocks={3} label={t('common.loading')} className="billing-plans" />;
  return <PlansTable api={api} list={list} onChanged={onChanged} />;
}

/** Props of the module exposed as './PricingTable' (the plans on a page of their own). */
export interface PricingTableProps extends PricingPlansProps {
  shell: ShellServices;
}

/** The free, standard and premium plans to choose from, wherever a page wants them. */
export function PricingTable({ shell, ...props }: PricingTableProps) {
  return (
    <BillingRoot shell={shell}>
      <PricingPlans {...props} />
    </BillingRoot>
  );
}

export default PricingTable;
