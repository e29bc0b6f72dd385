/**
 * One end-to-end flow through the running app in headless Chromium: sign in at the identity
 * provider, create a note, open its page and edit it (autosave, reload), export it as Markdown
 * (on this server without payments no format is locked, and Settings say it is free to use),
 * tag it and filter by the tag, find it by a search, link a second note to it by [[Title]] and
 * by hand, add an image and preview it, see it in the mind map, then pin it, share it and read
 * it signed out,
 * find it by meaning, ask the knowledge chat about it and open the note the answer cites, see
 * the AI writer say it needs a model, stop sharing, delete it. On the way every page (signed-out
 * home, 404, the shared note, the list, a note, todos, review, mind map, chat, summaries, AI
 * settings, feedback) is checked with axe-core, in the light and dark theme; the shell's own
 * behaviours are the steps of shell.ts, the live connection between two devices of one user
 * those of live.ts, working offline those of offline.ts, and the marketing site (every page
 * signed out and in, both themes, phone and desktop; its links, 404s, preview mode, signing in
 * from it, and feedback with the operators' list) those of marketing.ts.
 *
 *   BASE_URL=http://localhost:8080 CONTENT_PREVIEW_TOKEN=<the server's> \
 *     node --conditions=@noted/source --import tsx test/browser/run.ts
 *
 * CONTENT_PREVIEW_TOKEN is the token the server was started with (without it the preview
 * checks are skipped); NOTED_ADMIN_EMAIL an operator of the development provider
 * (IDENTITY_ADMIN_EMAILS), ops@example.com unless set.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { pdfWithText, reportPages } from '@noted/testing';
import { expectAccessible } from './axe.js';
import {
  expectCoversViewport,
  expectDesignTokens,
  expectInViewport,
  expectNoSideScroll,
  expectReadableText,
} from './look.js';
import { runLiveChecks } from './live.js';
import { runMarketingChecks } from './marketing.js';
import { runOfflineChecks } from './offline.js';
import { shellSteps, signOutStep, type Step } from './shell.js';
import { launchChromium, openPage, passwordGrant, runSteps, signIn } from './steps.js';

const baseUrl = new URL(process.env.BASE_URL ?? 'http://localhost:8080');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const stepTimeoutMs = 60_000;
const screenshotPath = path.resolve('test-results/browser/notes.png');

const stamp = `${new Date().toISOString().slice(0, 19)} ${randomUUID().slice(0, 8)}`;
const email = `browser-${randomUUID().slice(0, 8)}@example.com`;
const displayName = 'Browser Check';
const noteTitle = `Browser check ${stamp}`;
/** Letters only: one word for the full-text search, found in no other note. */
const uniqueWord = (prefix: string) =>
  `${prefix}${randomUUID()
    .replace(/-/g, '')
    .slice(0, 10)
    .replace(/\d/g, (digit) => 'ghijklmnop'[Number(digit)] ?? 'g')}`;
const bodyWord = uniqueWord('quokka');
const tagName = uniqueWord('tag');
const secondWord = uniqueWord('wombat');
const secondTitle = `Second note ${secondWord}`;
const imagePath = path.join(tmpdir(), `noted-browser-${randomUUID()}.png`);
const notFoundUrl = new URL('/no-such-page', baseUrl).href;

const fail = (message: string): never => {
  throw new Error(message);
};

/** The account menu's button in the header: there once signed in. */
const accountButton = (page: Page) =>
  page.getByRole('banner').getByRole('button', { name: /^Account: / });

const noteHeading = (page: Page) =>
  page.getByRole('article').getByRole('heading', { name: titled });

