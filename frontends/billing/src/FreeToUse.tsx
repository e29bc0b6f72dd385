import type { Entitlements } from '@noted/api';
import { FreeToUse, formatDuration, formatNumber, planLimitsOf, type PlanLimit } from '@noted/ui';
import type { ReactNode } from 'react';
import { useBillingMessages, type Translate } from './messages';

/** One limit whoever runs the server set, in words. */
const limitText = (limit: PlanLimit, t: Translate, locale: string): string => {
  switch (limit.kind) {
    case 'notes':
      return t('features.notes', {
        count: limit.perMonth,
        limit: formatNumber(limit.perMonth, locale),
      });
    case 'recording':
      return t('features.recording', { duration: formatDuration(limit.seconds, locale) });
    case 'without':
      return t(`free.without.${limit.feature}`);
  }
};

/**
 * The words every billing screen says on a server without payments: free to use, and either
 * every feature with no monthly limit, or the limits its operator set (from the entitlements
 * the server gives; not known, it says only that nothing is for sale).
 */
export const useFreeToUseWords = (entitlements: Entitlements | null | undefined) => {
  const { t, i18n } = useBillingMessages();
  const limits = planLimitsOf(entitlements).map((limit) => limitText(limit, t, i18n.language));
  return {
    title: t('free.title'),
    body: !entitlements
      ? t('free.bodyUnknown')
      : limits.length > 0
        ? t('free.bodyLimited')
        : t('free.body'),
    limits,
    limitsLabel: t('free.limitsLabel'),
  };
};

/** "This server is free to use", as the billing screens show it (panel, dialog, pages). */
export function ServerFree({
  entitlements,
  actions,
  page = false,
}: {
  entitlements: Entitlements | null | undefined;
  actions?: ReactNode;
  /** A page of its own (where Stripe's checkout would return): the title is the page's heading. */
  page?: boolean;
}) {
  const words = useFreeToUseWords(entitlements);
  return page ? (
    <FreeToUse {...words} actions={actions} level={1} layout="page" />
  ) : (
    <FreeToUse {...words} actions={actions} />
  );
}
