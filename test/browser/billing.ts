/**
 * Paid plans end to end in headless Chromium, against the local Stripe of `@noted/testing`
 * (Stripe's API, its hosted checkout and portal as pages, signed webhooks to the app): sign in,
 * see the free plan in Settings, leave Checkout with Back (the cancel page), buy Standard on the
 * checkout page (the success page confirms it), change to Premium, visit Stripe's portal and
 * come back to Settings, cancel, and when Stripe ends
 * the period, be on Free again; the note allowance follows each step. The new screens are
 * checked with axe-core in both themes.
 *
 * The app must run with this Stripe's settings (deploy/local/billing-browser.sh starts both):
 *   STRIPE_PORT=12200 BASE_URL=http://localhost:18090 node ... test/browser/billing.ts
 */
import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { startStripeServer } from '@noted/testing';
import { expectAccessible } from './axe.js';
import type { Step } from './shell.js';
import { launchChromium, openPage, runSteps, signIn } from './steps.js';
import { localStripe } from '../stripe/prices.js';

const baseUrl = new URL(process.env.BASE_URL ?? 'http://localhost:18090');
const stripePort = Number(process.env.STRIPE_PORT ?? 12200);
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const stepTimeoutMs = 60_000;
const email = `billing-${randomUUID().slice(0, 8)}@example.com`;

const fail = (message: string): never => {
  throw new Error(message);
};

const stripe = await startStripeServer({
  port: stripePort,
  prices: Object.values(localStripe.prices),
  webhookSecret: localStripe.webhookSecret,
  webhookUrl: new URL('/api/stripe/webhook', baseUrl).href,
});

/**
 * Stripe.js comes from js.stripe.com, which this machine cannot reach: the page gets a stand-in
 * that defines `Stripe` as the real script does (the app loads it only for a publishable key).
 */
const stubStripeJs = async (page: Page) => {
  await page.context().route('https://js.stripe.com/**', (route) =>
    route.fulfill({
      contentType: 'application/javascript',
      body: 'window.Stripe = function Stripe(key) { return { key: key, elements: function () { return {}; } }; };',
    }),
  );
};

/** Waits for a text in `scope`, failing with what the scope says instead when it never comes. */
const see = async (scope: Locator, text: string | RegExp) => {
  try {
    await scope.getByText(text).first().waitFor({ timeout: 15_000 });
  } catch {
    fail(
      `"${String(text)}" never showed; it says: ${(await scope.innerText()).replace(/\s+/g, ' ')}`,
    );
  }
};

/**
 * axe-core over the page as it is, in the light and the dark theme (the theme is the system's
 * by default, so the emulated colour scheme switches it in place, dialogs open).
 */
const accessible = async (page: Page, label: string) => {
  for (const scheme of ['light', 'dark'] as const) {
    // Reduced motion: no colour transition is caught half-way.
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await page.waitForFunction(
      (dark) => document.documentElement.classList.contains('dark') === dark,
      scheme === 'dark',
    );
    await expectAccessible(page, `${label}, ${scheme} theme`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
};

const openSettings = async (page: Page) => {
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Account: / })
    .click();
  await page.getByRole('menuitem', { name: 'Settings', exact: true }).click();
  return page.getByRole('dialog', { name: 'Settings' });
};

/** The Settings' plan panel says `text` (it reads the plan when Settings opens). */
const settingsSay = async (page: Page, text: string | RegExp) => {
  const settings = await openSettings(page);
  await see(settings, text);
  return settings;
};

const closeDialog = async (page: Page) => {
  await page.keyboard.press('Escape');
};

