/**
 * The marketing site in the browser. Every page of it (the landing page, the guide and each
 * chapter, the blog, a topic, each published post, the content pages and the FAQ, the landing
 * page in Chinese and a post only written in English read in Chinese) is loaded directly,
 * signed out and signed in, in the light and the dark theme, 390 and 1280 px wide: the
 * document answers 200 and is the prerendered one, its heading is the Markdown's title, it
 * hydrates without an error in the console, the header shows the right actions, nothing scrolls
 * sideways on a phone, the text is readable, and axe finds nothing serious (signed out at
 * 1280 px and signed in at 390 px, so each page is checked in both themes at both widths).
 * Then every same-origin link found on those pages answers 200; a missing post, chapter or page
 * is a 404 that names the path; inside the app, the sidebar's Blog and Guide show the site through
 * the marketing remote without a page load, and a path nobody owns its "Page not found";
 * preview mode shows the draft with its banner and badge and forgets it again, and a wrong
 * token is refused; "Sign in" on the landing page opens the app's sign-in dialog; feedback is
 * sent signed out (an idea, an email, a screenshot) and signed in (a problem, then listed under
 * "What you sent"), and the operators' list has both.
 *
 * The expected titles come from the Markdown's front matter and the site's messages.
 * CONTENT_PREVIEW_TOKEN is the token the server was started with (preview is skipped without
 * it); NOTED_ADMIN_EMAIL an account the development provider makes an operator
 * (IDENTITY_ADMIN_EMAILS), ops@example.com unless set.
 */
import { randomUUID } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import YAML from 'yaml';
import { expectAccessible } from './axe.js';
import { expectDesignTokens, expectNoSideScroll, expectReadableText } from './look.js';
import type { Step } from './shell.js';
import { passwordGrant, runSteps, signIn } from './steps.js';

const fail = (message: string): never => {
  throw new Error(message);
};

const siteRoot = path.resolve(import.meta.dirname, '../../frontends/marketing');
type Language = 'en' | 'zh';
type Theme = 'light' | 'dark';
/** The stored theme, or none (the system's). */
type ThemeChoice = Theme | 'system';
type Messages = Record<string, string>;

/** A message of the site in a language, with its {placeholders} filled. */
const say = (messages: Messages, key: string, values: Record<string, string> = {}) =>
  Object.entries(values).reduce(
    (text, [name, value]) => text.replaceAll(`{${name}}`, value),
    messages[key] ?? fail(`the site has no message ${key}`),
  );

interface FrontMatter {
  title: string;
  draft?: boolean;
  tags?: string[];
  order?: number;
  hero?: { title: string };
  features?: unknown[];
}

/** A Markdown file's front matter (YAML between the two `---` lines) and its body. */
const readMarkdown = async (file: string) => {
  const text = await readFile(path.join(siteRoot, 'content', file), 'utf8');
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text) ?? fail(`${file}: no front matter`);
  return { meta: YAML.parse(match[1] ?? '') as FrontMatter, body: match[2] ?? '' };
};

const markdownNames = async (dir: string) =>
  (await readdir(path.join(siteRoot, 'content', dir)))
    .filter((name) => name.endsWith('.md'))
    .map((name) => name.slice(0, -3));

interface SitePage {
  /** Path and query, as visited. */
  path: string;
  lang: Language;
  heading: string;
  /** A text the page must show besides (the note that a post is only in English). */
  text?: string;
}