/** The note's title, pinned or not (a pinned note's title starts with its "Pinned" icon). */
const titled = new RegExp(`^(Pinned )?${noteTitle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

const noteArticle = (page: Page) => page.getByRole('article', { name: titled });

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Sidebar' });

/** Chooses an entry of the note's card menu in the list. */
const noteAction = async (page: Page, item: string) => {
  await noteArticle(page)
    .getByRole('button', { name: `Actions for ${noteTitle}` })
    .click();
  await noteArticle(page).getByRole('menuitem', { name: item }).click();
};

const editor = (page: Page) => page.getByRole('textbox', { name: 'Note', exact: true });

const saved = (page: Page) => page.getByText('Saved', { exact: true }).waitFor();

const signedOutHome = (page: Page) =>
  page.getByRole('main').getByRole('button', { name: 'Sign in' });

/** A page's level-one heading, to wait for that page. */
const pageHeading = (name: string) => (page: Page) =>
  page.getByRole('heading', { level: 1, name, exact: true });

const notFoundHeading = (page: Page) =>
  page.getByRole('heading', { level: 1, name: /no-such-page/ });

/** The title field's value once it shows `expected` (a page being replaced may show the last). */
const titleShown = async (page: Page, expected: string) => {
  await page
    .waitForFunction(
      (title) =>
        (document.querySelector('[aria-label="Title"]') as HTMLTextAreaElement | null)?.value ===
        title,
      expected,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
  return page.getByLabel('Title', { exact: true }).inputValue();
};

/** Notes written through the API as the signed-in user (its password grant, as scripts do). */
const createNotesByApi = async (count: number, prefix: string) => {
  const tokenResponse = await passwordGrant(baseUrl, email);
  if (!tokenResponse.ok) fail(`the token request answered ${tokenResponse.status}`);
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  for (let index = 1; index <= count; index += 1) {
    const created = await fetch(new URL('/api/note/create/direct', baseUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: `${prefix} ${index}`,
        // Long enough that its page is taller than the window: a page that opened scrolled
        // down would stay scrolled down.
        note: Array.from({ length: 60 }, (_, line) => `Line ${line + 1} of a long note.`).join(
          '\n\n',
        ),
        tags: [],
      }),
    });
    if (!created.ok) fail(`creating a note answered ${created.status}`);
  }
};

const pageErrors: string[] = [];
let sharedUrl = '';
let noteUrl = '';

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

interface CheckedPage {
  label: string;
  url: string;
  /** What shows that the page is there, not its loading state. */
  content: (page: Page) => Locator;
}

/** A page of the app at `path`, there once its level-one heading is. */
const headedPage = (label: string, path: string, heading: string): CheckedPage => ({
  label,
  url: new URL(path, baseUrl).href,
  content: pageHeading(heading),
});

/**
 * Opens each page in the light theme, then in the dark one (stored as the theme button stores
 * it), waits until nothing is "Loading…", and checks it with axe, for the design tokens, and
 * for the contrast of every visible text. Puts the stored theme back, and fails at the end
 * with the violations of every page.
 */
/**
 * The element's distance from the window's top once it has stopped moving (two reads 200 ms
 * apart agree, within 5 s).
 */
const settledTop = async (target: Locator) => {
  const top = () => target.evaluate((element) => element.getBoundingClientRect().top);
  let last = await top();
  for (let waited = 0; waited < 5_000; waited += 200) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = await top();
    if (Math.abs(now - last) < 1) return now;
    last = now;
  }
  return last;
};

const expectAccessibleInBothThemes = async (page: Page, pages: CheckedPage[]) => {
  const stored = await page.evaluate(() => localStorage.getItem('theme'));
  const failures: string[] = [];
  try {
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => localStorage.setItem('theme', value), theme);
      for (const { label, url, content } of pages) {
        await page.goto(url);
        await content(page)
          .waitFor({ timeout: 15_000 })
          .catch(() => fail(`${label}, ${theme} theme: its content never showed`));
        await page
          .waitForFunction(
            () => !document.querySelector('.boot-status, .notes-status, .ui-skeleton'),
            null,
            { timeout: 15_000 },
          )
          .catch(() => fail(`${label}, ${theme} theme: still loading after 15 s`));
        const dark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
        if (dark !== (theme === 'dark')) fail(`${label}: the ${theme} theme was not applied`);
        for (const check of [expectAccessible, expectDesignTokens, expectReadableText]) {
          await check(page, `${label}, ${theme} theme`).catch((error: unknown) => {
            failures.push(error instanceof Error ? error.message : String(error));
          });
        }
      }
    }
  } finally {
    await page.evaluate((value) => {
      if (value === null) localStorage.removeItem('theme');
      else localStorage.setItem('theme', value);
    }, stored);
  }
  if (failures.length > 0) fail(failures.join('\n'));
};

const steps: Step[] = [
  {
    name: 'opens the app signed out',
    run: async (page) => {
      const response = await page.goto(baseUrl.href);
      if (!response?.ok()) fail(`${baseUrl.href} answered ${response?.status() ?? 'nothing'}`);
      await signedOutHome(page).waitFor();
      const title = await page.title();
      if (title !== 'Noted') fail(`the page title is "${title}", expected "Noted"`);
    },
  },
  {
    name: 'the signed-out home page passes the accessibility check, light and dark',
    run: async (page) => {
      await expectAccessibleInBothThemes(page, [
        { label: 'signed-out home', url: baseUrl.href, content: signedOutHome },
      ]);
      await page.goto(baseUrl.href);
      await signedOutHome(page).waitFor();
    },
  },
  {
    name: 'signs in at the identity provider and comes back signed in',
    run: async (page) => {
      await signIn(page, { email, displayName });
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
    name: 'a note opened from far down the list starts at its top, and Back returns there',
    run: async (page) => {
      await createNotesByApi(24, 'Filler');
      await page.goto(baseUrl.href);
      await page.getByRole('heading', { name: 'Filler 24' }).waitFor();
      // The next page may load by itself as the list's end comes into view (the button then
      // goes); either way, the note far down must show.
      const far = page.getByRole('link', { name: 'Filler 12', exact: true });
      const more = page.getByRole('button', { name: 'Load more notes' });
      if (await more.isVisible()) await more.click({ timeout: 5_000 }).catch(() => undefined);
      await far.waitFor();
      await far.scrollIntoViewIfNeeded();
      const scrolled = await page.evaluate(() => window.scrollY);
      if (scrolled < 400) fail(`the list scrolled only ${scrolled}px`);
      const placed = await settledTop(far);
      // Open from the card's menu hands the note over: its page shows at once, at full height.
      await page
        .getByRole('article', { name: 'Filler 12' })
        .getByRole('button', { name: 'Actions for Filler 12' })
        .click();
      await page.getByRole('menuitem', { name: 'Open' }).click();
      await page.waitForURL(/\/notes\//);
      await page.getByLabel('Title', { exact: true }).waitFor();
      const top = await page.evaluate(() => window.scrollY);
      if (top !== 0) fail(`the note's page opened scrolled down by ${top}px`);
      await page.goBack();
      await far.waitFor();
      // Where the note's card stands in the window, as the reader sees it: the bars above the
      // list (tags, the composer's tools) may still settle, and the browser's scroll anchoring
      // then moves the offset to keep the card in place.
      const back = await settledTop(far);
      if (Math.abs(back - placed) > 120) {
        const offset = await page.evaluate(() => window.scrollY);
        fail(
          `Back showed the note's card ${Math.round(back)}px from the window's top, not where ` +
            `it was (${Math.round(placed)}px); the list is ${offset}px down (was ${scrolled}px)`,
        );
      }
    },
  },
  {
    name: 'creates a note in the composer (#words as tags, Ctrl+Enter) and sees it first',
    run: async (page) => {
      await page.getByLabel('Title').fill(noteTitle);
      await page
        .getByLabel('Note', { exact: true })
        .fill('Written by the browser check. #browser #check');
      await page.getByLabel('Note', { exact: true }).press('Control+Enter');
      await noteHeading(page).waitFor();
      const tags = await noteArticle(page).getByRole('list', { name: 'Tags' }).innerText();
      if (tags.replace(/\s+/g, ' ').trim() !== '#browser #check') {
        fail(`the note's tags read "${tags}", expected #browser #check`);
      }
      const first = await page.getByRole('article').first().getByRole('heading').innerText();
      if (first !== noteTitle) fail(`the first note is "${first}", expected "${noteTitle}"`);
    },
  },
  {
    name: "opens the note's page from the list",
    run: async (page) => {
      await noteArticle(page).getByRole('link', { name: noteTitle, exact: true }).click();
      await page.waitForURL(/\/notes\/[0-9a-f-]{36}$/);
      noteUrl = page.url();
      await editor(page).getByText('Written by the browser check.').waitFor();
      const title = await page.getByLabel('Title', { exact: true }).inputValue();
      if (title !== noteTitle) fail(`the title field shows "${title}", expected "${noteTitle}"`);
    },
  },
  {
    name: 'types in the Markdown editor and sees "Saved"',
    run: async (page) => {
      await editor(page).click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type(` Edited with ${bodyWord}.`);
      await saved(page);
    },
  },
  {
    name: 'still shows the edit after reloading the page',
    run: async (page) => {
      await page.reload();
      await accountButton(page).waitFor();
      await editor(page).getByText(`Edited with ${bodyWord}.`).waitFor();
      if (page.url() !== noteUrl) fail(`after the reload the address is ${page.url()}`);
    },
  },
  {
    name: 'exports the note as Markdown from its Export menu, named for its title, front matter first',
    run: async (page) => {
      await page.getByRole('button', { name: 'Export', exact: true }).click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('menuitem', { name: 'Markdown', exact: true }).click(),
      ]);
      // The server's file name: the title, with what Windows refuses (the colons) as '-'.
      const expected = `${noteTitle.replace(/:/g, '-')}.md`;
      if (download.suggestedFilename() !== expected) {
        fail(`the download is named "${download.suggestedFilename()}", expected "${expected}"`);
      }
      const text = await readFile(await download.path(), 'utf8');
      const first = text.split('\n')[0];
      if (first !== '---') fail(`the Markdown's first line is "${first}", expected "---"`);
      if (!text.includes(`Edited with ${bodyWord}.`)) fail('the Markdown lacks the edited body');
    },
  },
  {
    name: 'without payments nothing is locked: every export format is offered, and Settings say the server is free to use',
    run: async (page) => {
      await page.getByRole('button', { name: 'Export', exact: true }).click();
      const menu = page.getByRole('menu', { name: 'Export' });
      await menu.getByRole('menuitem', { name: 'PDF', exact: true }).waitFor();
      const marked = await menu.locator('.ui-menu-item-mark, [aria-disabled="true"]').count();
      if (marked > 0) fail(`${marked} export formats are marked or disabled on a free server`);
      await page.keyboard.press('Escape');
      await sidebar(page).getByRole('button', { name: 'Settings' }).click();
      const settings = page.getByRole('dialog', { name: 'Settings' });
      const plan = settings.getByRole('region', { name: 'Your plan' });
      await plan.getByText('This server is free to use').waitFor();
      if ((await plan.getByRole('button').count()) > 0) {
        fail(`the plan offers ${await plan.getByRole('button').allInnerTexts()}`);
      }
      await settings.getByRole('button', { name: 'Close' }).click();
    },
  },
  {
    name: 'adds a tag and filters the list by it',
    run: async (page) => {
      await page.getByLabel('Add tag').fill(tagName);
      await page.getByLabel('Add tag').press('Enter');
      await saved(page);
      await page.getByRole('link', { name: `Show notes tagged ${tagName}` }).click();
      await page.getByText(`#${tagName}`, { exact: true }).first().waitFor();
      await noteHeading(page).waitFor();
      const shown = await page.getByRole('article').count();
      if (shown !== 1) fail(`the tag filter shows ${shown} notes, expected 1`);
      if (new URL(page.url()).searchParams.get('tag') !== tagName) {
        fail(`the address ${page.url()} does not keep the tag`);
      }
    },
  },
  {
    name: 'finds the note by a word of its body, the match marked',
    run: async (page) => {
      await page.getByRole('button', { name: 'Show all notes' }).click();
      await page.getByRole('searchbox', { name: 'Search notes' }).fill(bodyWord);
      const mark = noteArticle(page).locator('mark').first();
      await mark.waitFor();
      const marked = (await mark.innerText()).toLowerCase();
      if (marked !== bodyWord) fail(`the marked text is "${marked}", expected "${bodyWord}"`);
      if (new URL(page.url()).searchParams.get('q') !== bodyWord) {
        fail(`the address ${page.url()} does not keep the search`);
      }
    },
  },
  {
    name: 'lists a second note that names the first in [[…]] under its Backlinks',
    run: async (page) => {
      await page.getByLabel('Title', { exact: true }).fill(secondTitle);
      await page.getByLabel('Note', { exact: true }).fill(`Follows up on [[${noteTitle}]].`);
      await page.getByRole('button', { name: 'Add note' }).click();
      await page.getByText(`Saved “${secondTitle}”.`).waitFor();
      await noteArticle(page).getByRole('link', { name: noteTitle, exact: true }).click();
      await page.waitForURL(noteUrl);
      await page
        .getByRole('region', { name: 'Backlinks' })
        .getByRole('link', { name: secondTitle, exact: true })
        .waitFor();
    },
  },
  {
    name: 'previews the backlinking note in the note link popup, and opens it from there',
    run: async (page) => {
      await page
        .getByRole('region', { name: 'Backlinks' })
        .getByRole('button', { name: `Preview ${secondTitle}` })
        .click();
      const popup = page.getByRole('dialog', { name: secondTitle });
      await popup.getByText(`Follows up on [[${noteTitle}]].`).waitFor();
      await popup.getByRole('button', { name: 'Open', exact: true }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/notes/') && url.href !== noteUrl);
      const title = await titleShown(page, secondTitle);
      if (title !== secondTitle) fail(`the opened note is "${title}", expected "${secondTitle}"`);
      await page.goto(noteUrl);
      await editor(page).getByText(`Edited with ${bodyWord}.`).waitFor();
    },
  },
  {
    name: 'links the two notes through the Links dialog',
    run: async (page) => {
      await page.getByRole('button', { name: 'Links', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Links of this note' });
      await dialog.getByLabel('Find a note to link').fill(secondWord);
      await dialog.getByRole('button', { name: `Link to ${secondTitle}` }).click();
      await dialog.getByRole('button', { name: `Remove link to ${secondTitle}` }).waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'hidden' });
    },
  },
  {
    name: 'adds an image, previews it over the whole viewport, closes it by the backdrop and by Back',
    run: async (page) => {
      const png = await sharp({
        create: { width: 64, height: 64, channels: 3, background: { r: 36, g: 87, b: 197 } },
      })
        .png()
        .toBuffer();
      await writeFile(imagePath, png);
      await page.getByLabel('Add image').setInputFiles(imagePath);
      await page.getByRole('img', { name: 'Note image 1' }).waitFor();

      const preview = page.getByRole('dialog', { name: 'Image preview' });
      await page.getByRole('button', { name: 'Open image 1' }).click();
      await preview.waitFor();
      await expectCoversViewport(page, '.image-preview', 'the image preview');
      const box = (await preview.boundingBox()) ?? fail('the preview has no box');
      await page.mouse.click(box.x + 8, box.y + box.height - 8);
      await preview.waitFor({ state: 'hidden' });

      await page.getByRole('button', { name: 'Open image 1' }).click();
      await preview.waitFor();
      await page.goBack();
      await preview.waitFor({ state: 'hidden' });
      if (page.url() !== noteUrl) fail(`Back left the note for ${page.url()}`);
    },
  },
  {
    name: 'shows the note in the mind map',
    run: async (page) => {
      await sidebar(page).getByRole('link', { name: 'Mind map' }).click();
      await page.waitForURL(/\/mindlink$/);
      await page.getByRole('link', { name: noteTitle, exact: true }).waitFor();
    },
  },
  {
    name: 'goes back to the list of notes',
    run: async (page) => {
      await sidebar(page).getByRole('link', { name: 'Notes', exact: true }).click();
      await noteHeading(page).waitFor();
    },
  },
  {
    name: 'still shows the note after a reload',
    run: async (page) => {
      await page.reload();
      await accountButton(page).waitFor();
      await noteHeading(page).waitFor();
    },
  },
  ...shellSteps(baseUrl),
  {
    name: 'on a phone, no page scrolls sideways',
    run: async (page) => {
      await page.setViewportSize({ width: 390, height: 844 });
      const failures: string[] = [];
      try {
        for (const path of [
          '/',
          noteUrl,
          '/todos',
          '/review',
          '/mindlink',
          '/chat',
          '/summaries',
          '/settings/ai',
          '/feedback',
          '/no-such-page',
        ]) {
          await page.goto(new URL(path, baseUrl).href);
          await page
            .waitForFunction(() => !document.querySelector('.boot-status, .ui-skeleton'), null, {
              timeout: 15_000,
            })
            .catch(() => undefined);
          await page.waitForTimeout(300);
          await expectNoSideScroll(page, path).catch((error: unknown) => {
            failures.push(error instanceof Error ? error.message : String(error));
          });
        }
        await asVisitor(page, baseUrl.href, async (visitor) => {
          await visitor.setViewportSize({ width: 390, height: 844 });
          await signedOutHome(visitor).waitFor();
          await expectNoSideScroll(visitor, 'the signed-out home').catch((error: unknown) => {
            failures.push(error instanceof Error ? error.message : String(error));
          });
        });
      } finally {
        await page.setViewportSize({ width: 1280, height: 900 });
      }
      if (failures.length > 0) fail(failures.join('\n'));
      await page.goto(baseUrl.href);
      await noteArticle(page).waitFor();
    },
  },
  {
    name: 'on a phone, a toast shows inside the screen, above the tab bar',
    run: async (page) => {
      await page.setViewportSize({ width: 390, height: 844 });
      try {
        await page.goto(new URL('/?next=https%3A%2F%2Fexample.org%2Faway', baseUrl).href);
        await page.locator('.ui-toast').waitFor();
        await expectInViewport(page, '.ui-toast', 'the toast on a phone');
        const toastBox = await page.locator('.ui-toast').boundingBox();
        const tabBar = await page.getByRole('navigation', { name: 'Tabs' }).boundingBox();
        if (!toastBox || !tabBar) fail('the toast or the tab bar has no box');
        if (toastBox && tabBar && toastBox.y + toastBox.height > tabBar.y) {
          fail('the toast covers the tab bar');
        }
      } finally {
        await page.setViewportSize({ width: 1280, height: 900 });
      }
      await page.goto(baseUrl.href);
      await noteArticle(page).waitFor();
    },
  },
  {
    name: 'pins the note',
    run: async (page) => {
      await noteAction(page, 'Pin');
      await page.getByRole('article', { name: `Pinned ${noteTitle}` }).waitFor();
    },
  },
  {
    name: 'shares the note and reads it signed out through the link',
    run: async (page) => {
      await noteAction(page, 'Share');
      await page
        .getByRole('alertdialog', { name: 'Share this note?' })
        .getByRole('button', { name: 'Share note' })
        .click();
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
    name: 'the shared note and the 404 page, signed out, pass the accessibility check',
    run: (page) =>
      asVisitor(page, sharedUrl, (visitor) =>
        expectAccessibleInBothThemes(visitor, [
          {
            label: 'shared note',
            url: sharedUrl,
            content: (shown) => shown.getByRole('heading', { name: noteTitle, exact: true }),
          },
          { label: '404 page, signed out', url: notFoundUrl, content: notFoundHeading },
        ]),
      ),
  },
  {
    name: "the list and the note's page pass the accessibility check, light and dark",
    run: async (page) => {
      await expectAccessibleInBothThemes(page, [
        { label: 'notes list', url: baseUrl.href, content: noteArticle },
        {
          label: "note's page",
          url: noteUrl,
          content: (shown) => editor(shown).getByText(`Edited with ${bodyWord}.`),
        },
      ]);
    },
  },
  {
    name: 'todos and review pass the accessibility check, light and dark',
    run: async (page) => {
      await expectAccessibleInBothThemes(page, [
        headedPage('todos', '/todos', 'Todos'),
        headedPage('review', '/review', 'Review'),
      ]);
    },
  },
  {
    name: 'the mind map and the 404 page pass the accessibility check, light and dark',
    run: async (page) => {
      await expectAccessibleInBothThemes(page, [
        {
          label: 'mind map',
          url: new URL('/mindlink', baseUrl).href,
          content: (shown) => shown.getByRole('link', { name: noteTitle, exact: true }),
        },
        { label: '404 page, signed in', url: notFoundUrl, content: notFoundHeading },
      ]);
      await page.goto(baseUrl.href);
      await noteArticle(page).waitFor();
    },
  },
  {
    // The payment return pages are checked with a real checkout: test/browser/billing.ts.
    name: 'feedback passes the accessibility check',
    run: async (page) => {
      await expectAccessibleInBothThemes(page, [
        headedPage('feedback', '/feedback', 'Send feedback'),
      ]);
      await page.goto(baseUrl.href);
      await noteArticle(page).waitFor();
    },
  },
  {
    name: 'finds the note by meaning, with which rankings found it',
    run: async (page) => {
      await page.goto(baseUrl.href);
      await page.getByRole('searchbox', { name: 'Search notes' }).fill(bodyWord);
      await page.getByRole('checkbox', { name: 'Search by meaning' }).check();
      const found = page.getByRole('region', { name: 'Found by meaning' });
      await found.getByRole('link', { name: noteTitle, exact: true }).waitFor();
      await found.getByText('Meaning').first().waitFor();
    },
  },
  {
    name: 'asks the knowledge chat about the note, and opens the note it cites',
    run: async (page) => {
      await page.goto(new URL('/chat', baseUrl).href);
      await pageHeading('Ask your notes')(page).waitFor();
      await page
        .getByRole('textbox', { name: 'Your question' })
        .fill(`What did I write about ${bodyWord}?`);
      await page.getByRole('button', { name: 'Ask', exact: true }).click();
      await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
      await page
        .getByText('No language model here: the passages of your notes that match best, best first')
        .waitFor();
      await page.getByText(`Edited with ${bodyWord}.`).first().waitFor();
      await page.getByRole('link', { name: noteTitle, exact: true }).first().click();
      await page.waitForURL(noteUrl);
      await editor(page).getByText(`Edited with ${bodyWord}.`).waitFor();
    },
  },
  {
    name: 'the AI writer says plainly that writing needs a language model',
    run: async (page) => {
      await page.goto(noteUrl);
      await editor(page).getByText(`Edited with ${bodyWord}.`).waitFor();
      await page.getByRole('button', { name: 'AI writer' }).click();
      await page.getByRole('button', { name: 'Rewrite', exact: true }).click();
      await page.getByText('This needs a language model, and none is configured.').waitFor();
      await page.keyboard.press('Escape');
      await editor(page).getByText(`Edited with ${bodyWord}.`).waitFor();
    },
  },
  {
    name: 'the chat, summaries and AI settings pass the accessibility check, light and dark',
    run: async (page) => {
      await expectAccessibleInBothThemes(page, [
        headedPage('knowledge chat', '/chat', 'Ask your notes'),
        headedPage('summaries', '/summaries', 'Summaries'),
        headedPage('AI settings', '/settings/ai', 'AI settings'),
      ]);
      await page.goto(baseUrl.href);
      await noteArticle(page).waitFor();
    },
  },
  {
    name: 'stops sharing, and the link no longer shows the note',
    run: async (page) => {
      await noteArticle(page).getByRole('button', { name: 'Shared' }).click();
      await noteArticle(page).getByRole('button', { name: 'Stop sharing' }).click();
      await noteArticle(page)
        .getByRole('button', { name: 'Shared' })
        .waitFor({ state: 'detached' });
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
      await noteAction(page, 'Delete');
      await page
        .getByRole('alertdialog', { name: 'Delete this note?' })
        .getByRole('button', { name: 'Delete note' })
        .click();
      await noteHeading(page).waitFor({ state: 'detached' });
    },
  },
  {
    name: 'a PDF from Capture becomes a note whose tags are offered, not given: one is taken with a click',
    run: async (page) => {
      await page.getByRole('button', { name: 'Capture', exact: true }).click();
      await page.getByRole('menuitem', { name: 'PDF', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Note from a PDF' });
      await dialog.locator('input[type=file]').setInputFiles({
        name: 'report.pdf',
        mimeType: 'application/pdf',
        buffer: pdfWithText(reportPages),
      });
      await dialog.getByRole('button', { name: 'Create note' }).click();
      const suggested = page.getByRole('group', { name: 'Suggested tags' });
      await suggested.waitFor({ timeout: 60_000 });
      await page.getByRole('heading', { level: 1, name: 'Quarterly report' }).waitFor();
      const tags = page.getByRole('main').getByRole('list', { name: 'Tags', exact: true });
      if ((await tags.count()) > 0) fail(`the note was given tags: ${await tags.innerText()}`);
      const offers = suggested.getByRole('button', { name: /^Add the tag / });
      const offered = await offers.count();
      if (offered < 1 || offered > 3) fail(`${offered} tags are suggested, expected 1 to 3`);
      const first = (await offers.first().getAttribute('aria-label'))!.replace('Add the tag ', '');
      await offers.first().click();
      await saved(page);
      await tags.getByText(`#${first}`, { exact: true }).waitFor();
    },
  },
  signOutStep(baseUrl),
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
    browser = await launchChromium(chromiumPath, stepTimeoutMs);
    const page = await openPage(browser, stepTimeoutMs, pageErrors);

    const outcome = await runSteps(page, steps, {
      timeoutMs: stepTimeoutMs,
      name: 'noted-browser-failure',
    });
    passed += outcome.passed;
    failed += outcome.failed;
    const live = await runLiveChecks(browser, { baseUrl, timeoutMs: stepTimeoutMs, pageErrors });
    passed += live.passed;
    failed += live.failed;
    const offline = await runOfflineChecks(browser, {
      baseUrl,
      timeoutMs: stepTimeoutMs,
      pageErrors,
    });
    passed += offline.passed;
    failed += offline.failed;
    const marketing = await runMarketingChecks(browser, { baseUrl, timeoutMs: stepTimeoutMs });
    passed += marketing.passed;
    failed += marketing.failed;
  } catch (error) {
    failed += 1;
    const message = error instanceof Error ? error.message : String(error);
    console.error(`FAILED starting Chromium at ${chromiumPath}\n  ${message}`);
  } finally {
    await browser?.close();
    await rm(imagePath, { force: true });
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
};

process.exitCode = await main();
