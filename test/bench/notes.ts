/**
 * The notes benchmark: seeds 100,000 notes for one user into real Postgres, then measures
 * through the gateway with a closed-loop load of concurrent clients (Noted and the baseline each in
 * their own process) — note creation, listing and search — and runs the same
 * creation load against a minimal express + pg server in the same run as the baseline.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:54329/postgres npm run bench:notes
 *
 * It creates (and drops first) the database `noted_bench` on that server. BENCH_SECONDS sets
 * the length of each run (default 10), BENCH_NOTES the number of seeded notes (100000),
 * BENCH_CONNECTIONS the number of concurrent clients (10). BENCH_ONLY=baseline,create runs only
 * the scenarios whose names start with those words; BENCH_PROFILE_DIR writes a CPU profile of
 * each Noted process there (node --cpu-prof) when it stops.
 *
 * BENCH_TOPOLOGY=all (the default) runs Noted as `npm start` does, every module in one
 * process; BENCH_TOPOLOGY=split runs it as deployed: the gateway (with the development
 * identity provider), notes and users in their own processes, talking over gRPC and NATS
 * (BENCH_NATS_URL or TEST_NATS_URL, e.g. from deploy/local/nats.sh).
 * Figures, not assertions: it prints a table and the ratio to the baseline. Where /proc exists,
 * each row also shows the CPU the server's processes and Postgres spent per request, which
 * varies less than throughput on a shared machine.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { passwordGrant } from '@noted/testing';
import { freePort } from '../../services/noted/src/test/app.js';
import { words } from './words.js';

const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const noteCount = Number(process.env.BENCH_NOTES ?? 100_000);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const topology = process.env.BENCH_TOPOLOGY ?? 'all';
const natsUrl = process.env.BENCH_NATS_URL ?? process.env.TEST_NATS_URL;
const profileDir = process.env.BENCH_PROFILE_DIR;
const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);

const tags = [
  'work',
  'home',
  'ideas',
  'reading',
  'todo',
  'health',
  'travel',
  'money',
  'family',
  'code',
];
const rareWord = 'xylophonic';

interface Row {
  name: string;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  /** CPU time of the server's processes (Noted's, or the baseline's) per request, in ms. */
  serverCpuMs?: number;
  /** CPU time of every Postgres process on this machine per request, in ms. */
  postgresCpuMs?: number;
}

interface Load {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Linux's USER_HZ: /proc reports CPU time in these ticks on every mainstream architecture. */
const TICKS_PER_SECOND = 100;

/** CPU seconds each process has used so far, from /proc (none where there is no /proc). */
const cpuSecondsOf = (pids: number[]): Map<number, number> => {
  const used = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      used.set(pid, (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND);
    } catch {
      // The process has ended; what it used since the start is lost.
    }
  }
  return used;
};

/** CPU seconds used between two readings; processes that started in between count in full. */
const cpuSecondsBetween = (before: Map<number, number>, after: Map<number, number>) => {
  let seconds = 0;
  for (const [pid, used] of after) seconds += used - (before.get(pid) ?? 0);
  return seconds;
};

/** The Postgres server processes on this machine (the bench's server when it runs here). */
const postgresPids = (): number[] => {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
};

const percentile = (sorted: number[], p: number) =>
  Number((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0).toFixed(1));

/**
 * Closed-loop load: `connections` clients each send the next request when the last one
 * answered, for `seconds`; latency is measured per request on the client (undici's fetch).
 */
const run = async (name: string, load: Load, serverPids: number[]): Promise<Row> => {
  const latencies: number[] = [];
  let errors = 0;
  const serverBefore = cpuSecondsOf(serverPids);
  const postgresBefore = cpuSecondsOf(postgresPids());
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) {
        const started = performance.now();
        try {
          const response = await fetch(load.url, {
            method: load.method ?? 'GET',
            headers: load.headers,
            body: load.body,
          });
          await response.arrayBuffer();
          if (!response.ok) errors += 1;
        } catch {
          errors += 1;
        }
        latencies.push(performance.now() - started);
      }
    }),
  );
  const perRequestMs = (before: Map<number, number>, after: Map<number, number>) =>
    after.size === 0 || latencies.length === 0
      ? undefined
      : Number(((cpuSecondsBetween(before, after) * 1000) / latencies.length).toFixed(2));
  const serverCpuMs = perRequestMs(serverBefore, cpuSecondsOf(serverPids));
  const postgresCpuMs = perRequestMs(postgresBefore, cpuSecondsOf(postgresPids()));
  latencies.sort((a, b) => a - b);
  return {
    name,
    rps: Math.round(latencies.length / seconds),
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    errors,
    ...(serverCpuMs === undefined ? {} : { serverCpuMs }),
    ...(postgresCpuMs === undefined ? {} : { postgresCpuMs }),
  };
};

