import {
  AppError,
  freePlanFrom,
  planEntitlements,
  type Plan,
  type PlanList,
  type SubscriptionStatus,
  type UserUsage,
} from '@noted/api';
import type { AccountState, Messages } from '@noted/ui';
import { createHostedTestShell, createTestAccount, createTestI18n } from '@noted/ui/testing';
import { render } from '@testing-library/react';
import { MemoryRouter } from '@noted/router';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import type { BillingApi } from './api';
import enBilling from './messages/en/billing.json';
import zhBilling from './messages/zh/billing.json';
import { PaymentsLoaderContext, forgetPaymentsClients, type PaymentsLoader } from './payments';

/** Test support: the plans as the billing service lists them, a fake of its calls, a shell. */

export const chineseBillingSets = { billing: zhBilling };

const entitlements = planEntitlements();

const price = (interval: 'month' | 'year', amount: number, trialDays: number | null = null) => ({
  interval,
  amount,
  currency: 'usd',
  trialDays,
});

export const plans: Plan[] = [
  { name: 'free', tier: 'free', entitlements: entitlements.free, prices: [] },
  {
    name: 'standard',
    tier: 'premium',
    entitlements: entitlements.standard,
    prices: [price('month', 500, 14), price('year', 5000, 14)],
  },
  {
    name: 'premium',
    tier: 'premium',
    entitlements: entitlements.premium,
    prices: [price('month', 1000), price('year', 9600)],
  },
];

export const planList = (overrides: Partial<PlanList> = {}): PlanList => ({
  plans,
  paymentsEnabled: true,
  publishableKey: 'pk_test_noted',
  ...overrides,
});

export const subscriptionOf = (overrides: Partial<SubscriptionStatus> = {}): SubscriptionStatus => {
  const planName = overrides.planName ?? 'free';
  const paid = planName !== 'free';
  return {
    planName,
    status: paid ? 'active' : 'inactive',
    expiresAt: paid ? '2025-12-01T10:00:00.000Z' : null,
    isActive: paid,
    entitlements: entitlements[planName],
    interval: paid ? 'month' : null,
    cancelAtPeriodEnd: false,
    trialEndsAt: null,
    paymentFailed: false,
    paymentsEnabled: true,
    ...overrides,
  };
};

export const usageOf = (used = 63, limit = 100): UserUsage => ({
  period: '2025-11',
  resetsAt: '2025-12-01T00:00:00.000Z',
  notes: { used, limit },
  recordingTimeLimit: 60,
});

/** The account of a signed-in user on `subscription` (free by default). */
export const signedInAccount = (
  subscription: SubscriptionStatus = subscriptionOf(),
  overrides: Partial<AccountState> = {},
) =>
  createTestAccount({
    phase: 'ready',
    subscription,
    usage: usageOf(),
    ...overrides,
  });

/** The billing calls, answering as the service would for a user on `subscription`. */
export const fakeBillingApi = (list: PlanList = planList()) => {
  const billing = {
    plans: vi.fn(async () => list),
    status: vi.fn(async () => subscriptionOf()),
    verify: vi.fn(async (_sessionId: string) => subscriptionOf()),
    checkout: vi.fn(async (_body: { plan: string; interval?: string }) => ({
      sessionId: 'cs_test_a1',
      url: 'https://checkout.stripe.com/c/pay/cs_test_a1',
    })),
    change: vi.fn(async (body: { plan: 'standard' | 'premium'; interval?: 'month' | 'year' }) =>
      subscriptionOf({ planName: body.plan, interval: body.interval ?? 'month' }),
    ),
    cancel: vi.fn(async () => subscriptionOf({ planName: 'premium', cancelAtPeriodEnd: true })),
    portal: vi.fn(async () => ({ url: 'https://billing.stripe.com/p/session/test_1' })),
  };
  // The one cast: the calls the module never makes are left out.
  const api = { billing } as unknown as BillingApi;
  return { api, billing };
};

/**
 * A server without payments (no Stripe): every account has every feature and no monthly limit,
 * unless the operator set limits (`limits`, as FREE_NOTES_PER_MONTH, FREE_EXPORT_PDF… would).
 */
export const serverFreeEntitlements = (limits: Parameters<typeof freePlanFrom>[0] = {}) =>
  planEntitlements(freePlanFrom({ PAYMENTS_ENABLED: false, ...limits })).free;

/** The free plan's status on a server without payments, as the billing service answers it. */
export const paymentsDisabledStatus = (
  limits: Parameters<typeof freePlanFrom>[0] = {},
): SubscriptionStatus =>
  subscriptionOf({ paymentsEnabled: false, entitlements: serverFreeEntitlements(limits) });

/** The plans on a server without payments: listed with no prices, and nothing for sale. */
export const paymentsDisabledPlanList = (limits: Parameters<typeof freePlanFrom>[0] = {}) =>
  planList({
    paymentsEnabled: false,
    publishableKey: null,
    plans: plans.map((plan) =>
      plan.name === 'free'
        ? { ...plan, entitlements: serverFreeEntitlements(limits) }
        : { ...plan, prices: [] },
    ),
  });

/** The usage on a server without payments and without limits: nothing counted against one. */
export const unlimitedUsage = (): UserUsage => ({
  ...usageOf(12, -1),
  recordingTimeLimit: -1,
});

export const disabledError = () =>
  new AppError('PAYMENTS_DISABLED', 'This server takes no payments');

/** Stripe.js as loadStripe resolves it; `fail` for a script that would not load. */
export const fakePaymentsLoader = ({ fail = false } = {}) =>
  vi.fn<PaymentsLoader>(async () => {
    if (fail) throw new Error('Failed to load Stripe.js');
    return { elements: () => undefined };
  });

/**
 * Renders `tree(shell)` as the shell mounts a billing module: its real confirm popup, the
 * account given (signed out by default), Stripe.js from `loader`.
 */
export const renderBilling = (
  tree: (shell: ReturnType<typeof createHostedTestShell>['shell']) => ReactNode,
  {
    account = createTestAccount(),
    loader = fakePaymentsLoader(),
    path = '/',
    chinese,
  }: {
    account?: ReturnType<typeof createTestAccount>;
    loader?: PaymentsLoader;
    path?: string;
    chinese?: Record<string, Messages>;
  } = {},
) => {
  forgetPaymentsClients();
  const i18n = createTestI18n(
    { billing: enBilling },
    chinese ? { locale: 'zh', sets: chinese } : undefined,
  );
  const { shell: hosted, Hosts } = createHostedTestShell(i18n);
  const shell = { ...hosted, account };
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <PaymentsLoaderContext.Provider value={loader}>{tree(shell)}</PaymentsLoaderContext.Provider>
      <Hosts />
    </MemoryRouter>,
  );
  return { ...view, shell, loader };
};
