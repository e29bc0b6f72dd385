/**
 * Lighthouse on the signed-out home page, mobile (the default config) and desktop: prints the
 * four category scores and, per category, the audits that do not pass, and writes the JSON
 * reports to test-results/lighthouse.json and test-results/lighthouse-desktop.json.
 * A report, not a test: it exits 0 whatever the scores, and 1 only when Lighthouse could not
 * audit the page.
 *
 *   BASE_URL=http://localhost:8080 npm run report:lighthouse
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
  file: string;
  config?: Config;
}

const runs: Run[] = [
  { name: 'mobile', file: 'lighthouse.json' },
  { name: 'desktop', file: 'lighthouse-desktop.json', config: desktopConfig },
];

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

const print = (run: Run, lhr: Result) => {
  const score = (id: string) => {
    const value = lhr.categories[id]?.score;
    return value === null || value === undefined ? '-' : String(Math.round(value * 100));
  };
  console.log(`\nLighthouse ${lhr.lighthouseVersion}, ${run.name}, ${lhr.finalDisplayedUrl}`);
  console.log(categories.map((id) => `${id} ${score(id)}`).join('   '));
  console.log(
    metrics
      .map((id) => lhr.audits[id])
      .filter((audit) => audit !== undefined)
      .map((audit) => `${audit.title}: ${audit.displayValue ?? '-'}`)
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
    for (const run of runs) {
      const result = await lighthouse(
        baseUrl.href,
        { port: chrome.port, output: 'json', logLevel: 'error' },
        run.config,
      );
      if (!result) throw new Error(`Lighthouse returned no result for ${run.name}`);
      const report = Array.isArray(result.report) ? result.report.join('\n') : result.report;
      await writeFile(path.join(resultsDir, run.file), report);
      if (result.lhr.runtimeError) {
        const { code, message } = result.lhr.runtimeError;
        console.error(
          `Lighthouse could not audit ${baseUrl.href} (${run.name}): ${code} ${message}`,
        );
        return 1;
      }
      print(run, result.lhr);
    }
    console.log(`\nJSON reports: ${runs.map((run) => path.join(resultsDir, run.file)).join(', ')}`);
    return 0;
  } finally {
    await chrome.kill();
  }
};

process.exitCode = await main().catch((error: unknown) => {
  console.error('Lighthouse could not run:', error);
  return 1;
});