/** What the site has, read from its Markdown and messages as the build reads them. */
const readSite = async () => {
  const messages: Record<Language, Messages> = {
    en: JSON.parse(await readFile(path.join(siteRoot, 'src/messages/en.json'), 'utf8')) as Messages,
    zh: JSON.parse(await readFile(path.join(siteRoot, 'src/messages/zh.json'), 'utf8')) as Messages,
  };
  const pages: SitePage[] = [];
  const landing = await readMarkdown('en/landing.md');
  pages.push({ path: '/landing', lang: 'en', heading: landing.meta.hero?.title ?? '' });
  pages.push({
    path: '/guide',
    lang: 'en',
    heading: (await readMarkdown('en/guide/index.md')).meta.title,
  });
  const chapters = await Promise.all(
    (await markdownNames('en/guide'))
      .filter((name) => name !== 'index')
      .map(async (name) => ({ name, meta: (await readMarkdown(`en/guide/${name}.md`)).meta })),
  );
  chapters.sort((a, b) => (a.meta.order ?? 0) - (b.meta.order ?? 0));
  for (const { name, meta } of chapters) {
    pages.push({ path: `/guide/${name}`, lang: 'en', heading: meta.title });
  }
  const posts = await Promise.all(
    (await markdownNames('en/blog')).map(async (slug) => ({
      slug,
      meta: (await readMarkdown(`en/blog/${slug}.md`)).meta,
    })),
  );
  const published = posts.filter((post) => post.meta.draft !== true);
  const draft = posts.find((post) => post.meta.draft === true);
  const tag = published[0]?.meta.tags?.[0] ?? fail('no published post has a tag');
  pages.push({ path: '/blog', lang: 'en', heading: say(messages.en, 'blog.title') });
  pages.push({
    path: `/blog/tag/${tag}`,
    lang: 'en',
    heading: say(messages.en, 'blog.tagged', { tag }),
  });
  for (const { slug, meta } of published) {
    pages.push({ path: `/blog/${slug}`, lang: 'en', heading: meta.title });
  }
  for (const name of ['about', 'privacy', 'terms', 'faq', 'pricing']) {
    pages.push({
      path: `/${name}`,
      lang: 'en',
      heading: (await readMarkdown(`en/${name}.md`)).meta.title,
    });
  }
  const zhLanding = await readMarkdown('zh/landing.md');
  pages.push({ path: '/landing?lang=zh', lang: 'zh', heading: zhLanding.meta.hero?.title ?? '' });
  const inChinese = new Set(await markdownNames('zh/blog'));
  const englishOnly =
    published.find((post) => !inChinese.has(post.slug)) ?? fail('every post is in Chinese too');
  pages.push({
    path: `/blog/${englishOnly.slug}?lang=zh`,
    lang: 'zh',
    heading: englishOnly.meta.title,
    text: say(messages.zh, 'blog.otherLanguage'),
  });
  const faq = await readMarkdown('en/faq.md');
  return {
    messages,
    pages,
    draft,
    landing: {
      features: landing.meta.features?.length ?? 0,
      questions: faq.body.split('\n').filter((line) => line.startsWith('## ')).length,
    },
  };
};

type Site = Awaited<ReturnType<typeof readSite>>;

/** Console errors and uncaught errors of a page, as they come. */
const watchErrors = (page: Page) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error')
      errors.push(`console error at ${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught at ${page.url()}: ${error.message}`));
  return errors;
};

/** The resource error Chromium logs for a document that answers 404, which some pages do. */
const notFoundResource = /Failed to load resource: the server responded with a status of 404/;

/** Fails with the errors collected so far (leaving out `allowed` ones), and forgets them. */
const expectNoErrors = (errors: string[], label: string, allowed?: RegExp) => {
  const found = errors.splice(0).filter((error) => !allowed?.test(error));
  if (found.length > 0) fail(`${label}: ${found.join('\n')}`);
};

const nextTheme: Record<ThemeChoice, ThemeChoice> = {
  light: 'dark',
  dark: 'system',
  system: 'light',
};

const themeLabel = (messages: Messages, theme: ThemeChoice) =>
  say(messages, 'theme.toggle', {
    current: say(messages, `theme.${theme}`),
    next: say(messages, `theme.${nextTheme[theme]}`),
  });

/**
 * Until the page's script has hydrated it: React's nodes carry their fibers, and the theme button
 * names the stored theme (prerendered, it says "System").
 */
const hydrated = async (page: Page, messages: Messages, theme: ThemeChoice, label: string) => {
  await page
    .waitForFunction(
      (name) => {
        const button = document.querySelector(`.site-header button[aria-label="${name}"]`);
        return (
          button !== null && Object.keys(button).some((key) => key.startsWith('__reactFiber$'))
        );
      },
      themeLabel(messages, theme),
      { timeout: 10_000 },
    )
    .catch(() => fail(`${label}: the page never hydrated in the ${theme} theme`));
};