const withDatabase = async (name: string) => {
  if (!adminUrl) {
    throw new Error(
      'set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a Postgres server, e.g. from deploy/local/postgres.sh',
    );
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** Notes of realistic length: a title of 2-6 words, 30-330 words of body, 1-3 tags. */
const seed = async (databaseUrl: string, userId: string) => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = Date.now();
  await client.query(
    `insert into notes.notes (id, user_id, title, body, tags, created_at, updated_at)
     select gen_random_uuid(), $1,
            (select string_agg(($2::text[])[1 + ((g * 7 + i * 13) % array_length($2::text[], 1))], ' ')
               from generate_series(1, 2 + g % 5) i),
            (select string_agg(($2::text[])[1 + ((g * 31 + i * 17 + i * i) % array_length($2::text[], 1))], ' ')
               from generate_series(1, 30 + g % 300) i)
              || case when g % 10000 = 0 then ' ${rareWord}' else '' end,
            array(select ($3::text[])[1 + ((g + i * 3) % array_length($3::text[], 1))]
                    from generate_series(1, 1 + g % 3) i),
            now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval
       from generate_series(1, $4::int) g`,
    [userId, words, tags, noteCount],
  );
  await client.query(
    `insert into notes.note_links (user_id, source_id, target_id, kind)
     select $1, a.id, b.id, 'manual'
       from (select id, row_number() over (order by id) n from notes.notes) a
       join (select id, row_number() over (order by id desc) n from notes.notes) b on a.n = b.n
      where a.n % 5 = 0 and a.id <> b.id`,
    [userId],
  );
  // As autovacuum would have by now: GIN pending lists merged, statistics current.
  await client.query('vacuum analyze notes.notes');
  await client.query('vacuum analyze notes.note_links');
  const { rows } = await client.query<{ notes: string; links: string }>(
    'select (select count(*) from notes.notes) notes, (select count(*) from notes.note_links) links',
  );
  await client.end();
  return { ms: Date.now() - started, notes: Number(rows[0]?.notes), links: Number(rows[0]?.links) };
};

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Starts a TypeScript entry point as its own process and waits until `readyUrl` (by default
 * `readyPath` on `port`) answers.
 */
const startProcess = async (
  entry: string,
  port: number,
  readyPath: string,
  env: Record<string, string>,
  options: { args?: string[]; readyUrl?: string; profile?: boolean } = {},
) => {
  const child = spawn(
    process.execPath,
    [
      ...(options.profile && profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      '--conditions=@noted/source',
      '--import',
      'tsx',
      path.join(repoRoot, entry),
      ...(options.args ?? []),
    ],
    { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const url = `http://127.0.0.1:${port}`;
  const ready = options.readyUrl ?? `${url}${readyPath}`;
  const deadline = Date.now() + 120_000;
  while (
    !(await fetch(ready).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${entry} did not become ready`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    pids: child.pid === undefined ? [] : [child.pid],
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
};

/** Noted in one process, or as its services in their own processes (see the header). */
const startNoted = async (databaseUrl: string, port: number) => {
  const env = {
    NOTED_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'noted-bench-')),
    DATABASE_URL: databaseUrl,
    FREE_NOTES_PER_MONTH: '-1',
    LOG_LEVEL: 'warn',
    // Each process's metrics on a port of its own (split runs several).
    NOTED_METRICS_PORT: '0',
    // One user from one address at full speed is what this measures, not what the limits refuse.
    GATEWAY_RATE_LIMIT_PER_USER: '0',
    GATEWAY_RATE_LIMIT_PER_IP: '0',
  };
  const main = 'services/noted/src/main.ts';
  if (topology === 'all') return startProcess(main, port, '/readyz', env, { profile: true });
  if (topology !== 'split') throw new Error(`BENCH_TOPOLOGY is all or split, not ${topology}`);
  if (!natsUrl) throw new Error('BENCH_TOPOLOGY=split needs BENCH_NATS_URL or TEST_NATS_URL');
  const internal = await freePorts(6, [port]);
  const shared = {
    ...env,
    NATS_URL: natsUrl,
    NOTED_INTERNAL_SECRET: randomBytes(32).toString('base64url'),
    PUBLIC_URL: `http://localhost:${port}`,
    IDENTITY_PORT: String(internal[0]),
    IDENTITY_URL: `http://127.0.0.1:${internal[0]}`,
    USERS_HTTP_PORT: String(internal[1]),
    USERS_URL: `http://127.0.0.1:${internal[1]}`,
    USERS_GRPC_ADDR: `127.0.0.1:${internal[2]}`,
    NOTES_HTTP_PORT: String(internal[3]),
    NOTES_URL: `http://127.0.0.1:${internal[3]}`,
    NOTES_GRPC_ADDR: `127.0.0.1:${internal[4]}`,
  };
  const started = [
    await startProcess(main, internal[5] ?? 0, '/readyz', shared, {
      args: ['--target=bus,users'],
      profile: true,
      readyUrl: `${shared.USERS_URL}/readyz`,
    }),
    await startProcess(main, internal[5] ?? 0, '/readyz', shared, {
      args: ['--target=bus,notes'],
      profile: true,
      readyUrl: `${shared.NOTES_URL}/readyz`,
    }),
    await startProcess(main, port, '/readyz', shared, {
      args: ['--target=bus,gateway'],
      profile: true,
    }),
  ];
  return {
    url: `http://127.0.0.1:${port}`,
    pids: started.flatMap((child) => child.pids),
    stop: async () => {
      for (const child of started.reverse()) await child.stop();
    },
  };
};

/** `count` distinct free ports, none of them in `taken`. */
const freePorts = async (count: number, taken: number[]) => {
  const ports = new Set<number>();
  while (ports.size < count) {
    const next = await freePort();
    if (!taken.includes(next)) ports.add(next);
  }
  return [...ports];
};

const main = async () => {
  const databaseUrl = await withDatabase('noted_bench');
  const port = await freePort();
  const notedProcess = await startNoted(databaseUrl, port);
  const baseline = await startProcess('test/bench/baseline.ts', await freePort(), '/healthz', {
    DATABASE_URL: databaseUrl,
  });
  const base = notedProcess.url;
  try {
    const { accessToken } = await passwordGrant({
      realmUrl: `http://localhost:${port}/realms/noted`,
      email: 'bench@example.com',
    });
    const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
    const me = (await (await fetch(`${base}/user`, { headers })).json()) as { userId: string };
    const seeded = await seed(databaseUrl, me.userId);
    console.log(`seeded ${seeded.notes} notes and ${seeded.links} links in ${seeded.ms} ms`);

    const body = JSON.stringify({
      title: 'Benchmark note',
      note: words.slice(0, 40).join(' '),
      tags: ['work', 'bench'],
    });
    const noted = (url: string, init: Omit<Load, 'url'> = {}) => ({
      load: { url: `${base}${url}`, headers, ...init },
      pids: notedProcess.pids,
    });
    const scenarios: { name: string; load: Load; pids: number[] }[] = [
      {
        name: 'baseline create (express + pg)',
        load: { url: `${baseline.url}/notes`, method: 'POST', headers, body },
        pids: baseline.pids,
      },
      { name: 'create note', ...noted('/api/note/create/direct', { method: 'POST', body }) },
      { name: 'list, first page', ...noted('/api/notes?page=1&limit=10') },
      {
        name: 'list, pinned first, tag',
        ...noted('/api/notes?page=3&limit=10&pinnedFirst=true&tag=work'),
      },
      { name: 'search, common word', ...noted('/api/notes?search=meeting') },
      { name: 'search, rare word', ...noted(`/api/notes?search=${rareWord}`) },
      { name: 'search, prefix', ...noted('/api/notes?search=garde') },
      { name: 'search, typo (no match)', ...noted('/api/notes?search=meetng') },
    ];
    const rows: Row[] = [];
    for (const { name, load, pids } of scenarios) {
      // BENCH_ONLY=create,list runs the scenarios whose names start with one of those words.
      if (only && !only.some((word) => name.startsWith(word))) continue;
      rows.push(await run(name, load, pids));
    }

    console.log(
      `\n${noteCount} notes, ${connections} connections, ${seconds} s per run, Noted ${topology === 'all' ? 'in one process' : 'as separate services'} (latency in ms)`,
    );
    console.table(rows);
    const baselineRow = rows.find((row) => row.name.startsWith('baseline'));
    const createRow = rows.find((row) => row.name === 'create note');
    if (baselineRow && createRow) {
      console.log(
        `create throughput: ${createRow.rps}/s vs baseline ${baselineRow.rps}/s = ${(createRow.rps / baselineRow.rps).toFixed(2)} of the baseline`,
      );
    }
  } finally {
    await baseline.stop();
    await notedProcess.stop();
  }
};

await main();
