import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../services/noted/src/test/app.js';
import { launcherOf } from '../../services/noted/src/test/launcher.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The built program on embedded defaults, run as the noted binary runs, with the limits off
 * (and `env` besides); stopped and its data dir removed by `stop`.
 */
export const startNoted = async (log: (line: string) => void, env: Record<string, string> = {}) => {
  const main = path.join(repoRoot, 'services/noted/dist/main.js');
  if (!existsSync(main)) {
    throw new Error(`${main} is missing: build it (npx nx run @noted/noted:build) or set BASE_URL`);
  }
  const [port, metricsPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'noted-load-'));
  const logFile = path.join(dataDir, 'noted.log');
  const out = openSync(logFile, 'a');
  // Only what the program needs: no DATABASE_URL, NATS_URL or S3_ENDPOINT from this shell.
  const { settings, flags } = launcherOf(main);
  const child = spawn(process.execPath, [...flags, main], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...settings,
      PORT: String(port),
      NOTED_DATA_DIR: dataDir,
      NOTED_METRICS_PORT: String(metricsPort),
      GATEWAY_RATE_LIMIT_PER_USER: '0',
      GATEWAY_RATE_LIMIT_PER_IP: '0',
      FREE_NOTES_PER_MONTH: '-1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', out, out],
  });
  const baseUrl = `http://localhost:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`noted exited with ${child.exitCode}; see ${logFile}`);
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() - started > 120_000)
      throw new Error(`noted was not ready in 120 s; see ${logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  log(
    `started the built program on embedded defaults at ${baseUrl} in ${Date.now() - started} ms (log ${logFile})`,
  );
  return {
    baseUrl,
    pid: child.pid ?? 0,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    stop: async () => {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