/** A page's only level-one heading, without a draft's badge. */
const headingOf = async (page: Page, label: string) => {
  const headings = page.locator('main h1');
  const count = await headings.count();
  if (count !== 1) fail(`${label}: ${count} level-one headings in main`);
  return (await headings.innerText()).trim();
};

interface Visit {
  signedIn: boolean;
  theme: Theme;
  width: 390 | 1280;
  axe: boolean;
}

/** Loads one page of the site directly and checks it as described at the top. */
const checkPage = async (
  page: Page,
  baseUrl: URL,
  site: Site,
  target: SitePage,
  visit: Visit,
  errors: string[],
  links: Map<string, string>,
) => {
  const label = `${target.path} (${visit.signedIn ? 'signed in' : 'signed out'}, ${visit.theme}, ${visit.width} px)`;
  const messages = site.messages[target.lang];
  const response = await page.goto(new URL(target.path, baseUrl).href);
  if (response?.status() !== 200) fail(`${label}: answered ${response?.status() ?? 'nothing'}`);
  if ((await page.locator('#site-data').count()) !== 1) {
    fail(`${label}: not the prerendered document (the app's page was served instead)`);
  }
  await hydrated(page, messages, visit.theme, label);
  const lang = await page.evaluate(() => document.documentElement.lang);
  if (lang !== target.lang) fail(`${label}: <html lang="${lang}">, expected ${target.lang}`);
  const heading = await headingOf(page, label);
  if (heading !== target.heading)
    fail(`${label}: the heading is "${heading}", expected "${target.heading}"`);
  if (target.text) await page.getByText(target.text, { exact: true }).waitFor({ timeout: 5_000 });
  const dark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  if (dark !== (visit.theme === 'dark')) fail(`${label}: the ${visit.theme} theme is not applied`);

  const banner = page.locator('.site').getByRole('banner');
  const openApp = banner.getByRole('link', { name: say(messages, 'nav.openApp'), exact: true });
  const signInButton = banner.getByRole('button', {
    name: say(messages, 'nav.signIn'),
    exact: true,
  });
  const start = banner.getByRole('button', { name: say(messages, 'nav.start'), exact: true });
  if (visit.signedIn) {
    await openApp.waitFor({ timeout: 5_000 });
    if ((await openApp.getAttribute('href')) !== '/') fail(`${label}: "Open your notes" is not /`);
    if ((await signInButton.count()) + (await start.count()) > 0) {
      fail(`${label}: signed in, the header still offers to sign in`);
    }
  } else {
    await start.waitFor({ timeout: 5_000 });
    if (visit.width === 1280) await signInButton.waitFor({ timeout: 5_000 });
    if ((await openApp.count()) > 0) fail(`${label}: signed out, the header offers the notes`);
  }
  const navShown = await page.locator('.site-header .site-nav').isVisible();
  const menuShown = await page.locator('.site-header .site-menu > summary').isVisible();
  if (navShown !== (visit.width === 1280) || menuShown !== (visit.width === 390)) {
    fail(
      `${label}: the site nav is ${navShown ? 'shown' : 'hidden'} and its menu ${menuShown ? 'shown' : 'hidden'}`,
    );
  }
  if (target.path === '/landing' && !visit.signedIn) await checkLanding(page, site, label);

  const checks = [expectDesignTokens, expectReadableText];
  if (visit.width === 390) checks.push(expectNoSideScroll);
  if (visit.axe) checks.push(expectAccessible);
  for (const check of checks) await check(page, label);
  expectNoErrors(errors, label);

  const found = await page.$$eval('a[href]', (anchors) =>
    anchors.map((anchor) => (anchor as HTMLAnchorElement).href),
  );
  for (const href of found) {
    const url = new URL(href);
    if (url.origin === baseUrl.origin && !links.has(url.href)) links.set(url.href, target.path);
  }
};

