/**
 * The billing screens: the settings' plan panel, the plans, the user's plan, the cancel
 * question, the pages Stripe's checkout returns to and the quota toast. Stripe is not reachable
 * here, so the plans, the status, the verification, the usage and Stripe.js itself are answered
 * in the page (`page.route`) as the billing service and Stripe would answer them; the shot of
 * the plans on a server without Stripe uses the real service. Stripe.js loads only where the
 * gateway's CSP lets it through: start the server with STRIPE_PUBLISHABLE_KEY set.
 */
import type { Page } from 'playwright-core';
import type { Shot } from './shots.js';

type Status = {
  planName: 'free' | 'standard' | 'premium';
  status: string;
  expiresAt: string | null;
  isActive: boolean;
  entitlements: Record<string, number | boolean> | null;
  interval: 'month' | 'year' | null;
  cancelAtPeriodEnd: boolean;
  trialEndsAt: string | null;
  paymentFailed: boolean;
  paymentsEnabled: boolean;
};

const entitlements = {
  free: {
    notes_per_month: 100,
    recordingTimeLimit: 60,
    ai_assist: true,
    export_markdown: true,
    export_pdf: false,
    export_image: false,
  },
  standard: {
    notes_per_month: 1000,
    recordingTimeLimit: 600,
    ai_assist: true,
    export_markdown: true,
    export_pdf: true,
    export_image: true,
  },
  premium: {
    notes_per_month: -1,
    recordingTimeLimit: 3600,
    ai_assist: true,
    export_markdown: true,
    export_pdf: true,
    export_image: true,
  },
};

const nextMonth = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
};

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

const price = (interval: 'month' | 'year', amount: number, trialDays: number | null) => ({
  interval,
  amount,
  currency: 'usd',
  trialDays,
});

const planList = {
  plans: [
    { name: 'free', tier: 'free', entitlements: entitlements.free, prices: [] },
    {
      name: 'standard',
      tier: 'premium',
      entitlements: entitlements.standard,
      prices: [price('month', 500, 14), price('year', 4800, 14)],
    },
    {
      name: 'premium',
      tier: 'premium',
      entitlements: entitlements.premium,
      prices: [price('month', 1000, null), price('year', 9600, null)],
    },
  ],
  paymentsEnabled: true,
  publishableKey: 'pk_test_noted_screens',
};