/** Reloads until Settings say the plan is `plan` (Stripe's webhooks arrive on their own). */
const planIs = async (page: Page, plan: string) => {
  const deadline = Date.now() + 20_000;
  for (;;) {
    await page.reload();
    const settings = await openSettings(page);
    const said = settings.getByText(new RegExp(`${plan} plan`)).first();
    const shown = await said.waitFor({ timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (shown) return settings;
    await closeDialog(page);
    if (Date.now() > deadline) fail(`Settings never said the ${plan} plan`);
    await page.waitForTimeout(500);
  }
};

const choosePlan = async (page: Page, plan: string) => {
  const dialog = page.getByRole('dialog', { name: /plan/i }).last();
  await dialog.getByRole('button', { name: `Choose ${plan}` }).click();
};

const steps: Step[] = [
  {
    name: 'signs in and sees the free plan and its allowance in Settings',
    run: async (page) => {
      await stubStripeJs(page);
      await page.goto(baseUrl.href);
      await signIn(page, { email, displayName: 'Plan Buyer' });
      const settings = await settingsSay(page, /Free plan/);
      await see(settings, /100 of 100 notes left this month/);
      await see(settings, /Recordings up to 1\sminute/);
      await accessible(page, 'Settings with the free plan');
    },
  },
  {
    name: 'opens the plans, leaves Checkout with Back and reads that nothing was charged',
    run: async (page) => {
      const settings = page.getByRole('dialog', { name: 'Settings' });
      await settings.getByRole('button', { name: 'Upgrade' }).click();
      const plans = page.getByRole('dialog', { name: /plan/i }).last();
      await plans.getByRole('button', { name: 'Choose Standard' }).waitFor();
      if (await plans.getByText('Payments are not set up on this server.').isVisible()) {
        fail('the plans say payments are not set up');
      }
      await accessible(page, 'the plans');
      await choosePlan(page, 'Standard');
      await page.waitForURL((url) => url.port === String(stripePort));
      await page.getByRole('link', { name: 'Back' }).click();
      await page.waitForURL((url) => url.pathname === '/subscription/cancel');
      await page
        .getByText(/nothing was charged/i)
        .first()
        .waitFor();
      await accessible(page, 'the checkout cancel page');
    },
  },
  {
    name: 'buys Standard on the checkout page; the success page shows the plan',
    run: async (page) => {
      await page.goto(baseUrl.href);
      const settings = await openSettings(page);
      await settings.getByRole('button', { name: 'Upgrade' }).click();
      await choosePlan(page, 'Standard');
      await page.waitForURL((url) => url.port === String(stripePort));
      await page.getByRole('button', { name: 'Pay' }).click();
      await page.waitForURL((url) => url.pathname === '/subscription/success');
      await see(page.locator('body'), /Welcome to Standard/);
      await accessible(page, 'the checkout success page');
    },
  },
  {
    name: 'Settings show the Standard plan and its allowance',
    run: async (page) => {
      await page.goto(baseUrl.href);
      const after = await settingsSay(page, /Standard plan/);
      await see(after, /of 1.000\snotes left this month/);
      await see(after, /Recordings up to 10\sminutes/);
    },
  },
  {
    name: 'changes to Premium in place',
    run: async (page) => {
      const settings = page.getByRole('dialog', { name: 'Settings' });
      await settings.getByRole('button', { name: 'Manage' }).click();
      const manage = page.getByRole('dialog', { name: /plan/i }).last();
      await manage.getByRole('button', { name: 'Change plan' }).click();
      await choosePlan(page, 'Premium');
      await see(page.locator('body'), 'You are now on Premium.');
      await closeDialog(page);
      await planIs(page, 'Premium');
      await see(page.locator('body'), 'Unlimited notes');
    },
  },
  {
    name: "opens Stripe's customer portal and comes back to the plan in Settings",
    run: async (page) => {
      const settings = page.getByRole('dialog', { name: 'Settings' });
      await settings.getByRole('button', { name: 'Manage' }).click();
      const manage = page.getByRole('dialog', { name: /plan/i }).last();
      await manage.getByRole('button', { name: 'Manage card and invoices' }).click();
      await page.waitForURL((url) => url.port === String(stripePort));
      await see(page.locator('body'), 'price_premium_monthly');
      await page.getByRole('link', { name: 'Return' }).click();
      await page.waitForURL((url) => url.origin === baseUrl.origin && url.search === '');
      await see(page.getByRole('dialog', { name: 'Settings' }), /Premium plan/);
    },
  },
  {
    name: 'cancels with a confirmation, keeps Premium until the period ends, then is on Free',
    run: async (page) => {
      const settings = page.getByRole('dialog', { name: 'Settings' });
      await settings.getByRole('button', { name: 'Manage' }).click();
      const manage = page.getByRole('dialog', { name: /plan/i }).last();
      await manage.getByRole('button', { name: 'Cancel plan' }).click();
      const confirm = page.getByRole('alertdialog', { name: /Cancel your Premium plan/ });
      await accessible(page, 'the cancel confirmation');
      await confirm.getByRole('button', { name: 'Cancel plan' }).click();
      await page
        .getByText(/Your plan is cancelled/)
        .first()
        .waitFor();
      await page.reload();
      await settingsSay(page, /Cancelled: you keep Premium until/);
      // Stripe ends the period (its test clock): the subscription is deleted, the plan is Free.
      const customer = stripe
        .events()
        .filter((event) => event.type === 'customer.subscription.created')
        .map((event) => event.data.object as { id: string })
        .at(-1);
      if (!customer) fail('Stripe made no subscription');
      await stripe.endPeriod(customer?.id ?? '');
      await closeDialog(page);
      const free = await planIs(page, 'Free');
      await see(free, /of 100 notes left this month/);
    },
  },
];

const browser = await launchChromium(chromiumPath, stepTimeoutMs);
const pageErrors: string[] = [];
let failed = 0;
try {
  const page = await openPage(browser, stepTimeoutMs, pageErrors);
  const result = await runSteps(page, steps, { timeoutMs: stepTimeoutMs, name: 'noted-billing' });
  failed = result.failed;
  console.log(`${result.passed} passed, ${result.failed} failed`);
} finally {
  await browser.close();
  await stripe.close();
}
if (pageErrors.length > 0) console.error(pageErrors.join('\n'));
if (failed > 0 || pageErrors.length > 0) process.exit(1);
