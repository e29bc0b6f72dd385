import type { Entitlements, Plan, PlanList } from '@noted/api';
import {
  Callout,
  CheckIcon,
  FreeToUse,
  buttonClass,
  formatNumber,
  formatPrice,
  planLimitsOf,
  type PlanLimit,
} from '@noted/ui';
import { useEffect, useState, type ReactNode } from 'react';
import { useSite } from '../site/SiteContext';

type Interval = 'month' | 'year';

const isPlanList = (value: unknown): value is PlanList =>
  typeof value === 'object' && value !== null && Array.isArray((value as PlanList).plans);

/** What a plan gives, in the words of the pricing table, from its entitlements. */
const featuresOf = (plan: Plan, t: ReturnType<typeof useSite>['t'], lang: string): string[] => {
  const { entitlements: e } = plan;
  const notes = typeof e.notes_per_month === 'number' ? e.notes_per_month : -1;
  const recording = typeof e.recordingTimeLimit === 'number' ? e.recordingTimeLimit : -1;
  return [
    notes < 0
      ? t('pricing.notesUnlimited')
      : t('pricing.notes', { count: formatNumber(notes, lang) }),
    recording < 0
      ? t('pricing.recordingUnlimited')
      : recording % 60 === 0
        ? t('pricing.recording', { minutes: recording / 60 })
        : t('pricing.recordingSeconds', { seconds: recording }),
    t('pricing.everything'),
    ...(e.export_markdown !== false ? [t('pricing.markdown')] : []),
    ...(e.ai_assist === true ? [t('pricing.ai')] : []),
    ...(e.export_pdf === true ? [t('pricing.pdf')] : []),
    ...(e.export_image === true ? [t('pricing.image')] : []),
  ];
};

type Translate = ReturnType<typeof useSite>['t'];

const recordingText = (seconds: number, t: Translate) =>
  seconds % 60 === 0 && seconds > 0
    ? t('pricing.recording', { minutes: seconds / 60 })
    : t('pricing.recordingSeconds', { seconds });

/** One limit whoever runs the server set, in the words of the pricing table. */
const limitText = (limit: PlanLimit, t: Translate, lang: string): string => {
  switch (limit.kind) {
    case 'notes':
      return t('pricing.notes', { count: formatNumber(limit.perMonth, lang) });
    case 'recording':
      return recordingText(limit.seconds, t);
    case 'without':
      return t(`free.without.${limit.feature}`);
  }
};

/**
 * A server without payments has no plans to sell: it says it is free to use, every feature and
 * no monthly limit, or the limits its operator set (the free plan's entitlements), and how to
 * start; no price cards that cannot be bought.
 */
function ServerFree({
  entitlements,
  level,
}: {
  entitlements: Entitlements | undefined;
  level: 2 | 3;
}) {
  const { t, lang, signedIn, signIn, Link } = useSite();
  const limits = planLimitsOf(entitlements).map((limit) => limitText(limit, t, lang));
  return (
    <FreeToUse
      className="site-free"
      title={t('free.title')}
      body={
        !entitlements
          ? t('free.bodyUnknown')
          : limits.length > 0
            ? t('free.bodyLimited')
            : t('free.body')
      }
      limits={limits}
      limitsLabel={t('free.limitsLabel')}
      level={level}
      actions={
        signedIn ? (
          <Link to="/" className={buttonClass({ variant: 'primary' })}>
            {t('nav.openApp')}
          </Link>
        ) : (
          <button type="button" className={buttonClass({ variant: 'primary' })} onClick={signIn}>
            {t('free.start')}
          </button>
        )
      }
    />
  );
}

/**
 * The plans as the billing service has them (one source: its public plans route, prices from
 * Stripe). Prerendered as placeholders of the final size, filled once the page runs. `lede`,
 * the words that introduce the plans, shows unless the server sells none; `level` is the
 * heading level of what it says then, under the page's own heading.
 */
