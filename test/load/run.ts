/**
 * Load scripts for Noted, driven by autocannon through the gateway (k6's licence rules it out
 * for this project): browse-and-search, create-and-edit and ai-search. Each signs its users in
 * with the password grant, prepares their notes through the API, then keeps `--connections`
 * clients busy for `--duration` seconds and checks its thresholds (p95, p99, errors); the run
 * exits 1 when any threshold fails. Load on live connections (WebSockets) is `npm run
 * load:live` (live.ts).
 *
 *   npm run load                    # 30 s per script against the built program it starts
 *   npm run load -- --duration=5    # the short run CI makes
 *   npm run load -- --only=ai-search --connections=20
 *   BASE_URL=http://localhost:8080 npm run load -- --metrics=http://127.0.0.1:9464/metrics --promtool=promtool
 *
 * Without BASE_URL it starts `services/noted/dist/main.js` (build it first) on embedded
 * defaults in a new data dir, with the gateway's per-user and per-address rate limits off
 * (GATEWAY_RATE_LIMIT_PER_USER=0, GATEWAY_RATE_LIMIT_PER_IP=0: a handful of users at full
 * speed is what this measures) and the free plan's monthly note allowance unlimited
 * (FREE_NOTES_PER_MONTH=-1). A Noted given by BASE_URL needs the same three settings, or its
 * refusals (429, 403) count as errors. --metrics and --promtool check each listed /metrics
 * with `promtool check metrics` after the load (the started program's own when none are listed).
 */
import { parseArgs } from 'node:util';
import { aiSearch } from './ai-search.js';
import { browseSearch } from './browse-search.js';
import { createEdit } from './create-edit.js';
import { runLoad, type LoadScript, type Outcome, type Target } from './load.js';
import { checkMetrics } from './metrics.js';
import { startNoted } from './noted.js';

const scripts: LoadScript[] = [browseSearch, createEdit, aiSearch];

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '30' },
    connections: { type: 'string', default: '10' },
    only: { type: 'string' },
    'base-url': { type: 'string' },
    metrics: { type: 'string' },
    promtool: { type: 'string' },
  },
});

const log = (line: string) => process.stdout.write(`${line}\n`);

const row = (outcome: Outcome, script: LoadScript) => ({
  script: outcome.name,
  'req/s': outcome.rps,
  'p50 ms': outcome.p50,
  'p95 ms': outcome.p95,
  'p99 ms': outcome.p99,
  'max ms': outcome.max,
  requests: outcome.requests,
  errors: outcome.errors,
  thresholds: `p95<${script.thresholds.p95Ms} p99<${script.thresholds.p99Ms} errors<=${script.thresholds.errors}`,
  result: outcome.failed.length === 0 ? 'pass' : 'FAIL',
});

const main = async () => {
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  if (!(duration > 0) || !(connections > 0))
    throw new Error('--duration and --connections are positive numbers');
  const only = values.only?.split(',').filter(Boolean);
  const chosen = only ? scripts.filter((script) => only.includes(script.name)) : scripts;
  if (chosen.length === 0) {
    throw new Error(`--only names none of ${scripts.map((script) => script.name).join(', ')}`);
  }
  const given = values['base-url'] ?? process.env.BASE_URL;
  const noted = given ? undefined : await startNoted(log);
  const baseUrl = (given ?? noted?.baseUrl ?? '').replace(/\/$/, '');
  const target: Target = {
    baseUrl,
    realmUrl: process.env.LOAD_REALM_URL ?? `${baseUrl}/realms/noted`,
    password: process.env.LOAD_PASSWORD ?? 'noted',
    duration,
    connections,
  };
  const rows = [];
  const failures: string[] = [];
  try {
    log(`load on ${baseUrl}: ${connections} connections, ${duration} s per script`);
    for (const script of chosen) {
      log(`\n${script.name}: ${script.does}`);
      const requests = await script.prepare(target, (line) => log(`  ${line}`));
      const outcome = await runLoad(target, script, requests);
      rows.push(row(outcome, script));
      log(
        `  ${outcome.rps} req/s, p50 ${outcome.p50} ms, p95 ${outcome.p95} ms, p99 ${outcome.p99} ms, ${outcome.requests} requests, ${outcome.errors} errors (statuses ${JSON.stringify(outcome.statuses)})`,
      );
      if (outcome.firstRefusal) log(`  first refusal: ${outcome.firstRefusal}`);
      if (outcome.statuses['429']) {
        log('  429: start Noted with GATEWAY_RATE_LIMIT_PER_USER=0 GATEWAY_RATE_LIMIT_PER_IP=0');
      }
      if (outcome.firstRefusal?.includes('NOTES_LEFT_NOT_ENOUGH')) {
        log('  403 NOTES_LEFT_NOT_ENOUGH: start Noted with FREE_NOTES_PER_MONTH=-1');
      }
      for (const failed of outcome.failed) failures.push(`${script.name}: ${failed}`);
    }
    log('');
    console.table(rows);
    const promtool = values.promtool ?? process.env.PROMTOOL;
    if (promtool) {
      const listed = values.metrics?.split(',').filter(Boolean) ?? [];
      const endpoints = listed.length
        ? listed.map((entry) => {
            // name=url, or a bare url named by itself.
            const at = entry.indexOf('=');
            if (entry.startsWith('http') || at < 1) return { name: entry, url: entry };
            return { name: entry.slice(0, at), url: entry.slice(at + 1) };
          })
        : noted
          ? [{ name: 'all-in-one', url: noted.metricsUrl }]
          : [];
      if (endpoints.length === 0)
        failures.push('--promtool given but no /metrics to check (--metrics)');
      log('');
      failures.push(...(await checkMetrics(promtool, endpoints, log)));
    }
  } finally {
    await noted?.stop();
  }
  if (failures.length > 0) {
    log(`\nFAILED:\n${failures.map((failure) => `  ${failure}`).join('\n')}`);
    process.exit(1);
  }
  log(`\n${rows.length} load scripts passed their thresholds`);
};

main().catch((error: unknown) => {
  process.stderr.write(`load: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