/** The landing page's parts: a card per feature, the plans, a question per FAQ entry. */
const checkLanding = async (page: Page, site: Site, label: string) => {
  const features = await page.locator('#features h3').count();
  if (features !== site.landing.features) {
    fail(`${label}: ${features} feature cards, expected ${site.landing.features}`);
  }
  // The server under test takes no payments: no price cards, it says it is free to use.
  const free = page.locator('#pricing .ui-free');
  await free.waitFor({ timeout: 10_000 }).catch(() => fail(`${label}: the pricing never showed`));
  const title = (await free.locator('.ui-free-title').textContent()) ?? '';
  if (title !== say(site.messages.en, 'free.title')) {
    fail(`${label}: the pricing says "${title}", not that the server is free to use`);
  }
  const cards = await page.locator('#pricing .site-plan').count();
  if (cards > 0) fail(`${label}: ${cards} price cards on a server that sells nothing`);
  const questions = await page.locator('#faq details > summary').count();
  if (questions !== site.landing.questions) {
    fail(`${label}: ${questions} questions, expected the FAQ's ${site.landing.questions}`);
  }
};

/** Every same-origin link answers 200 (the feed as RSS), and a #fragment names an element. */
const checkLinks = async (links: Map<string, string>) => {
  const failures: string[] = [];
  const documents = new Map<string, Promise<{ status: number; type: string; body: string }>>();
  const fetchDocument = (address: string) => {
    let fetched = documents.get(address);
    if (!fetched) {
      const feed = new URL(address).pathname.endsWith('/feed.xml');
      fetched = fetch(address, {
        headers: { accept: feed ? 'application/rss+xml' : 'text/html' },
      }).then(async (response) => ({
        status: response.status,
        type: response.headers.get('content-type') ?? '',
        body: await response.text(),
      }));
      documents.set(address, fetched);
    }
    return fetched;
  };
  await Promise.all(
    [...links].map(async ([href, foundOn]) => {
      const url = new URL(href);
      const fragment = decodeURIComponent(url.hash.slice(1));
      url.hash = '';
      const { status, type, body } = await fetchDocument(url.href);
      const feed = url.pathname.endsWith('/feed.xml');
      if (status !== 200) failures.push(`${href} (on ${foundOn}) answered ${status}`);
      else if (feed && !type.startsWith('application/rss+xml')) {
        failures.push(`${href} (on ${foundOn}) is ${type}, not RSS`);
      } else if (!feed && !type.startsWith('text/html')) {
        failures.push(`${href} (on ${foundOn}) is ${type}, not HTML`);
      } else if (fragment && fragment !== 'main' && !body.includes(`id="${fragment}"`)) {
        failures.push(`${href} (on ${foundOn}): no element has the id "${fragment}"`);
      }
    }),
  );
  if (failures.length > 0) fail(`${failures.length} broken links:\n${failures.sort().join('\n')}`);
  return documents.size;
};

