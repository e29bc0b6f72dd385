/**
 * Lighthouse on the site's landing page, a blog post and the signed-out home page of the app:
 * mobile (the default config) RUNS times each (3: the machine is noisy), reported as the median
 * of each score and measure, then desktop once. Prints the four category scores and, per
 * category, the audits that do not pass (of the median run), and writes the JSON reports to
 * test-results/lighthouse-<page>[-desktop].json. A report, not a test: it exits 0 whatever the
 * scores, and 1 only when Lighthouse could not audit a page.
 *
 *   BASE_URL=http://localhost:8080 npm run report:lighthouse
 *   PAGES=/landing RUNS=5 npm run report:lighthouse
 *
 * Nothing leaves the machine: Lighthouse's node API never starts its error reporting, the
 * chrome-launcher defaults switch off Chromium's background services, and a host resolver rule
 * makes every host name but the audited one unresolvable. The requests the page made to
 * another origin, if any, are printed.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import type { Config, Result } from 'lighthouse';

const baseUrl = new URL(process.env.BASE_URL ?? 'http://localhost:8080');
const pages = (process.env.PAGES ?? '/landing,/blog/offline-first-notes,/').split(',');
const mobileRuns = Math.max(1, Number(process.env.RUNS ?? 3));
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const resultsDir = path.resolve('test-results');
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
/** Lighthouse's own threshold: its report shows an audit under 0.9 as one to fix. */
const passThreshold = 0.9;
const metrics = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
];

interface Run {
  name: string;
  config?: Config;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

const failingAudits = (lhr: Result, category: string) =>
  (lhr.categories[category]?.auditRefs ?? [])
    .map((ref) => lhr.audits[ref.id])
    .filter(
      (audit): audit is Result['audits'][string] =>
        audit !== undefined &&
        ['binary', 'numeric', 'metricSavings'].includes(audit.scoreDisplayMode) &&
        audit.score !== null &&
        audit.score < passThreshold,
    );

const otherOrigins = (lhr: Result) => {
  const details = lhr.audits['network-requests']?.details;
  const items = details?.type === 'table' ? details.items : [];
  const origins = items
    .map((item) => new URL(String(item.url)).origin)
    .filter((origin) => origin !== baseUrl.origin && origin !== 'null');
  return [...new Set(origins)];
};

const scoreOf = (lhr: Result, id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);

/** The run whose performance score is the median one: its audits are the ones printed. */
const medianRun = (lhrs: Result[]) => {
  const sorted = [...lhrs].sort((a, b) => scoreOf(a, 'performance') - scoreOf(b, 'performance'));
  return sorted[Math.floor((sorted.length - 1) / 2)] as Result;
};

const print = (run: Run, lhrs: Result[]) => {
  const lhr = medianRun(lhrs);
  const several = lhrs.length > 1;
  console.log(
    `\nLighthouse ${lhr.lighthouseVersion}, ${run.name}, ${lhr.finalDisplayedUrl}${several ? `, median of ${lhrs.length} runs` : ''}`,
  );
  console.log(
    categories
      .map((id) => {
        const scores = lhrs.map((each) => scoreOf(each, id));
        return `${id} ${median(scores)}${several ? ` (${scores.join(', ')})` : ''}`;
      })
      .join('   '),
  );
  console.log(
    metrics
      .map((id) => {
        const values = lhrs.map((each) => each.audits[id]?.numericValue ?? 0);
        const title = lhr.audits[id]?.title ?? id;
        const value = median(values);
        return id === 'cumulative-layout-shift'
          ? `${title}: ${value.toFixed(3)}`
          : `${title}: ${Math.round(value)} ms`;
      })
      .join(', '),
  );
  for (const id of categories) {
    const failing = failingAudits(lhr, id);
    console.log(`${id}: ${failing.length === 0 ? 'no failing audits' : 'failing audits'}`);
    for (const audit of failing) {
      const value = audit.displayValue ? ` (${audit.displayValue})` : '';
      console.log(`  ${audit.id}: ${audit.title}${value}`);
    }
  }
  const origins = otherOrigins(lhr);
  console.log(`requests to other origins: ${origins.length === 0 ? 'none' : origins.join(', ')}`);
};

const main = async (): Promise<number> => {
  await mkdir(resultsDir, { recursive: true });
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      `--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE ${baseUrl.hostname}`,
    ],
    logLevel: 'silent',
  });
  try {
    // Lighthouse sometimes loses its own trace of a load (NO_NAVSTART, NO_FCP…: "Please run
    // Lighthouse again"); such a run is done again, twice at most. A page that never paints
    // still fails.
    const attempts = 3;
    const audit = async (url: URL, run: Run, attempt = 1): Promise<Result> => {
      const result = await lighthouse(
        url.href,
        { port: chrome.port, output: 'json', logLevel: 'error' },
        run.config,
      );
      if (!result) throw new Error(`Lighthouse returned no result for ${url.href} (${run.name})`);
      if (result.lhr.runtimeError) {
        const { code, message } = result.lhr.runtimeError;
        if (/run Lighthouse again/i.test(message) && attempt < attempts) {
          console.log(`(${url.pathname}, ${run.name}: ${code}, run again)`);
          return audit(url, run, attempt + 1);
        }
        throw new Error(`Lighthouse could not audit ${url.href} (${run.name}): ${code} ${message}`);
      }
      return result.lhr;
    };
    const written: string[] = [];
    for (const page of pages) {
      const url = new URL(page, baseUrl);
      const name = page.replace(/^\/|\/$/g, '').replace(/[^a-z0-9]+/gi, '-') || 'home';
      for (const run of [
        { name: 'mobile', config: undefined, times: mobileRuns, file: `lighthouse-${name}.json` },
        {
          name: 'desktop',
          config: desktopConfig,
          times: 1,
          file: `lighthouse-${name}-desktop.json`,
        },
      ]) {
        const lhrs: Result[] = [];
        for (let time = 0; time < run.times; time += 1) lhrs.push(await audit(url, run));
        await writeFile(path.join(resultsDir, run.file), JSON.stringify(medianRun(lhrs)));
        written.push(path.join(resultsDir, run.file));
        print(run, lhrs);
      }
    }
    console.log(`\nJSON reports: ${written.join(', ')}`);
    return 0;
  } finally {
    await chrome.kill();
  }
};

process.exitCode = await main().catch((error: unknown) => {
  console.error('Lighthouse could not run:', error instanceof Error ? error.message : error);
  return 1;
});
