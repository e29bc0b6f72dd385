/**
 * `promtool check metrics` over what each process serves at /metrics: the exposition format
 * and Prometheus's naming rules (counters end in _total, units are base units, every family has
 * help). Prints what it checked; returns the problems found.
 */
import { spawn } from 'node:child_process';

const promtoolCheck = (promtool: string, exposition: string) =>
  new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(promtool, ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    // promtool may answer before it has read everything (or fail to start): its exit code says.
    child.stdin.on('error', () => undefined);
    child.once('close', (code) => resolve({ code, output: output.trim() }));
    child.stdin.end(exposition);
  });

/** The families and samples of an exposition, and the services its noted_ samples name. */
const summarize = (exposition: string) => {
  const lines = exposition.split('\n');
  const families = lines
    .filter((line) => line.startsWith('# TYPE '))
    .map((line) => line.split(' ')[2]);
  const samples = lines.filter((line) => line && !line.startsWith('#'));
  const requests = new Map<string, number>();
  for (const line of samples) {
    const match = /^noted_(http|grpc)_requests_total\{.*service="([^"]+)".*\} (\S+)/.exec(line);
    if (!match) continue;
    const key = `${match[2]} ${match[1]}`;
    requests.set(key, (requests.get(key) ?? 0) + Number(match[3]));
  }
  return {
    families: families.length,
    noted: families.filter((name) => name?.startsWith('noted_')).length,
    samples: samples.length,
    requests: [...requests].map(([key, count]) => `${key} ${count}`).join(', ') || 'none',
  };
};

export const checkMetrics = async (
  promtool: string,
  endpoints: { name: string; url: string }[],
  log: (line: string) => void,
): Promise<string[]> => {
  const problems: string[] = [];
  for (const { name, url } of endpoints) {
    const response = await fetch(url).catch((error: unknown) => error as Error);
    if (response instanceof Error || !response.ok) {
      const why = response instanceof Error ? response.message : `answered ${response.status}`;
      problems.push(`${name} (${url}): ${why}`);
      log(`metrics ${name}: ${url} ${why}`);
      continue;
    }
    const exposition = await response.text();
    const { families, noted, samples, requests } = summarize(exposition);
    const { code, output } = await promtoolCheck(promtool, exposition);
    log(
      `metrics ${name}: ${url}: ${families} families (${noted} noted_*), ${samples} samples; requests counted: ${requests}`,
    );
    if (code === 0 && !output) {
      log(`  promtool check metrics: no problems`);
    } else {
      log(`  promtool check metrics exited ${code}:\n${output.replace(/^/gm, '    ')}`);
      problems.push(`${name}: promtool check metrics exited ${code}`);
    }
  }
  return problems;
};