export const runMarketingChecks = async (
  browser: Browser,
  options: { baseUrl: URL; timeoutMs: number },
): Promise<{ passed: number; failed: number }> => {
  const { baseUrl, timeoutMs } = options;
  const site = await readSite();
  const en = site.messages.en;
  const previewToken = process.env.CONTENT_PREVIEW_TOKEN;
  const adminEmail = process.env.NOTED_ADMIN_EMAIL ?? 'ops@example.com';
  const user = { email: `site-${randomUUID().slice(0, 8)}@example.com`, displayName: 'Site Check' };
  const word = randomUUID().slice(0, 8);
  const ideaMessage = `An idea from the site check ${word}`;
  const problemMessage = `A problem from the site check ${word}`;
  const contexts: BrowserContext[] = [];
  const newPage = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(timeoutMs);
    page.setDefaultNavigationTimeout(timeoutMs);
    return page;
  };
  const url = (at: string) => new URL(at, baseUrl).href;
  const notFoundTitle = (at: string) => say(en, 'notFound.title', { path: at });

  const visitor = await newPage();
  const visitorErrors = watchErrors(visitor);
  const member = await newPage();
  const memberErrors = watchErrors(member);
  const links = new Map<string, string>();

  /** Every page of the site in one theme at one width, on the signed-out or signed-in page. */
  const sweep = async (visit: Visit): Promise<string[]> => {
    const page = visit.signedIn ? member : visitor;
    const errors = visit.signedIn ? memberErrors : visitorErrors;
    await page.setViewportSize({ width: visit.width, height: visit.width === 390 ? 844 : 900 });
    if (!page.url().startsWith(baseUrl.origin)) await page.goto(url('/landing'));
    await page.evaluate((theme) => localStorage.setItem('theme', theme), visit.theme);
    const failures: string[] = [];
    for (const target of site.pages) {
      await checkPage(page, baseUrl, site, target, visit, errors, links).catch((error: unknown) =>
        failures.push(error instanceof Error ? error.message : String(error)),
      );
    }
    return failures;
  };

  /**
   * One theme at one width, signed out and signed in at once (two browser contexts). Axe runs
   * signed out at 1280 px and signed in at 390 px: each page in both themes at both widths,
   * with either header, in half the time.
   */
  const sweepStep = (theme: Theme, width: 390 | 1280): Step => ({
    name:
      `site: every page signed out and in, ${theme} theme, ${width} px: 200, the prerendered ` +
      `page, its title, hydrated without errors, the header's actions, readable, ` +
      `${width === 390 ? 'no side scroll, axe signed in' : 'axe signed out'}`,
    run: async () => {
      const failures = await Promise.all([
        sweep({ signedIn: false, theme, width, axe: width === 1280 }),
        sweep({ signedIn: true, theme, width, axe: width === 390 }),
      ]);
      if (failures.flat().length > 0) fail(failures.flat().join('\n'));
    },
  });

  const sweeps: Step[] = [
    {
      name: 'site: a second visitor signs in to the app (the site then shows "Open your notes")',
      run: async () => {
        await member.goto(baseUrl.href);
        await signIn(member, user);
        const hint = await member.evaluate(() => localStorage.getItem('notedSignedIn'));
        if (hint !== '1') fail(`the shell left notedSignedIn=${hint}`);
        // The app's service worker answers navigations from now on, as for anyone who used it.
        await member.evaluate(async () => {
          await navigator.serviceWorker.ready;
        });
        expectNoErrors(memberErrors, 'signing in');
      },
    },
  ];
  for (const width of [1280, 390] as const) {
    for (const theme of ['light', 'dark'] as const) sweeps.push(sweepStep(theme, width));
  }
  sweeps.push({
    name: 'site: every same-origin link on those pages answers 200, and its #fragment is there',
    run: async () => {
      const checked = await checkLinks(links);
      console.log(`  ${links.size} links to ${checked} addresses`);
    },
  });

  const elsewhere: Step[] = [
    {
      name: 'site: a missing post, chapter or page answers 404 with "Page not found: <path>", light and dark, accessible',
      run: async () => {
        const page = visitor;
        await page.setViewportSize({ width: 1280, height: 900 });
        for (const theme of ['light', 'dark'] as const) {
          await page.evaluate((value) => localStorage.setItem('theme', value), theme);
          for (const missing of ['/blog/no-such-post', '/guide/no-such-chapter', '/no-such-page']) {
            const label = `${missing}, ${theme} theme`;
            const response = await page.goto(url(missing));
            if (response?.status() !== 404) fail(`${label}: answered ${response?.status()}`);
            await hydrated(page, en, theme, label);
            const heading = await headingOf(page, label);
            if (heading !== notFoundTitle(missing)) fail(`${label}: the heading is "${heading}"`);
            await expectAccessible(page, label);
            await expectReadableText(page, label);
            expectNoErrors(visitorErrors, label, notFoundResource);
          }
        }
      },
    },
    {
      name: "site: in the app, the sidebar's Blog and Guide show the site without a page load, and a path nobody owns its 404",
      run: async () => {
        const page = member;
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto(baseUrl.href);
        const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
        await sidebar.waitFor();
        await page.evaluate(() => {
          (window as unknown as { sameDocument: boolean }).sameDocument = true;
        });
        const stillHere = async (label: string) => {
          const same = await page.evaluate(() => 'sameDocument' in window);
          if (!same) fail(`${label}: the browser loaded a new page`);
        };
        const heading = (name: string) =>
          page.locator('.site').getByRole('heading', { level: 1, name, exact: true });

        await sidebar.getByRole('link', { name: say(en, 'nav.blog'), exact: true }).click();
        await heading(say(en, 'blog.title')).waitFor();
        await stillHere('the blog');
        const post = site.pages.find((target) => /^\/blog\/[^/?]+$/.test(target.path));
        if (post) {
          await page
            .locator('.site main')
            .getByRole('link', { name: post.heading })
            .first()
            .click();
          await heading(post.heading).waitFor();
          await stillHere(post.path);
        }
        await page.goBack();
        await heading(say(en, 'blog.title')).waitFor();
        await page.goBack();
        await sidebar.getByRole('link', { name: say(en, 'nav.guide'), exact: true }).click();
        const guide = site.pages.find((target) => target.path === '/guide');
        await heading(guide?.heading ?? '').waitFor();
        await stillHere('the guide');

        for (const missing of ['/no-such-page', '/blog/no-such-post']) {
          await page.evaluate((at) => {
            history.pushState(null, '', at);
            dispatchEvent(new PopStateEvent('popstate'));
          }, missing);
          await heading(notFoundTitle(missing)).waitFor();
          await page.locator('.site').getByRole('banner').waitFor();
          await stillHere(missing);
        }
        await page
          .locator('.site main')
          .getByRole('link', { name: say(en, 'notFound.blog') })
          .click();
        await heading(say(en, 'blog.title')).waitFor();
        await stillHere('the blog from the 404');
        await page.goBack();
        await heading(notFoundTitle('/blog/no-such-post')).waitFor();
        expectNoErrors(memberErrors, 'the site in the app', notFoundResource);
      },
    },
    {
      name: 'site: "Sign in" and "Start free" on the landing page open the app\'s sign-in dialog',
      run: async () => {
        const page = await newPage();
        for (const [width, button] of [
          [1280, say(en, 'nav.signIn')],
          [390, say(en, 'nav.start')],
        ] as const) {
          await page.setViewportSize({ width, height: 900 });
          await page.goto(url('/landing'));
          await hydrated(page, en, 'system', '/landing');
          await page
            .locator('.site')
            .getByRole('banner')
            .getByRole('button', { name: button, exact: true })
            .click();
          await page.waitForURL((at) => at.pathname === '/');
          await page.getByRole('dialog', { name: 'Sign in to Noted' }).waitFor();
        }
      },
    },
  ];

  const draftPath = site.draft ? `/blog/${site.draft.slug}` : undefined;
  const preview: Step[] = [
    {
      name: 'site: preview mode shows the draft with its banner and badge, and "Leave preview" brings the 404 back',
      run: async () => {
        if (!previewToken || !draftPath || !site.draft) {
          console.log('  skipped: CONTENT_PREVIEW_TOKEN is not set (or there is no draft)');
          return;
        }
        const page = await newPage();
        const errors = watchErrors(page);
        const banner = page.locator('.site-preview');
        const response = await page.goto(
          url(`${draftPath}?preview=${encodeURIComponent(previewToken)}`),
        );
        if (response?.status() !== 404) fail(`the draft's document answered ${response?.status()}`);
        await banner.getByText(say(en, 'preview.on'), { exact: true }).waitFor();
        const title = page.locator('main h1');
        await title.getByText(site.draft.meta.title, { exact: false }).waitFor();
        await title.locator('.site-draft').getByText(say(en, 'preview.draft')).waitFor();
        const stored = await page.evaluate(() => localStorage.getItem('notedPreviewToken'));
        if (stored !== previewToken) fail('the preview token was not kept');
        // The list shows the draft too, with its badge, while the token is kept.
        await page.goto(url('/blog'));
        await banner.getByText(say(en, 'preview.on'), { exact: true }).waitFor();
        await page.locator('main').getByText(site.draft.meta.title).waitFor();
        await page.goto(url(draftPath));
        await title.locator('.site-draft').waitFor();
        await banner.getByRole('button', { name: say(en, 'preview.leave') }).click();
        await page
          .locator('main h1')
          .getByText(notFoundTitle(draftPath), { exact: true })
          .waitFor();
        if ((await banner.count()) > 0) fail('the preview banner stayed');
        const left = await page.evaluate(() => localStorage.getItem('notedPreviewToken'));
        if (left !== null) fail('"Leave preview" kept the token');
        if ((await page.getByText(site.draft.meta.title).count()) > 0)
          fail('the draft still shows');
        expectNoErrors(errors, 'preview', notFoundResource);
      },
    },
    {
      name: 'site: a wrong preview token is refused and the draft stays hidden; ?preview=off forgets it',
      run: async () => {
        if (!draftPath || !site.draft) return;
        const page = await newPage();
        const errors = watchErrors(page);
        const banner = page.locator('.site-preview');
        await page.goto(url(`${draftPath}?preview=wrong-${randomUUID()}`));
        await banner.getByText(say(en, 'preview.refused'), { exact: true }).waitFor();
        const heading = await headingOf(page, 'a wrong token');
        if (heading !== notFoundTitle(draftPath))
          fail(`with a wrong token the heading is "${heading}"`);
        if ((await page.getByText(site.draft.meta.title).count()) > 0) fail('the draft shows');
        await page.goto(url('/blog?preview=off'));
        await hydrated(page, en, 'system', '/blog?preview=off');
        await page.locator('main h1').waitFor();
        if ((await banner.count()) > 0) fail('?preview=off left the banner');
        const left = await page.evaluate(() => localStorage.getItem('notedPreviewToken'));
        if (left !== null) fail('?preview=off kept the token');
        expectNoErrors(errors, 'a wrong token', notFoundResource);
      },
    },
  ];

  const screenshot = await sharp({
    create: { width: 32, height: 24, channels: 3, background: { r: 21, g: 128, b: 61 } },
  })
    .png()
    .toBuffer();
  const sendFeedback = async (page: Page, kind: string, message: string, email?: string) => {
    await page.goto(url('/feedback'));
    await page.getByRole('heading', { level: 1, name: say(en, 'feedback.title') }).waitFor();
    // Signed in, the form is sure of it once the header shows the account.
    if (email === undefined) {
      await page
        .getByRole('banner')
        .getByRole('button', { name: /^Account: / })
        .waitFor();
    }
    await page
      .getByRole('complementary', { name: 'Sidebar' })
      .waitFor({ timeout: 10_000 })
      .catch(() => fail('the feedback page has no sidebar'));
    // The radio cards: a click on the card chooses its kind.
    await page
      .locator('label.feedback-kind')
      .filter({ hasText: say(en, kind) })
      .click();
    const radio = page.getByRole('radio', { name: new RegExp(`^${say(en, kind)}`) });
    if (!(await radio.isChecked())) fail(`"${say(en, kind)}" is not chosen after a click on it`);
    await page
      .getByRole('textbox', { name: say(en, 'feedback.message'), exact: true })
      .fill(message);
    const emailField = page.getByRole('textbox', { name: say(en, 'feedback.email') });
    if (email === undefined) {
      if ((await emailField.count()) > 0) fail('signed in, the form asks for an email');
    } else {
      await emailField.fill(email);
      await page
        .locator('.feedback-page input[type="file"]')
        .setInputFiles({ name: 'screenshot.png', mimeType: 'image/png', buffer: screenshot });
      await page.getByRole('img', { name: 'screenshot.png' }).waitFor();
    }
    await page.getByRole('button', { name: say(en, 'feedback.send'), exact: true }).click();
    const thanks = page.getByRole('status').filter({ hasText: say(en, 'feedback.thanks.title') });
    await thanks.getByRole('heading', { name: say(en, 'feedback.thanks.title') }).waitFor();
    await thanks.getByRole('button', { name: say(en, 'feedback.again') }).waitFor();
  };
  const visitorEmail = `visitor-${word}@example.com`;
  const feedback: Step[] = [
    {
      name: 'feedback: signed out, an idea with an email and a PNG screenshot, then "Thank you"',
      run: async () => {
        const page = await newPage();
        const errors = watchErrors(page);
        await sendFeedback(page, 'feedback.kind.idea', ideaMessage, visitorEmail);
        expectNoErrors(errors, 'feedback signed out');
      },
    },
    {
      name: 'feedback: signed in, a problem, then "Thank you" and the problem under "What you sent"',
      run: async () => {
        await member.setViewportSize({ width: 1280, height: 900 });
        await sendFeedback(member, 'feedback.kind.problem', problemMessage);
        await member
          .getByRole('region', { name: say(en, 'feedback.sent.title') })
          .getByRole('listitem')
          .filter({ hasText: problemMessage })
          .filter({ hasText: say(en, 'feedback.kind.problem') })
          .waitFor({ timeout: 10_000 })
          .catch(() => fail('"What you sent" does not list the problem'));
        expectNoErrors(memberErrors, 'feedback signed in');
      },
    },
    {
      name: "feedback: the operators' list has both, the screenshot and the account's email",
      run: async () => {
        const tokenResponse = await passwordGrant(baseUrl, adminEmail);
        if (!tokenResponse.ok) {
          console.log(`  skipped: no token for ${adminEmail} (${tokenResponse.status})`);
          return;
        }
        const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
        interface Item {
          kind: string;
          message: string;
          email: string | null;
          userId: string | null;
          hasScreenshot: boolean;
        }
        const items: Item[] = [];
        let cursor: string | null = null;
        for (let pages = 0; pages < 20; pages += 1) {
          const query = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) });
          const listed = await fetch(url(`/api/admin/feedback?${query.toString()}`), {
            headers: { authorization: `Bearer ${token}` },
          });
          if (listed.status === 403) {
            console.log(`  skipped: ${adminEmail} is no operator (set IDENTITY_ADMIN_EMAILS)`);
            return;
          }
          if (!listed.ok) fail(`the list answered ${listed.status}`);
          const page = (await listed.json()) as { items: Item[]; nextCursor: string | null };
          items.push(...page.items);
          cursor = page.nextCursor;
          if (
            !cursor ||
            [ideaMessage, problemMessage].every((m) => items.some((i) => i.message === m))
          ) {
            break;
          }
        }
        const idea = items.find((item) => item.message === ideaMessage);
        const problem = items.find((item) => item.message === problemMessage);
        if (!idea) fail('the signed-out idea is not listed');
        if (!problem) fail('the signed-in problem is not listed');
        const facts = (item?: Item) =>
          JSON.stringify({
            kind: item?.kind,
            email: item?.email,
            signedIn: Boolean(item?.userId),
            hasScreenshot: item?.hasScreenshot,
          });
        const expectFacts = (
          item: Item | undefined,
          expected: Parameters<typeof JSON.stringify>[0],
        ) => {
          if (facts(item) !== JSON.stringify(expected)) {
            fail(`listed as ${facts(item)}, expected ${JSON.stringify(expected)}`);
          }
        };
        expectFacts(idea, {
          kind: 'idea',
          email: visitorEmail,
          signedIn: false,
          hasScreenshot: true,
        });
        expectFacts(problem, {
          kind: 'problem',
          email: user.email,
          signedIn: true,
          hasScreenshot: false,
        });
      },
    },
  ];

  let passed = 0;
  let failed = 0;
  try {
    for (const [steps, page, name] of [
      [sweeps, visitor, 'noted-site-pages'],
      [elsewhere, member, 'noted-site-elsewhere'],
      [preview, visitor, 'noted-site-preview'],
      [feedback, member, 'noted-site-feedback'],
    ] as const) {
      // A sweep loads every page twice (signed out and in) and runs axe on each: more time.
      const limit = steps === sweeps ? Math.max(timeoutMs, 120_000) : timeoutMs;
      const outcome = await runSteps(page, steps, { timeoutMs: limit, name });
      passed += outcome.passed;
      failed += outcome.failed;
    }
  } finally {
    for (const context of contexts) await context.close();
  }
  return { passed, failed };
};
