import {
  entitlementNames,
  hasFeature,
  type Entitlements,
  type SubscriptionStatus,
} from '@noted/api';
import { CheckIcon } from '@noted/ui';
import { formatDay, formatDuration, formatList, formatNumber } from '@noted/ui';
import { useBillingMessages, type Translate } from './messages';

const e = entitlementNames;

/** A limit of the plan: a number, or undefined when it is unlimited (-1 or missing). */
export const limitOf = (entitlements: Entitlements | null | undefined, name: string) => {
  const limit = entitlements?.[name];
  return typeof limit === 'number' && limit >= 0 ? limit : undefined;
};

/** The entitlements in words: notes a month, recording length, AI, export formats. */
export const featureLines = (
  entitlements: Entitlements | null | undefined,
  t: Translate,
  locale: string,
): string[] => {
  if (!entitlements) return [];
  const notes = limitOf(entitlements, e.notesPerMonth);
  const recording = limitOf(entitlements, e.recordingTimeLimit);
  const formats = (
    [
      [e.exportMarkdown, 'features.markdown'],
      [e.exportPdf, 'features.pdf'],
      [e.exportImage, 'features.image'],
    ] as const
  )
    .filter(([name]) => hasFeature(entitlements, name))
    .map(([, key]) => t(key));
  return [
    notes === undefined
      ? t('features.notesUnlimited')
      : t('features.notes', { count: notes, limit: formatNumber(notes, locale) }),
    recording === undefined
      ? t('features.recordingUnlimited')
      : t('features.recording', { duration: formatDuration(recording, locale) }),
    ...(hasFeature(entitlements, e.aiAssist) ? [t('features.ai')] : []),
    ...(formats.length > 0 ? [t('features.export', { formats: formatList(formats, locale) })] : []),
  ];
};

/** What a plan gives, one line each with a check. */
export function PlanFeatures({
  entitlements,
  label,
}: {
  entitlements: Entitlements | null | undefined;
  label: string;
}) {
  const { t, i18n } = useBillingMessages();
  const lines = featureLines(entitlements, t, i18n.language);
  if (lines.length === 0) return null;
  return (
    <ul className="billing-features" aria-label={label}>
      {lines.map((line) => (
        <li key={line}>
          <CheckIcon className="ui-icon" aria-hidden="true" />
          {line}
        </li>
      ))}
    </ul>
  );
}

/** The plan's state in a word or two; nothing for the free plan, which has none to tell. */
export function StatusBadge({ subscription }: { subscription: SubscriptionStatus }) {
  const { t, i18n } = useBillingMessages();
  const { status, planName, cancelAtPeriodEnd, expiresAt } = subscription;
  if (planName === 'free' && status === 'inactive') return null;
  if (cancelAtPeriodEnd && expiresAt && (status === 'active' || status === 'trialing')) {
    return (
      <span className="ui-badge">
        {t('status.ending', { date: formatDay(expiresAt, i18n.language) })}
      </span>
    );
  }
  const tone =
    status === 'active' || status === 'trialing'
      ? ' ui-badge-accent'
      : status === 'past_due' || status === 'unpaid'
        ? ' ui-badge-danger'
        : '';
  return <span className={`ui-badge${tone}`}>{t(`status.${status}`)}</span>;
}

/** When the plan renews, ends or leaves its trial, in a sentence; undefined when not known. */
export const periodLine = (
  subscription: SubscriptionStatus,
  t: Translate,
  locale: string,
): string | undefined => {
  const { planName, status, expiresAt, trialEndsAt, cancelAtPeriodEnd } = subscription;
  if (planName === 'free') return undefined;
  const plan = t(`plans.${planName}.name`);
  if (cancelAtPeriodEnd && expiresAt) {
    return t('panel.ends', { plan, date: formatDay(expiresAt, locale) });
  }
  if (status === 'trialing' && trialEndsAt) {
    return t('panel.trialEnds', { date: formatDay(trialEndsAt, locale) });
  }
  if (!expiresAt) return undefined;
  return status === 'active'
    ? t('panel.renews', { date: formatDay(expiresAt, locale) })
    : t('panel.expires', { date: formatDay(expiresAt, locale) });
};
