/**
 * First-render JavaScript: how much script (gzip, level 9) the browser loads before a signed-out
 * page has rendered, against the 150 KB budget, measured in headless Chromium, for the app's
 * home page and two of the site's prerendered pages (PAGES); the CSS and web fonts loaded by
 * then are reported beside it. A report, not a test: it exits 0 over budget too, and 1 only when
 * a page never renders.
 *
 *   BASE_URL=http://localhost:8080 npm run report:size
 *   PAGES=/landing npm run report:size
 *
 * A prerendered page (its HTML already holds an h1 in #root) has rendered when it arrives: no
 * script comes before its first render, and the script that hydrates it is reported after.
 * "Rendered" is the moment the shell first puts `theme-loaded` on the document root, the end of
 * its start order; a shell that never adds it is measured up to the moment #root first holds an
 * h1. The session check may leave the page for the identity provider and come back, so the
 * moment is taken across documents, and each address counts once, by its first response.
 * Only responses that had finished by then count; what loads after, until the network is
 * quiet, is printed as a separate total.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import type { Browser, Response } from 'playwright-core';

const baseUrl = new URL(process.env.BASE_URL ?? 'http://localhost:8080');
const pages = (process.env.PAGES ?? '/,/landing,/blog/offline-first-notes').split(',');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const budgetKb = 150;
const renderTimeoutMs = 30_000;
/** After an h1 shows, how long to wait for `theme-loaded` before taking the h1 as the marker. */
const themeLoadedGraceMs = 10_000;

type Mark = 'h1' | 'themeLoaded';

interface Loaded {
  url: string;
  kind: 'js' | 'css' | 'font';
  /** Milliseconds since the epoch when the last byte arrived. */
  finishedAt: number;
  raw: number;
  gzip: number;
}

declare global {
  interface Window {
    reportRenderMark: (mark: Mark, at: number) => Promise<void>;
  }
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

const kindOf = (response: Response): Loaded['kind'] | undefined => {
  const type = response.request().resourceType();
  const contentType = response.headers()['content-type'] ?? '';
  if (type === 'script' || contentType.includes('javascript')) return 'js';
  if (type === 'stylesheet' || contentType.startsWith('text/css')) return 'css';
  if (type === 'font' || contentType.startsWith('font/')) return 'font';
  return undefined;
};

/** Runs in every document: reports when each marker first holds, on the epoch clock. */
const watchRenderMarks = () => {
  const reported = new Set<Mark>();
  new MutationObserver(() => {
    const at = performance.timeOrigin + performance.now();
    const holds: Record<Mark, boolean> = {
      h1: document.querySelector('#root h1') !== null,
      themeLoaded: document.documentElement.classList.contains('theme-loaded'),
    };
    for (const mark of ['h1', 'themeLoaded'] as const) {
      if (holds[mark] && !reported.has(mark)) {
        reported.add(mark);
        void window.reportRenderMark(mark, at);
      }
    }
  }).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['class'],
  });
};

const table = (rows: Loaded[]) => {
  const width = Math.max(4, ...rows.map((row) => row.url.length));
  const lines = [`${'file'.padEnd(width)}  ${'raw KB'.padStart(8)}  ${'gzip KB'.padStart(8)}`];
  for (const row of [...rows].sort((a, b) => b.gzip - a.gzip)) {
    lines.push(`${row.url.padEnd(width)}  ${kb(row.raw).padStart(8)}  ${kb(row.gzip).padStart(8)}`);
  }
  const raw = rows.reduce((sum, row) => sum + row.raw, 0);
  const gzip = rows.reduce((sum, row) => sum + row.gzip, 0);
  lines.push(`${'total'.padEnd(width)}  ${kb(raw).padStart(8)}  ${kb(gzip).padStart(8)}`);
  return { text: lines.join('\n'), gzip };
};

const measure = async (response: Response, kind: Loaded['kind']): Promise<Loaded | undefined> => {
  const body = await response.body().catch(() => undefined);
  if (!body) return undefined;
  const { startTime, responseEnd } = response.request().timing();
  return {
    url: response.url(),
    kind,
    finishedAt: responseEnd >= 0 ? startTime + responseEnd : Date.now(),
    raw: body.length,
    gzip: gzipSync(body, { level: 9 }).length,
  };
};

