import {
  subscriptionStatuses,
  type SubscriptionStatus,
  type SubscriptionStatusName,
} from '@noted/api';
import type { PlanCatalogue } from '../plans.js';
import type { SubscriptionRow } from './repository.js';

/** The states in which a paid plan gives its entitlements (past_due: Stripe is still retrying). */
const activeStatuses: ReadonlySet<SubscriptionStatusName> = new Set([
  'active',
  'trialing',
  'past_due',
]);

export const isActiveStatus = (status: SubscriptionStatusName) => activeStatuses.has(status);

/** Stripe's statuses are a closed list today; a new one is treated as not active. */
export const statusName = (status: string): SubscriptionStatusName =>
  subscriptionStatuses.find((known) => known !== 'inactive' && known === status) ?? 'incomplete';

/**
 * What a user's subscription means now: a paid plan while it is active, else the free plan
 * (a cancelled or expired subscription keeps its status and dates for the user to read).
 */
export const presentStatus = (
  row: SubscriptionRow | undefined,
  plans: PlanCatalogue,
  paymentsEnabled: boolean,
): SubscriptionStatus => {
  if (!row) {
    return {
      planName: 'free',
      status: 'inactive',
      expiresAt: null,
      isActive: false,
      entitlements: plans.entitlements.free,
      interval: null,
      cancelAtPeriodEnd: false,
      trialEndsAt: null,
      paymentFailed: false,
      paymentsEnabled,
    };
  }
  const isActive = isActiveStatus(row.status);
  const planName = isActive ? row.plan : 'free';
  return {
    planName,
    status: row.status,
    expiresAt: row.current_period_end?.toISOString() ?? null,
    isActive,
    entitlements: plans.entitlements[planName],
    interval: isActive ? row.interval : null,
    cancelAtPeriodEnd: isActive && row.cancel_at_period_end,
    trialEndsAt: row.status === 'trialing' ? (row.trial_end?.toISOString() ?? null) : null,
    paymentFailed: row.status === 'past_due' || row.status === 'unpaid',
    paymentsEnabled,
  };
};
