import type { PlanName } from '@noted/api';
import {
  Button,
  Callout,
  CircleCheckIcon,
  CircleXIcon,
  RefreshIcon,
  Skeleton,
  buttonClass,
  checkoutSessionKey,
  useShell,
  type ShellServices,
} from '@noted/ui';
import { Link, useSearchParams } from '@noted/router';
import { useEffect, useState } from 'react';
import type { BillingApi } from './api';
import { BillingRoot, useAccount, usePaymentsOff } from './BillingRoot';
import { ServerFree } from './FreeToUse';
import { log } from './log';
import { useBillingMessages } from './messages';
import { PlanFeatures } from './PlanParts';
import { isSubscriber } from './subscription';
import './billing.css';

/** Props of the module exposed as './SubscriptionPage': where Stripe's checkout returns to. */
export interface SubscriptionPageProps {
  api: BillingApi;
  shell: ShellServices;
  page: 'success' | 'cancel';
}

function ToNotes({ label }: { label: string }) {
  return (
    <Link className={buttonClass({ variant: 'primary' })} to="/">
      {label}
    </Link>
  );
}

/**
 * Either page on a server that takes no payments (an old link, a typed address): there was no
 * payment to confirm or cancel; the server is free to use.
 */
function FreePage() {
  const { t } = useBillingMessages();
  const { subscription } = useAccount();
  return (
    <div className="billing-page">
      <ServerFree
        page
        entitlements={subscription?.entitlements}
        actions={<ToNotes label={t('free.toNotes')} />}
      />
    </div>
  );
}

/**
 * `/subscription/success?session_id=…`: the checkout verified through the shell's account
 * (the status instead when the verification answers an error), then the plan it gave.
 */
function Success() {
  const { t } = useBillingMessages();
  const shell = useShell();
  const account = useAccount();
  const paymentsOff = usePaymentsOff();
  const [params] = useSearchParams();
  const sessionId = params.get('session_id') ?? undefined;
  /** Each "Check again" is one more attempt; the page waits for the latest to answer. */
  const [attempt, setAttempt] = useState(0);
  const [answered, setAnswered] = useState(-1);
  const checking = answered !== attempt;
  const ready = account.phase === 'ready';

  useEffect(() => {
    if (!ready || paymentsOff) return;
    let active = true;
    shell.account
      .refresh({ sessionId })
      .catch((error: unknown) => log.error('Confirming the checkout failed.', error))
      .finally(() => {
        if (active) setAnswered(attempt);
      });
    return () => {
      active = false;
    };
  }, [ready, paymentsOff, shell, sessionId, attempt]);

  if (account.phase === 'failed') {
    return (
      <section className="billing-page">
        <Callout tone="danger" role="alert">
          {t('success.failed', { reason: account.error ?? t('common.unknownError') })}
        </Callout>
      </section>
    );
  }
  if (ready && paymentsOff) return <FreePage />;
  if (!ready || (checking && !isSubscriber(account.subscription))) {
    return (
      <section className="billing-page">
        <Skeleton lines={4} label={ready ? t('success.checking') : t('panel.loading')} />
      </section>
    );
  }
  const { subscription, subscriptionError } = account;
  const planName: PlanName | undefined = isSubscriber(subscription)
    ? subscription?.planName
    : undefined;
  const checkAgain = (
    <Button icon={RefreshIcon} loading={checking} onClick={() => setAttempt((n) => n + 1)}>
      {t('success.checkAgain')}
    </Button>
  );

  if (!planName) {
    return (
      <section className="billing-page" aria-labelledby="billing-page-title">
        <span className="billing-page-art" aria-hidden="true">
          <RefreshIcon className="ui-icon" />
        </span>
        <h1 id="billing-page-title">{t('success.pendingTitle')}</h1>
        <p>{t('success.pendingBody')}</p>
        {subscriptionError ? (
          <Callout tone="warning" role="status">
            {t('success.failed', { reason: subscriptionError })}
          </Callout>
        ) : null}
        <div className="billing-page-actions">
          {checkAgain}
          <ToNotes label={t('success.toNotes')} />
        </div>
      </section>
    );
  }
  const plan = t(`plans.${planName}.name`);
  return (
    <section className="billing-page" aria-labelledby="billing-page-title">
      <span className="billing-page-art billing-page-art-success" aria-hidden="true">
        <CircleCheckIcon className="ui-icon" />
      </span>
      <h1 id="billing-page-title">{t('success.title', { plan })}</h1>
      <p>{t('success.body')}</p>
      <div className="billing-page-card">
        <PlanFeatures
          entitlements={subscription?.entitlements}
          label={t('features.label', { plan })}
        />
      </div>
      <div className="billing-page-actions">
        <ToNotes label={t('success.toNotes')} />
      </div>
    </section>
  );
}

/** `/subscription/cancel`: the checkout was left before paying. */
function Cancelled() {
  const { t } = useBillingMessages();
  const shell = useShell();
  const paymentsOff = usePaymentsOff();
  useEffect(() => {
    // The checkout that was left is not one to verify later.
    try {
      sessionStorage.removeItem(checkoutSessionKey);
    } catch {
      // Storage refused: nothing was kept either.
    }
  }, []);
  if (paymentsOff) return <FreePage />;
  return (
    <section className="billing-page" aria-labelledby="billing-page-title">
      <span className="billing-page-art" aria-hidden="true">
        <CircleXIcon className="ui-icon" />
      </span>
      <h1 id="billing-page-title">{t('cancelPage.title')}</h1>
      <p>{t('cancelPage.body')}</p>
      <div className="billing-page-actions">
        <Button onClick={shell.offerUpgrade}>{t('cancelPage.seePlans')}</Button>
        <ToNotes label={t('cancelPage.toNotes')} />
      </div>
    </section>
  );
}

/** The pages Stripe's checkout sends the browser back to, in the shell's plain layout. */
export function SubscriptionPage({ shell, page }: SubscriptionPageProps) {
  return (
    <BillingRoot shell={shell}>{page === 'success' ? <Success /> : <Cancelled />}</BillingRoot>
  );
}

export default SubscriptionPage;