const measurePage = async (browser: Browser, pageUrl: URL): Promise<number> => {
  const html = await (await fetch(pageUrl, { headers: { accept: 'text/html' } })).text();
  const prerendered = /<div id="root"><[\s\S]*?<h1[\s>]/.test(html);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const marks: Partial<Record<Mark, number>> = {};
    let h1SeenAt: number | undefined;
    await page.exposeFunction('reportRenderMark', (mark: Mark, at: number) => {
      if (marks[mark] !== undefined) return;
      marks[mark] = at;
      if (mark === 'h1') h1SeenAt = Date.now();
    });
    await page.addInitScript(watchRenderMarks);

    const measured: Promise<Loaded | undefined>[] = [];
    page.on('requestfinished', (request) => {
      void request.response().then((response) => {
        const kind = response ? kindOf(response) : undefined;
        if (response && kind) measured.push(measure(response, kind));
      });
    });

    const started = Date.now();
    await page.goto(pageUrl.href);
    while (marks.themeLoaded === undefined && Date.now() - started < renderTimeoutMs) {
      if (h1SeenAt !== undefined && Date.now() - h1SeenAt > themeLoadedGraceMs) break;
      await sleep(100);
    }
    const renderedAt = prerendered ? started : (marks.themeLoaded ?? marks.h1);
    if (renderedAt === undefined) {
      console.error(
        `${pageUrl.href} never rendered: no theme-loaded class and no h1 in #root ` +
          `after ${renderTimeoutMs / 1000} s`,
      );
      return 1;
    }
    await page.waitForLoadState('networkidle');
    await sleep(500);

    const firstByUrl = new Map<string, Loaded>();
    for (const item of await Promise.all(measured)) {
      if (!item) continue;
      const seen = firstByUrl.get(item.url);
      if (!seen || item.finishedAt < seen.finishedAt) firstByUrl.set(item.url, item);
    }
    const relative = (item: Loaded) => {
      const address = new URL(item.url);
      return { ...item, url: address.origin === baseUrl.origin ? address.pathname : item.url };
    };
    const loaded = [...firstByUrl.values()].map(relative);
    const before = loaded.filter((item) => item.finishedAt <= renderedAt);
    const later = loaded.filter((item) => item.finishedAt > renderedAt && item.kind === 'js');

    const since = (at: number | undefined) =>
      at === undefined ? 'never' : `${Math.round(at - started)} ms`;
    console.log(`\nFirst render of ${pageUrl.href}, signed out, in a fresh browser profile`);
    console.log(
      `  marker: ${prerendered ? 'prerendered (the HTML holds the page)' : marks.themeLoaded !== undefined ? 'theme-loaded on <html>' : 'h1 in #root'}; ` +
        `first h1 in #root after ${since(marks.h1)}, theme-loaded after ${since(marks.themeLoaded)}`,
    );
    console.log('  sizes in KB of 1,024 bytes; gzip: node:zlib level 9 of the decoded body\n');

    const js = table(before.filter((item) => item.kind === 'js'));
    console.log('JavaScript before first render');
    console.log(js.text);
    const css = table(before.filter((item) => item.kind === 'css'));
    console.log('\nCSS before first render');
    console.log(css.text);
    // Fonts are compressed already (woff2): their raw size is what crosses the network.
    const fonts = before.filter((item) => item.kind === 'font');
    const fontBytes = fonts.reduce((sum, item) => sum + item.raw, 0);
    if (fonts.length > 0) {
      console.log('\nFonts before first render (woff2, sent as they are)');
      for (const font of fonts) console.log(`${font.url}  ${kb(font.raw)} KB`);
    }
    if (later.length > 0) {
      console.log(
        prerendered
          ? '\nJavaScript that hydrates the page, loaded after it rendered'
          : '\nJavaScript loaded after first render, until the network was idle',
      );
      console.log(table(later).text);
    }

    const verdict = js.gzip <= budgetKb * 1024 ? 'within budget' : 'over budget';
    console.log(
      `\nFirst-render JavaScript: ${kb(js.gzip)} KB gzip of a ${budgetKb} KB budget: ${verdict}`,
    );
    console.log(`First-render CSS: ${kb(css.gzip)} KB gzip`);
    console.log(`First-render fonts: ${kb(fontBytes)} KB`);
    return 0;
  } finally {
    await context.close();
  }
};

const main = async (): Promise<number> => {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    let failed = 0;
    for (const page of pages) failed += await measurePage(browser, new URL(page, baseUrl));
    return failed > 0 ? 1 : 0;
  } finally {
    await browser.close();
  }
};

process.exitCode = await main();
