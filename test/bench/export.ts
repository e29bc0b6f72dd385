/**
 * The export benchmark: time and peak memory of exporting everything (`GET /export/all`, one
 * streamed zip of Markdown, images and a manifest) for a user with 10,000 notes and for one with
 * a tenth of that, against a baseline in the same run that reads the same notes and images
 * over gRPC page by page (the export's own client and page size) without writing anything.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:54329/postgres npm run bench:export
 *
 * Noted runs as two processes on Postgres: users, notes and the gateway in one, `--target=export`
 * alone in the other, so the export's memory is its own; the baseline is a third process. It
 * creates (and drops first) the database `noted_bench_export`. BENCH_NOTES sets the larger
 * user's notes (10000), BENCH_IMAGES how many of their notes get an image (100), BENCH_PAGE the
 * page size (the service's default, 100). Figures, not assertions.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import sharp from 'sharp';
import { passwordGrant } from '@noted/testing';
import { createNotesReader, notePages } from '../../services/export/src/notes-client.js';
import { freePort } from '../../services/noted/src/test/app.js';
import { mb, resetHighWater, statusKb } from './proc.js';
import { words } from './words.js';

const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const noteCount = Number(process.env.BENCH_NOTES ?? 10_000);
const imageCount = Number(process.env.BENCH_IMAGES ?? 100);
const pageSize = Number(process.env.BENCH_PAGE ?? 100);
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const main = path.join(repoRoot, 'services/noted/src/main.ts');
/** As the `noted` binary runs (its #! line, and `npm start`): memory is measured as deployed. */
const nodeFlags = ['--max-old-space-size=384', '--max-semi-space-size=4'];
const mallocEnv = { MALLOC_MMAP_THRESHOLD_: '65536', MALLOC_TRIM_THRESHOLD_: '1048576' };

/**
 * The baseline, in a process of its own: every note of the user, page by page, and every image
 * of theirs, read over gRPC and dropped. Prints its figures as one line of JSON.
 */
const baseline = async () => {
  const reader = createNotesReader({
    address: process.env.NOTES_GRPC_ADDR ?? '',
    internalSecret: process.env.NOTED_INTERNAL_SECRET ?? '',
  });
  const userId = process.env.BENCH_USER_ID ?? '';
  writeFileSync('/proc/self/clear_refs', '5');
  const startKb = statusKb(process.pid, 'VmRSS') ?? 0;
  const started = performance.now();
  let notes = 0;
  let bytes = 0;
  for await (const page of notePages(reader, userId, pageSize)) {
    for (const note of page.notes) {
      notes += 1;
      bytes += Buffer.byteLength(note.body);
      for (const url of note.images) bytes += (await reader.image(userId, url))?.bytes.length ?? 0;
    }
  }
  const ms = performance.now() - started;
  reader.close();
  console.log(
    JSON.stringify({ ms, notes, bytes, startKb, peakKb: statusKb(process.pid, 'VmHWM') ?? 0 }),
  );
};

