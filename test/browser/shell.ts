/**
 * The shell's behaviours in the running app, as steps of the browser check (run.ts): the
 * first visit, theme and sidebar persistence, toasts, the 404 page, refused external
 * addresses, the silent token refresh on a 401, Chinese, the app opening offline, a notes
 * module that is down, and signing out. Where a server answer is needed that a healthy app never gives (a 401 for a
 * valid token, a used-up quota), the browser's request is answered by the test instead.
 */
import type { Page, Request } from 'playwright-core';
import { expectIconRail, expectInViewport } from './look.js';

export interface Step {
  name: string;
  run: (page: Page) => Promise<void>;
}

const fail = (message: string): never => {
  throw new Error(message);
};

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Sidebar' });
const sidebarToggle = (page: Page) =>
  sidebar(page).getByRole('button', { name: /^(Collapse|Expand) sidebar$/ });
const themeButton = (page: Page) =>
  page.getByRole('banner').getByRole('button', { name: /^Theme:/ });
const themeShown = async (page: Page) =>
  ((await themeButton(page).getAttribute('aria-label')) ?? '').replace(/\..*$/, '');
const accountButton = (page: Page, name: RegExp | string = /^Account: /) =>
  page.getByRole('banner').getByRole('button', { name });
const toast = (page: Page) => page.locator('.ui-toast');
const isDark = (page: Page) =>
  page.evaluate(() => document.documentElement.classList.contains('dark'));

/** Until the first frame: whether the dark class was there when the page was first painted. */
const recordFirstFrame = (page: Page) =>
  page.addInitScript(() => {
    requestAnimationFrame(() => {
      (window as unknown as { firstFrameDark: boolean }).firstFrameDark =
        document.documentElement.classList.contains('dark');
    });
  });

const firstFrameDark = (page: Page) =>
  page
    .waitForFunction(() => 'firstFrameDark' in window)
    .then(() =>
      page.evaluate(() => (window as unknown as { firstFrameDark: boolean }).firstFrameDark),
    );

const home = async (page: Page, baseUrl: URL) => {
  await page.goto(baseUrl.href);
  await accountButton(page).waitFor();
};

