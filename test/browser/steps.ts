import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import type { Step } from './shell.js';

const withTimeout = async (work: Promise<void>, ms: number): Promise<void> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`step took longer than ${ms / 1000} s`)), ms);
  });
  try {
    await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Runs the steps in order on one page, each within `timeoutMs`, printing each outcome. The
 * first failure is printed with the page's address and a full-page screenshot (`<name>.png` in
 * the temporary directory), and the steps after it are skipped: they depend on what it left.
 */
export const runSteps = async (
  page: Page,
  steps: Step[],
  options: { timeoutMs: number; name: string },
): Promise<{ passed: number; failed: number }> => {
  let passed = 0;
  for (const [index, step] of steps.entries()) {
    const started = Date.now();
    try {
      await withTimeout(step.run(page), options.timeoutMs);
      passed += 1;
      console.log(`ok ${step.name} (${Date.now() - started} ms)`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`FAILED ${step.name} at ${page.url()}\n  ${message.replace(/\n/g, '\n  ')}`);
      const failureShot = path.join(tmpdir(), `${options.name}.png`);
      await page.screenshot({ path: failureShot, fullPage: true }).then(
        () => console.error(`  screenshot: ${failureShot}`),
        () => undefined,
      );
      for (const skipped of steps.slice(index + 1)) console.error(`skipped ${skipped.name}`);
      return { passed, failed: 1 };
    }
  }
  return { passed, failed: 0 };
};

/** Debian's Chromium, headless, as the browser tests run it. */
export const launchChromium = (executablePath: string, timeoutMs: number): Promise<Browser> =>
  chromium.launch({
    executablePath,
    headless: true,
    timeout: timeoutMs,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });

/**
 * A page at 1280 x 900 in a context of its own (axe opens a second page in it for its results),
 * waiting up to `timeoutMs`, whose uncaught errors are added to `pageErrors`.
 */
export const openPage = async (
  browser: Browser,
  timeoutMs: number,
  pageErrors: string[],
): Promise<Page> => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(timeoutMs);
  page.setDefaultNavigationTimeout(timeoutMs);
  page.on('pageerror', (error) => pageErrors.push(`uncaught in page: ${error.message}`));
  return page;
};

/**
 * Signs in from the signed-out home page through the development provider's form, and waits
 * for the account menu.
 */
export const signIn = async (page: Page, user: { email: string; displayName: string }) => {
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await page
    .getByRole('dialog', { name: 'Sign in to Noted' })
    .getByRole('button', { name: 'Continue to sign in' })
    .click();
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Display name').fill(user.displayName);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Account: / })
    .waitFor();
};

/**
 * Asks the identity provider for a token with the direct access grant of the public client
 * noted-cli, as scripts do; the development password unless NOTED_DEV_PASSWORD says otherwise.
 */
export const passwordGrant = (baseUrl: URL, username: string): Promise<Response> =>
  fetch(new URL('/realms/noted/protocol/openid-connect/token', baseUrl), {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: 'noted-cli',
      username,
      password: process.env.NOTED_DEV_PASSWORD ?? 'noted',
    }),
  });
