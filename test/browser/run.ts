/**
 * One end-to-end flow through the running app in headless Chromium: sign in at the identity
 * provider, create a note, reload and still see it, pin it, share it and read it signed out,
 * stop sharing, delete it.
 *
 *   BASE_URL=http://localhost:8080 node --conditions=@noted/source --import tsx test/browser/run.ts
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

const baseUrl = new URL(process.env.BASE_URL ?? 'http://localhost:8080');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const stepTimeoutMs = 60_000;
const screenshotPath = path.resolve('test-results/browser/notes.png');

const stamp = `${new Date().toISOString().slice(0, 19)} ${randomUUID().slice(0, 8)}`;
const email = `browser-${randomUUID().slice(0, 8)}@example.com`;
const displayName = 'Browser Check';
const noteTitle = `Browser check ${stamp}`;

interface Step {
  name: string;
  run: (page: Page) => Promise<void>;
}

const fail = (message: string): never => {
  throw new Error(message);
};

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

const signOutButton = (page: Page) =>
  page.getByRole('banner').getByRole('button', { name: 'Sign out' });

const noteHeading = (page: Page) =>
  page.getByRole('article').getByRole('heading', { name: noteTitle, exact: true });

const noteArticle = (page: Page) => page.getByRole('article', { name: noteTitle });

const pageErrors: string[] = [];
let sharedUrl = '';

/** Opens a URL in a fresh browser context: no cookies, no session, like a stranger. */
const asVisitor = async (page: Page, url: string, check: (visitor: Page) => Promise<void>) => {
  const browser = page.context().browser() ?? fail('the page has no browser');
  const context = await browser.newContext();
  try {
    const visitor = await context.newPage();
    await visitor.goto(url);
    await check(visitor);
  } finally {
    await context.close();
  }
};

const steps: Step[] = [
  {
    name: 'opens the app signed out',
    run: async (page) => {
      const response = await page.goto(baseUrl.href);
      if (!response?.ok()) fail(`${baseUrl.href} answered ${response?.status() ?? 'nothing'}`);
      await page.getByRole('main').getByRole('button', { name: 'Sign in' }).waitFor();
      const title = await page.title();
      if (title !== 'Noted') fail(`the page title is "${title}", expected "Noted"`);
    },
  },
  {
    name: 'signs in at the identity provider and comes back signed in',
    run: async (page) => {
      await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Display name').fill(displayName);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await signOutButton(page).waitFor();
      const header = (await page.getByRole('banner').innerText()).trim();
      if (!header.includes(displayName) && !header.includes(email)) {
        fail(`the header does not show the user: "${header}"`);
      }
      const address = new URL(page.url());
      if (address.origin !== baseUrl.origin || address.pathname !== '/' || address.search) {
        fail(`after sign-in the address is ${address.href}, expected ${baseUrl.origin}/`);
      }
    },
  },
  {
    name: 'creates a note through the form and sees it first in the list',
    run: async (page) => {
      await page.getByLabel('Title').fill(noteTitle);
      await page.getByLabel('Note', { exact: true }).fill('Written by the browser check.');
      await page.getByLabel('Tags').fill('browser, check');
      await page.getByRole('button', { name: 'Add note' }).click();
      await noteHeading(page).waitFor();
      const first = await page.getByRole('article').first().getByRole('heading').innerText();
      if (first !== noteTitle) fail(`the first note is "${first}", expected "${noteTitle}"`);
    },
  },
  {
    name: 'still shows the note after a reload',
    run: async (page) => {
      await page.reload();
      await signOutButton(page).waitFor();
      await noteHeading(page).waitFor();
    },
  },
  {
    name: 'pins the note',
    run: async (page) => {
      await noteArticle(page).getByRole('button', { name: 'Pin' }).click();
      await noteArticle(page).getByRole('button', { name: 'Unpin' }).waitFor();
    },
  },
  {
    name: 'shares the note and reads it signed out through the link',
    run: async (page) => {
      await noteArticle(page).getByRole('button', { name: 'Share' }).click();
      const link = noteArticle(page).getByLabel('Anyone with this link can read the note');
      sharedUrl = await link.inputValue();
      if (!/\/notes\/s\/[A-Za-z0-9_-]{22}$/.test(sharedUrl)) fail(`unexpected link ${sharedUrl}`);
      await asVisitor(page, sharedUrl, async (visitor) => {
        await visitor.getByRole('heading', { name: noteTitle, exact: true }).waitFor();
        await visitor.getByText('Written by the browser check.').waitFor();
        if ((await visitor.getByRole('button', { name: 'Sign in' }).count()) > 0) {
          fail('the shared page offers sign-in; it should be a page without account');
        }
      });
    },
  },
  {
    name: 'stops sharing, and the link no longer shows the note',
    run: async (page) => {
      await noteArticle(page).getByRole('button', { name: 'Stop sharing' }).click();
      await noteArticle(page).getByRole('button', { name: 'Share' }).waitFor();
      await asVisitor(page, sharedUrl, async (visitor) => {
        await visitor.getByRole('heading', { name: 'This note is not shared' }).waitFor();
      });
    },
  },
  {
    name: 'takes a screenshot',
    run: async (page) => {
      await mkdir(path.dirname(screenshotPath), { recursive: true });
      await page.screenshot({ path: screenshotPath, fullPage: true });
    },
  },
  {
    name: 'deletes the note after confirming',
    run: async (page) => {
      await noteArticle(page).getByRole('button', { name: 'Delete' }).click();
      await noteArticle(page).getByRole('button', { name: 'Delete note' }).click();
      await noteHeading(page).waitFor({ state: 'detached' });
    },
  },
  {
    name: 'raised no uncaught errors in the page',
    run: async () => {
      if (pageErrors.length > 0) fail(pageErrors.join('\n'));
    },
  },
];

const main = async (): Promise<number> => {
  let passed = 0;
  let failed = 0;
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      timeout: stepTimeoutMs,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(stepTimeoutMs);
    page.setDefaultNavigationTimeout(stepTimeoutMs);
    page.on('pageerror', (error) => pageErrors.push(`uncaught in page: ${error.message}`));

    for (const [index, step] of steps.entries()) {
      const started = Date.now();
      try {
        await withTimeout(step.run(page), stepTimeoutMs);
        passed += 1;
        console.log(`ok ${step.name} (${Date.now() - started} ms)`);
      } catch (error) {
        failed += 1;
        const message = error instanceof Error ? error.message : String(error);
        console.error(`FAILED ${step.name} at ${page.url()}\n  ${message.replace(/\n/g, '\n  ')}`);
        for (const skipped of steps.slice(index + 1)) console.error(`skipped ${skipped.name}`);
        break;
      }
    }
  } catch (error) {
    failed += 1;
    const message = error instanceof Error ? error.message : String(error);
    console.error(`FAILED starting Chromium at ${chromiumPath}\n  ${message}`);
  } finally {
    await browser?.close();
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
};

process.exitCode = await main();