const status = (overrides: Partial<Status> = {}): Status => {
  const planName = overrides.planName ?? 'free';
  const paid = planName !== 'free';
  return {
    planName,
    status: paid ? 'active' : 'inactive',
    expiresAt: paid ? inDays(23) : null,
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

const usage = (used: number, limit: number, recordingTimeLimit: number) => ({
  period: new Date().toISOString().slice(0, 7),
  resetsAt: nextMonth(),
  notes: { used, limit },
  recordingTimeLimit,
});

const json = (body: unknown, statusCode = 200) => ({
  status: statusCode,
  contentType: 'application/json',
  body: JSON.stringify(body),
});

/** Stripe.js as js.stripe.com sends it, as far as @stripe/stripe-js checks it. */
const stripeJs =
  "window.Stripe = function () { return { elements: function () { return {}; } }; };\nwindow.Stripe.version = 'basil';\n";

/** The billing service and Stripe as this shot needs them. */
const answer =
  ({
    subscription = status(),
    used = 63,
    plans = true,
  }: { subscription?: Status; used?: number; plans?: boolean } = {}) =>
  async (page: Page) => {
    const limit = (subscription.entitlements?.notes_per_month as number | undefined) ?? 100;
    const recording = (subscription.entitlements?.recordingTimeLimit as number | undefined) ?? 60;
    await page.route('https://js.stripe.com/**', (route) =>
      route.fulfill({ contentType: 'text/javascript', body: stripeJs }),
    );
    if (plans) await page.route('**/api/stripe/plans', (route) => route.fulfill(json(planList)));
    await page.route('**/api/stripe/subscription-status', (route) =>
      route.fulfill(json(subscription)),
    );
    await page.route('**/api/stripe/verify-subscription/*', (route) =>
      route.fulfill(json(subscription)),
    );
    await page.route('**/user/usage', (route) =>
      route.fulfill(json(usage(used, limit, recording))),
    );
  };

const openSettings = async (page: Page) => {
  const menu = page.getByRole('banner').getByRole('button', { name: 'Open the menu' });
  if (await menu.isVisible()) {
    await menu.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Settings' }).click();
  } else {
    await page
      .getByRole('complementary', { name: 'Sidebar' })
      .getByRole('button', { name: 'Settings' })
      .click();
  }
  await page.getByRole('region', { name: 'Your plan' }).waitFor();
};

/** Opens a billing dialog the way a person does: Settings, then the panel's button. */
const openFromSettings = async (page: Page, button: 'Upgrade' | 'Manage', title: string) => {
  await openSettings(page);
  await page
    .getByRole('region', { name: 'Your plan' })
    .getByRole('button', { name: button })
    .click();
  await page.getByRole('dialog', { name: title }).waitFor();
  await page
    .getByRole('dialog', { name: title })
    .locator('.billing-plans, .billing-manage')
    .waitFor();
};

const at = (route: string) => (): string => route;

/** The page in Chinese: the choice the settings save, made before the page opens. */
const inChinese = (routes: (page: Page) => Promise<void>) => async (page: Page) => {
  await page.addInitScript(() => localStorage.setItem('locale', 'zh'));
  await routes(page);
};

/** Settings, then a button of the plan panel, in Chinese. */
const openFromChineseSettings = async (page: Page, button: string, title: string) => {
  const menu = page.getByRole('banner').getByRole('button', { name: '打开菜单' });
  if (await menu.isVisible()) {
    await menu.click();
    await page.getByRole('dialog').getByRole('button', { name: '设置' }).click();
  } else {
    await page.getByRole('complementary').getByRole('button', { name: '设置' }).click();
  }
  const panel = page.getByRole('region', { name: '我的套餐' });
  await panel.waitFor();
  if (!button) return;
  await panel.getByRole('button', { name: button }).click();
  await page
    .getByRole('dialog', { name: title })
    .locator('.billing-plans, .billing-manage')
    .waitFor();
};

export const billingShots: Shot[] = [
  {
    name: 'billing-settings-free',
    path: at('/'),
    routes: answer({ used: 63 }),
    act: openSettings,
  },
  {
    name: 'billing-settings-past-due',
    path: at('/'),
    routes: answer({
      subscription: status({ planName: 'standard', status: 'past_due', paymentFailed: true }),
      used: 412,
    }),
    act: openSettings,
  },
  {
    name: 'billing-settings-trial',
    path: at('/'),
    routes: answer({
      subscription: status({ planName: 'premium', status: 'trialing', trialEndsAt: inDays(9) }),
      used: 1280,
    }),
    act: openSettings,
  },
  {
    name: 'billing-upgrade',
    path: at('/'),
    routes: answer(),
    act: (page) => openFromSettings(page, 'Upgrade', 'Choose a plan'),
  },
  {
    name: 'billing-upgrade-yearly',
    path: at('/'),
    routes: answer({ subscription: status({ planName: 'standard' }) }),
    act: async (page) => {
      await openFromSettings(page, 'Upgrade', 'Choose a plan');
      await page.locator('.billing-interval label', { hasText: 'Yearly' }).click();
    },
  },
  {
    // The real billing service of a server without Stripe: the plans, and no buttons that fail.
    name: 'billing-upgrade-no-payments',
    path: at('/'),
    routes: answer({ subscription: status({ paymentsEnabled: false }), plans: false }),
    act: (page) => openFromSettings(page, 'Upgrade', 'Choose a plan'),
  },
  {
    name: 'billing-manage',
    path: at('/'),
    routes: answer({ subscription: status({ planName: 'premium' }) }),
    act: (page) => openFromSettings(page, 'Manage', 'Your plan'),
  },
  {
    name: 'billing-manage-cancelled',
    path: at('/'),
    routes: answer({ subscription: status({ planName: 'standard', cancelAtPeriodEnd: true }) }),
    act: (page) => openFromSettings(page, 'Manage', 'Your plan'),
  },
  {
    name: 'billing-cancel-confirm',
    path: at('/'),
    routes: answer({ subscription: status({ planName: 'premium' }) }),
    act: async (page) => {
      await openFromSettings(page, 'Manage', 'Your plan');
      await page.getByRole('button', { name: 'Cancel plan' }).click();
      await page.getByRole('alertdialog').waitFor();
    },
  },
  {
    // With payments, the free plan's Export menu marks what only paid plans export.
    name: 'menu-export-paid-plans',
    path: (seeded) => `/notes/${seeded.noteId}`,
    routes: answer(),
    act: async (page) => {
      await page.getByRole('button', { name: 'Export', exact: true }).click();
      await page.getByRole('menu', { name: 'Export' }).waitFor();
    },
  },
  {
    name: 'subscription-success',
    path: at('/subscription/success?session_id=cs_test_screens'),
    routes: answer({ subscription: status({ planName: 'premium' }) }),
    act: async (page) => {
      await page.getByRole('heading', { name: 'Welcome to Premium' }).waitFor();
    },
  },
  {
    name: 'subscription-success-pending',
    path: at('/subscription/success?session_id=cs_test_screens'),
    routes: answer(),
    act: async (page) => {
      await page.getByRole('heading', { level: 1 }).waitFor();
    },
  },
  {
    name: 'subscription-cancel',
    path: at('/subscription/cancel'),
    routes: answer(),
    act: async (page) => {
      await page.getByRole('heading', { name: 'Payment cancelled' }).waitFor();
    },
  },
  {
    name: 'billing-settings-zh',
    path: at('/'),
    routes: inChinese(answer({ subscription: status({ planName: 'standard' }), used: 412 })),
    act: (page) => openFromChineseSettings(page, '', ''),
  },
  {
    name: 'billing-upgrade-zh',
    path: at('/'),
    routes: inChinese(answer()),
    act: (page) => openFromChineseSettings(page, '升级', '选择套餐'),
  },
  {
    name: 'billing-manage-zh',
    path: at('/'),
    routes: inChinese(answer({ subscription: status({ planName: 'premium' }) })),
    act: (page) => openFromChineseSettings(page, '管理', '我的套餐'),
  },
  {
    // A paid plan is named quietly in the account menu.
    name: 'billing-account-menu',
    path: at('/'),
    routes: answer({ subscription: status({ planName: 'premium' }) }),
    act: async (page) => {
      await page
        .getByRole('banner')
        .getByRole('button', { name: /^Account: / })
        .click();
      await page.getByRole('menu').waitFor();
    },
  },
  {
    name: 'billing-quota-toast',
    path: at('/'),
    routes: async (page) => {
      await answer({ used: 100 })(page);
      await page.route('**/api/note/create/**', (route) =>
        route.fulfill(
          json({ error: { code: 'NOTES_LEFT_NOT_ENOUGH', message: 'Notes left not enough' } }, 403),
        ),
      );
    },
    act: async (page) => {
      await page.getByLabel('Title').fill('One more idea');
      await page.getByLabel('Note', { exact: true }).fill('Past the month’s allowance.');
      await page.getByLabel('Note', { exact: true }).press('Control+Enter');
      await page
        .locator('.ui-toast')
        .getByText(/^Your plan allows/)
        .waitFor();
    },
  },
];