export function Pricing({ lede, level = 3 }: { lede?: ReactNode; level?: 2 | 3 }) {
  const { t, lang, fetchPlans, signedIn, signIn, choosePlan } = useSite();
  const [plans, setPlans] = useState<PlanList | 'loading' | 'failed'>('loading');
  const [interval, setInterval] = useState<Interval>('month');
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    fetchPlans().then(
      (answer) => current && setPlans(isPlanList(answer) ? answer : 'failed'),
      () => current && setPlans('failed'),
    );
    return () => {
      current = false;
    };
  }, [fetchPlans, attempt]);
  const retry = () => {
    setPlans('loading');
    setAttempt((count) => count + 1);
  };

  if (plans === 'failed') {
    return (
      <>
        {lede}
        <Callout
          tone="danger"
          role="alert"
          actions={
            <button type="button" className={buttonClass({ size: 'sm' })} onClick={retry}>
              {t('pricing.retry')}
            </button>
          }
        >
          {t('pricing.failed')}
        </Callout>
      </>
    );
  }
  if (plans === 'loading') {
    return (
      <>
        {lede}
        <div className="site-plans" aria-busy="true">
          <p className="visually-hidden" role="status">
            {t('pricing.loading')}
          </p>
          {[0, 1, 2].map((index) => (
            <div key={index} className="site-plan site-plan-placeholder" aria-hidden="true">
              <span className="ui-skeleton-line" />
              <span className="ui-skeleton-line" />
              <span className="ui-skeleton-line" />
            </div>
          ))}
          <noscript>
            <p>{t('pricing.noscript')}</p>
          </noscript>
        </div>
      </>
    );
  }
  if (!plans.paymentsEnabled) {
    const free = plans.plans.find((plan) => plan.tier === 'free');
    return <ServerFree entitlements={free?.entitlements} level={level} />;
  }
  const shown = plans.plans;
  const currency = shown
    .flatMap((plan) => plan.prices)
    .find((price) => price.amount !== null)?.currency;
  const hasYearly = shown.some((plan) => plan.prices.some((price) => price.interval === 'year'));
  const choose = () => (signedIn && choosePlan ? choosePlan() : signIn());
  return (
    <>
      {lede}
      {hasYearly ? (
        <div
          className="ui-segmented site-interval"
          role="radiogroup"
          aria-label={t('pricing.interval')}
        >
          {(['month', 'year'] as const).map((value) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={interval === value}
              className="ui-segmented-option"
              onClick={() => setInterval(value)}
            >
              {value === 'month' ? t('pricing.monthly') : t('pricing.yearly')}
            </button>
          ))}
        </div>
      ) : null}
      <ul className="site-plans">
        {shown.map((plan) => {
          const price = plan.prices.find((candidate) => candidate.interval === interval);
          const name = t(`pricing.plan.${plan.name}`);
          const featured = plan.name === 'standard';
          return (
            <li key={plan.name} className={featured ? 'site-plan site-plan-featured' : 'site-plan'}>
              <h3>{name}</h3>
              <p className="site-plan-price">
                {plan.tier === 'free' ? (
                  <strong>
                    {currency ? formatPrice(0, currency, lang) : t('pricing.freePrice')}
                  </strong>
                ) : price && price.amount !== null ? (
                  <>
                    <strong>{formatPrice(price.amount, price.currency, lang)}</strong>
                    <span>{interval === 'month' ? t('pricing.month') : t('pricing.year')}</span>
                  </>
                ) : (
                  <span className="site-plan-unsold">{t('pricing.notSold')}</span>
                )}
              </p>
              <ul className="site-plan-features">
                {featuresOf(plan, t, lang).map((feature) => (
                  <li key={feature}>
                    <CheckIcon className="ui-icon" aria-hidden="true" />
                    {feature}
                  </li>
                ))}
              </ul>
              <button
                type="button"
                className={buttonClass({
                  variant: featured ? 'primary' : 'secondary',
                  block: true,
                })}
                onClick={plan.tier === 'free' ? signIn : choose}
              >
                {plan.tier === 'free'
                  ? t('pricing.startFree')
                  : t('pricing.choose', { plan: name })}
              </button>
            </li>
          );
        })}
      </ul>
    </>
  );
}