const withDatabase = async (name: string) => {
  if (!adminUrl) throw new Error('Set BENCH_DATABASE_URL or TEST_DATABASE_URL (Postgres)');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** A process of `noted`, ready once `readyUrl` answers. */
const startNoted = async (target: string, env: Record<string, string>, readyUrl: string) => {
  const profile = process.env.BENCH_PROFILE_DIR && target === 'export';
  const child = spawn(
    process.execPath,
    [
      ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []),
      ...nodeFlags,
      '--conditions=@noted/source',
      '--import',
      'tsx',
      main,
      `--target=${target}`,
    ],
    { env: { ...process.env, ...mallocEnv, ...env }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const deadline = Date.now() + 120_000;
  while (
    !(await fetch(readyUrl).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null)
      throw new Error(`--target=${target} exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`--target=${target} did not become ready`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    pid: child.pid ?? 0,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
};

/** `count` notes of realistic length (30-330 words, 1-3 tags, a link now and then). */
const seed = async (databaseUrl: string, userId: string, count: number) => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  // Without the search vocabulary's triggers (two minutes for 11,000 notes): exports never use it.
  await client.query('set session_replication_role = replica');
  await client.query(
    `insert into notes.notes (id, user_id, title, body, tags, created_at, updated_at)
     select gen_random_uuid(), $1,
            (select string_agg(($2::text[])[1 + ((g * 7 + i * 13) % array_length($2::text[], 1))], ' ')
               from generate_series(1, 2 + g % 5) i),
            (select string_agg(($2::text[])[1 + ((g * 31 + i * 17 + i * i) % array_length($2::text[], 1))], ' ')
               from generate_series(1, 30 + g % 300) i)
              || case when g % 7 = 0 then E'\\n\\nSee [[' || ($2::text[])[1 + g % array_length($2::text[], 1)] || ']].' else '' end,
            array(select ($3::text[])[1 + ((g + i * 3) % array_length($3::text[], 1))]
                    from generate_series(1, 1 + g % 3) i),
            now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval
       from generate_series(1, $4::int) g`,
    [userId, words, ['work', 'home', 'ideas', 'reading', '读书', '工作'], count],
  );
  await client.query('vacuum analyze notes.notes');
  const { rows } = await client.query<{ id: string }>(
    'select id from notes.notes where user_id = $1 order by id limit $2',
    [userId, imageCount],
  );
  await client.end();
  return rows.map((row) => row.id);
};

interface Figure {
  what: string;
  notes: number;
  seconds: number;
  notesPerSecond: number;
  mb: number;
  peakMb: number;
  growthMb: number;
}

const run = async () => {
  const databaseUrl = await withDatabase('noted_bench_export');
  const [port, notesGrpc, exportHttp, exportGrpc] = await Promise.all(
    Array.from({ length: 4 }, freePort),
  );
  const env = {
    NOTED_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'noted-bench-export-')),
    NOTED_INTERNAL_SECRET: randomBytes(32).toString('base64url'),
    DATABASE_URL: databaseUrl,
    FREE_NOTES_PER_MONTH: '-1',
    GATEWAY_RATE_LIMIT_PER_USER: '0',
    GATEWAY_RATE_LIMIT_PER_IP: '0',
    LOG_LEVEL: 'warn',
    NOTED_METRICS_PORT: '0',
    NOTED_BIND_HOST: '127.0.0.1',
    PORT: String(port),
    NOTES_GRPC_ADDR: `127.0.0.1:${notesGrpc}`,
    EXPORT_HTTP_PORT: String(exportHttp),
    EXPORT_GRPC_ADDR: `127.0.0.1:${exportGrpc}`,
    EXPORT_URL: `http://127.0.0.1:${exportHttp}`,
    EXPORT_PAGE_SIZE: String(pageSize),
  };
  const base = `http://localhost:${port}`;
  const front = await startNoted('identity,users,notes,gateway', env, `${base}/readyz`);
  const exporter = await startNoted('export', env, `${env.EXPORT_URL}/readyz`);
  try {
    const signIn = async (email: string) => {
      const { accessToken } = await passwordGrant({ realmUrl: `${base}/realms/noted`, email });
      const headers = { authorization: `Bearer ${accessToken}` };
      const { userId } = (await (await fetch(`${base}/user`, { headers })).json()) as {
        userId: string;
      };
      return { headers, userId };
    };
    const small = await signIn('small@example.com');
    const large = await signIn('large@example.com');
    let seeding = performance.now();
    await seed(databaseUrl, small.userId, Math.round(noteCount / 10));
    const withImages = await seed(databaseUrl, large.userId, noteCount);
    const notesSeconds = (performance.now() - seeding) / 1000;
    // A photo-like picture: a gradient with shapes, about as large as a phone's once stored.
    const photo = await sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200">
          <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stop-color="#3a7bd5"/><stop offset="1" stop-color="#d53a9d"/>
          </linearGradient></defs>
          <rect width="100%" height="100%" fill="url(#g)"/>
          <circle cx="1100" cy="400" r="220" fill="#fff8"/>
          <rect x="160" y="720" width="800" height="300" fill="#0004"/>
        </svg>`,
      ),
    )
      .jpeg({ quality: 85 })
      .toBuffer();
    for (const noteId of withImages) {
      const form = new FormData();
      form.append('image', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'p.jpg');
      const answer = await fetch(`${base}/api/notes/${noteId}/images`, {
        method: 'POST',
        headers: large.headers,
        body: form,
      });
      if (answer.status !== 201) throw new Error(`an image upload answered ${answer.status}`);
    }
    seeding = performance.now() - seeding;
    console.log(
      `seeded ${noteCount} + ${Math.round(noteCount / 10)} notes (${Math.round(notesSeconds)} s), ` +
        `${withImages.length} images (${Math.round(seeding / 1000 - notesSeconds)} s)`,
    );

    const figures: Figure[] = [];
    const exportAll = async (who: { headers: Record<string, string> }, what: string) => {
      (globalThis as { gc?: () => void }).gc?.();
      resetHighWater(exporter.pid);
      const startKb = statusKb(exporter.pid, 'VmRSS') ?? 0;
      const started = performance.now();
      const answer = await fetch(`${base}/export/all`, { headers: who.headers });
      const notes = Number(answer.headers.get('x-noted-notes-total'));
      let bytes = 0;
      for await (const part of answer.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += part.length;
      }
      const seconds = (performance.now() - started) / 1000;
      const peakKb = statusKb(exporter.pid, 'VmHWM') ?? 0;
      figures.push({
        what,
        notes,
        seconds,
        notesPerSecond: notes / seconds,
        mb: bytes / 1024 / 1024,
        peakMb: mb(peakKb),
        growthMb: mb(peakKb - startKb),
      });
    };
    const readOnly = async (who: { userId: string }, what: string) => {
      const child = spawn(
        process.execPath,
        [
          ...nodeFlags,
          '--conditions=@noted/source',
          '--import',
          'tsx',
          fileURLToPath(import.meta.url),
          '--baseline',
        ],
        {
          env: { ...process.env, ...mallocEnv, ...env, BENCH_USER_ID: who.userId },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let out = '';
      child.stdout.on('data', (part: Buffer) => {
        out += part.toString();
      });
      await new Promise((resolve) => child.once('exit', resolve));
      const result = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as {
        ms: number;
        notes: number;
        bytes: number;
        startKb: number;
        peakKb: number;
      };
      figures.push({
        what,
        notes: result.notes,
        seconds: result.ms / 1000,
        notesPerSecond: result.notes / (result.ms / 1000),
        mb: result.bytes / 1024 / 1024,
        peakMb: mb(result.peakKb),
        growthMb: mb(result.peakKb - result.startKb),
      });
    };
    // A first export warms the export process (code compiled, connections open).
    await exportAll(small, 'warm-up');
    figures.length = 0;
    await readOnly(small, 'baseline: read over gRPC');
    await exportAll(small, 'export everything (zip)');
    await readOnly(large, 'baseline: read over gRPC');
    await exportAll(large, 'export everything (zip)');

    console.table(
      figures.map((figure) => ({
        what: figure.what,
        notes: figure.notes,
        s: figure.seconds.toFixed(2),
        'notes/s': Math.round(figure.notesPerSecond),
        'MB (zip, or read)': figure.mb.toFixed(1),
        'peak RSS MB': figure.peakMb,
        'RSS growth MB': figure.growthMb,
      })),
    );
    console.log(
      'The export process serves HTTP and runs the zip; the baseline is a bare process with ' +
        'the same gRPC client, so compare the growth of each as the notes grow tenfold.',
    );
  } finally {
    await exporter.stop();
    await front.stop();
  }
};

if (process.argv.includes('--baseline')) await baseline();
else await run();