/** Steps that need a signed-in page at the root; each leaves it signed in at the root. */
export const shellSteps = (baseUrl: URL): Step[] => [
  {
    name: 'first visit: the sidebar is expanded and the theme follows the system',
    run: async (page) => {
      const expanded = await sidebarToggle(page).getAttribute('aria-expanded');
      if (expanded !== 'true') fail(`the sidebar toggle says aria-expanded=${expanded}`);
      const label = await themeShown(page);
      if (label !== 'Theme: System') fail(`the theme button says "${label}"`);
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
      await page.emulateMedia({ colorScheme: 'light' });
      await page.waitForFunction(() => !document.documentElement.classList.contains('dark'));
      if (
        !(await page.evaluate(() => document.documentElement.classList.contains('theme-loaded')))
      ) {
        fail('the root has no theme-loaded class after start');
      }
    },
  },
  {
    name: 'a chosen theme survives a reload, painted from the first frame',
    run: async (page) => {
      await themeButton(page).click();
      await page
        .getByRole('banner')
        .getByRole('button', { name: /^Theme: Light\./ })
        .waitFor();
      await themeButton(page).click();
      await page
        .getByRole('banner')
        .getByRole('button', { name: /^Theme: Dark\./ })
        .waitFor();
      if (!(await isDark(page))) fail('choosing Dark did not put the dark class on the root');
      await recordFirstFrame(page);
      await page.reload();
      // The session check may pass through the provider and load the page once more; the
      // init script records the first frame of every load, so read it on the last one.
      await accountButton(page).waitFor();
      if (!(await firstFrameDark(page))) fail('the first frame after reload was light: a flash');
      await themeButton(page).waitFor();
      if ((await themeShown(page)) !== 'Theme: Dark') fail('Dark was forgotten');
      await themeButton(page).click();
      await page
        .getByRole('banner')
        .getByRole('button', { name: /^Theme: System\./ })
        .waitFor();
    },
  },
  {
    name: 'a collapsed sidebar is a rail of named icons, and stays collapsed after a reload',
    run: async (page) => {
      await sidebarToggle(page).click();
      await sidebar(page).getByRole('button', { name: 'Expand sidebar' }).waitFor();
      await page.reload();
      const toggle = sidebar(page).getByRole('button', { name: 'Expand sidebar' });
      await toggle.waitFor();
      if ((await toggle.getAttribute('aria-expanded')) !== 'false') fail('not collapsed');
      await page.waitForTimeout(400);
      await expectIconRail(page);
      await sidebar(page).getByRole('link', { name: 'Todos' }).waitFor();
      await toggle.click();
      await sidebar(page).getByRole('button', { name: 'Collapse sidebar' }).waitFor();
    },
  },
  {
    name: 'a used-up quota shows a toast that stays, and a new toast replaces it after 100 ms',
    run: async (page) => {
      await page.route('**/api/note/create/direct', (route) =>
        route.fulfill({ status: 403, contentType: 'text/plain', body: 'Forbidden' }),
      );
      // The usage the refusal is explained with: a plan with a limit, whatever the app's is (the
      // split topology's is unlimited).
      await page.route('**/user/usage', (route) =>
        route.fulfill({
          json: {
            period: '2026-11',
            resetsAt: '2026-12-01T00:00:00.000Z',
            notes: { used: 100, limit: 100 },
            recordingTimeLimit: 60,
          },
        }),
      );
      try {
        await page.getByLabel('Title').fill('Over the quota');
        await page.getByLabel('Note', { exact: true }).fill('This note is refused.');
        await page.getByRole('button', { name: 'Add note' }).click();
        const shown = toast(page);
        await shown.waitFor();
        await expectInViewport(page, '.ui-toast', 'the quota toast');
        // The allowance and the day it resets, from /user/usage: this server's (it takes no
        // payments), so there is nothing to upgrade to.
        await shown
          .getByText(
            /^This server allows [\d,]+ notes? a month, a limit set by whoever runs it; you can write more on .+\.$/,
          )
          .waitFor();
        if ((await shown.getByRole('button', { name: 'Upgrade' }).count()) > 0) {
          fail('the quota toast offers Upgrade on a server without payments');
        }
        // Duration 0: still there well after the default 3000 ms.
        await page.waitForTimeout(3_600);
        if ((await shown.count()) !== 1) fail('the quota toast hid itself');

        await page.evaluate(() => {
          const area = document.querySelector('.ui-toast-area');
          if (!area) throw new Error('no toast area');
          const changes: { at: number; shown: boolean }[] = [];
          (window as unknown as { toastChanges: typeof changes }).toastChanges = changes;
          new MutationObserver(() =>
            changes.push({ at: performance.now(), shown: area.childElementCount > 0 }),
          ).observe(area, { childList: true });
        });
        await page.getByRole('button', { name: 'Add note' }).click();
        await page.waitForFunction(() =>
          (window as unknown as { toastChanges: { shown: boolean }[] }).toastChanges.some(
            (change) => change.shown,
          ),
        );
        const changes = await page.evaluate(
          () =>
            (window as unknown as { toastChanges: { at: number; shown: boolean }[] }).toastChanges,
        );
        const hidden = changes.find((change) => !change.shown);
        const reshown = changes.find((change) => change.shown);
        if (!hidden || !reshown) fail(`expected hide then show, saw ${JSON.stringify(changes)}`);
        const gap = (reshown?.at ?? 0) - (hidden?.at ?? 0);
        if (gap < 90 || gap > 1_000)
          fail(`the new toast came ${Math.round(gap)} ms after, not ~100`);
        await toast(page).getByRole('button', { name: 'Close the message' }).click();
        await toast(page).waitFor({ state: 'detached' });
      } finally {
        await page.unroute('**/api/note/create/direct');
        await page.unroute('**/user/usage');
      }
    },
  },
  {
    name: 'an unknown address shows "Page not found: {path}"',
    run: async (page) => {
      await page.goto(new URL('/no-such/page', baseUrl).href);
      await page
        .getByRole('heading', { level: 1, name: 'Page not found: /no-such/page', exact: true })
        .waitFor();
      // The site's 404 (the marketing remote's), whose header leads a signed-in user back.
      await page.getByRole('banner').getByRole('link', { name: 'Open your notes' }).click();
      await accountButton(page).waitFor();
    },
  },
  {
    name: 'an address outside the app is refused, not followed',
    run: async (page) => {
      const outside: string[] = [];
      const watch = (request: Request) => {
        if (new URL(request.url()).origin !== baseUrl.origin) outside.push(request.url());
      };
      page.on('request', watch);
      try {
        await page.goto(new URL('/?next=https%3A%2F%2Fexample.org%2Fphish', baseUrl).href);
        await toast(page)
          .getByText(
            'This address leads outside Noted and was not opened: https://example.org/phish',
          )
          .waitFor();
        await page.waitForURL((url) => url.origin === baseUrl.origin && url.pathname === '/');
        if (new URL(page.url()).search) fail(`the address kept its query: ${page.url()}`);
        await page.goto(new URL('/?next=%2Ftodos', baseUrl).href);
        await page.waitForURL((url) => url.pathname === '/todos');
        if (outside.length > 0) fail(`requests left the app: ${outside.join(', ')}`);
      } finally {
        page.off('request', watch);
      }
      await home(page, baseUrl);
    },
  },
  {
    name: 'a 401 refreshes the token silently and the request is retried',
    run: async (page) => {
      const refreshes: string[] = [];
      const authorizations: string[] = [];
      const onRequest = (request: Request) => {
        if (request.url().includes('/protocol/openid-connect/token')) {
          if ((request.postData() ?? '').includes('grant_type=refresh_token')) {
            refreshes.push(request.url());
          }
        }
      };
      page.on('request', onRequest);
      let answered401 = false;
      // The first page of the list only: the list left open may still load its next page.
      const firstPage = /\/api\/notes\?page=1&/;
      await page.route(firstPage, async (route) => {
        authorizations.push((await route.request().headerValue('authorization')) ?? '');
        if (!answered401) {
          answered401 = true;
          await route.fulfill({
            status: 401,
            contentType: 'application/json',
            body: JSON.stringify({
              error: { code: 'UNAUTHENTICATED', message: 'The token expired' },
            }),
          });
          return;
        }
        await route.continue();
      });
      try {
        await page.reload();
        await accountButton(page).waitFor();
        await page.getByRole('article').first().waitFor();
        if (refreshes.length !== 1) fail(`expected one refresh, saw ${refreshes.length}`);
        const [first, retried] = authorizations;
        if (!first || !retried) fail(`expected a retry, saw ${authorizations.length} requests`);
        if (first === retried) fail('the retry was sent with the refused token');
      } finally {
        page.off('request', onRequest);
        await page.unroute(firstPage);
      }
    },
  },
  {
    name: 'switches to Chinese in the settings, and back',
    run: async (page) => {
      await sidebar(page).getByRole('button', { name: 'Settings' }).click();
      const settings = page.getByRole('dialog', { name: 'Settings' });
      await settings.getByRole('radio', { name: '中文（简体）' }).check();
      const chinese = page.getByRole('dialog', { name: '设置' });
      await chinese.waitFor();
      await chinese.getByRole('button', { name: '关闭' }).click();
      await page
        .getByRole('complementary', { name: '侧边栏' })
        .getByRole('link', { name: '笔记', exact: true })
        .waitFor();
      await accountButton(page, /^账户：/).waitFor();
      if ((await page.evaluate(() => document.documentElement.lang)) !== 'zh-CN') {
        fail('<html lang> is not zh-CN');
      }
      await page.reload();
      await accountButton(page, /^账户：/).waitFor();
      await page
        .getByRole('complementary', { name: '侧边栏' })
        .getByRole('button', { name: '设置' })
        .click();
      await page
        .getByRole('dialog', { name: '设置' })
        .getByRole('radio', { name: 'English' })
        .check();
      await page
        .getByRole('dialog', { name: 'Settings' })
        .getByRole('button', { name: 'Close' })
        .click();
      await accountButton(page).waitFor();
    },
  },
  {
    name: 'after one online visit the app opens offline in the notes kept on the device, its notes module cached ahead',
    run: async (page) => {
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      await page.waitForFunction(async () =>
        Boolean(await caches.match(new URL('/remotes/notes/remoteEntry.js', location.href).href)),
      );
      const context = page.context();
      await context.setOffline(true);
      try {
        await page.reload();
        // Signed in as the user last seen here, reading the device copy.
        await page
          .getByRole('main')
          .getByText('You are offline. These are the notes kept on this device', { exact: false })
          .waitFor();
        await page
          .getByRole('banner')
          .getByRole('button', { name: /^Account: / })
          .waitFor();
        if ((await page.title()) !== 'Noted') fail('offline, the page is not Noted');
        await page.goto(new URL('/todos', baseUrl).href);
        await page.getByRole('banner').getByText('Noted', { exact: true }).waitFor();
      } finally {
        await context.setOffline(false);
      }
      await home(page, baseUrl);
    },
  },
  {
    name: 'with the notes module down, the fallback shows and the rest of the app works',
    run: async (page) => {
      // Without the service worker, which would serve the module from its cache (as it should).
      const browser = page.context().browser() ?? fail('the page has no browser');
      const context = await browser.newContext({
        storageState: await page.context().storageState(),
        serviceWorkers: 'block',
      });
      try {
        const other = await context.newPage();
        await other.route('**/remotes/notes/**', (route) => route.abort('connectionrefused'));
        await other.goto(baseUrl.href);
        const fallback = other
          .getByRole('alert')
          .filter({ hasText: 'The notes module could not be loaded.' });
        await fallback.waitFor();
        // Feedback keeps the sidebar (the guide's layout has none), so Notes is a click away.
        await sidebar(other).getByRole('link', { name: 'Feedback' }).click();
        await other.getByRole('heading', { level: 1, name: 'Send feedback' }).waitFor();
        await sidebar(other).getByRole('link', { name: 'Notes' }).click();
        await fallback.waitFor();
        await other.unroute('**/remotes/notes/**');
        await other.getByRole('button', { name: 'Retry' }).click();
        await other.getByRole('article').first().waitFor();
      } finally {
        await context.close();
      }
    },
  },
];

/** Signing out leaves the app signed out, also after a reload. */
export const signOutStep = (baseUrl: URL): Step => ({
  name: 'signs out, and stays signed out after a reload',
  run: async (page) => {
    await accountButton(page).click();
    await page.getByRole('banner').getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('main').getByRole('button', { name: 'Sign in' }).waitFor();
    await page.goto(baseUrl.href);
    await page.getByRole('main').getByRole('button', { name: 'Sign in' }).waitFor();
    if ((await accountButton(page).count()) > 0) fail('still signed in after signing out');
  },
});
