/**
 * The capture benchmark: the built program on embedded defaults (one process, as `npm start`),
 * a local web site and a local OpenAI-compatible server for transcription. For each way in it
 * makes notes through the API and prints the time from the request to the finished note and
 * the process's peak memory, against a baseline measured in the same run: the plain reading
 * call alone in this process (OCR of the same image, the PDF's text, the article of the same
 * page, the transcription request), and a typed note for the API's own cost.
 *
 *   npx nx run @noted/noted:build && npm run bench:capture
 *
 * BENCH_RUNS sets the notes per path (5). Figures, not assertions.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { pdfWithText, startFakeOpenAi, wavTone } from '../../libs/testing/src/index.js';
import { extractArticle } from '../../services/ai/src/capture/article.js';
import { OCR_IDLE_MS, createOcr } from '../../services/ai/src/capture/ocr.js';
import { createPdfReader } from '../../services/ai/src/capture/pdf.js';
import { freePort } from '../../services/noted/src/test/app.js';
import { passwordGrant } from '../../libs/testing/src/tokens.js';
import { mb, resetHighWater, statusKb } from './proc.js';

const runs = Number(process.env.BENCH_RUNS ?? 5);
const main = path.resolve('services/noted/dist/main.js');

const paragraph = (n: number) =>
  `Paragraph ${n}. Tidal turbines in the channel have run for years without a major repair, ` +
  'feeding the local grid with power that is predictable decades ahead, unlike the wind.';
const ARTICLE =
  '<!doctype html><html lang="en"><head><title>Tidal energy | Example News</title></head><body>' +
  '<nav>Home Sports Subscribe</nav><article><h1>Tidal energy comes of age</h1>' +
  Array.from({ length: 60 }, (_, n) => `<p>${paragraph(n)}</p>`).join('') +
  '</article><footer>Cookie settings</footer></body></html>';

const textImage = () => {
  const lines = [
    'Quarterly planning meeting',
    'Budget review on Friday at ten',
    'Ship the offline editor first',
  ];
  const text = lines.map((line, i) => `<text x="40" y="${90 + i * 64}">${line}</text>`).join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="300">` +
    `<rect width="100%" height="100%" fill="white"/>` +
    `<g font-family="DejaVu Sans" font-size="44" fill="#111">${text}</g></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
};

const pdf = pdfWithText(
  Array.from({ length: 10 }, (_, page) =>
    Array.from(
      { length: 20 },
      (_, line) => `Page ${page + 1}, line ${line + 1}: the garden birds.`,
    ).join('\n'),
  ),
);
const audio = wavTone(20);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** Runs `work` `runs` times; answers the median time in ms. */
const timed = async (work: () => Promise<unknown>) => {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return median(times);
};

const site = createServer((req, res) => {
  if (req.url === '/article') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
  } else if (req.url === '/memo.wav') {
    res.writeHead(200, { 'content-type': 'audio/wav' }).end(audio);
  } else res.writeHead(404).end();
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
const openai = await startFakeOpenAi();

// ---- Baselines: the plain reading calls, in this process ----
const image = await textImage();
const ocr = createOcr({ workers: 1 });
await ocr.read(image); // start the worker, as the program's first capture does
const pdfReader = createPdfReader({ workers: 1 });
await pdfReader.read(pdf);
const transcribeOnce = async () => {
  const form = new FormData();
  form.append('model', 'whisper');
  form.append('file', new Blob([new Uint8Array(audio)]), 'memo.wav');
  await (
    await fetch(`${openai.url}/v1/audio/transcriptions`, { method: 'POST', body: form })
  ).json();
};
const baseline = {
  image: await timed(() => ocr.read(image)),
  pdf: await timed(() => pdfReader.read(pdf)),
  link: await timed(async () =>
    extractArticle(await (await fetch(`${siteUrl}/article`)).text(), `${siteUrl}/article`),
  ),
  audio: await timed(transcribeOnce),
};
await Promise.all([ocr.close(), pdfReader.close()]);

// ---- The program ----
const port = await freePort();
const dataDir = mkdtempSync(path.join(tmpdir(), 'noted-bench-capture-'));
const child = spawn(process.execPath, [main], {
  env: {
    ...process.env,
    PORT: String(port),
    NOTED_DATA_DIR: dataDir,
    NOTED_METRICS_PORT: '0',
    FREE_NOTES_PER_MONTH: '-1',
    FREE_RECORDING_TIME_LIMIT: '-1',
    GATEWAY_RATE_LIMIT_PER_USER: '0',
    CAPTURE_FETCH_ALLOW_ADDRESSES: '127.0.0.1',
    OPENAI_BASE_URL: openai.url,
    OPENAI_TRANSCRIPTION_MODEL: 'whisper',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', openSync(`${dataDir}.log`, 'w'), 'inherit'],
});
const pid = child.pid as number;
const url = `http://127.0.0.1:${port}`;
for (let tries = 0; ; tries += 1) {
  if (
    await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  if (tries > 1800 || child.exitCode !== null)
    throw new Error(`noted did not start; see ${dataDir}.log`);
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const { accessToken } = await passwordGrant({
  realmUrl: `${url}/realms/noted`,
  email: 'bench@example.com',
  password: 'noted',
});
const authorization = `Bearer ${accessToken}`;

const post = async (route: string, body: FormData | object) => {
  const response = await fetch(`${url}${route}`, {
    method: 'POST',
    headers:
      body instanceof FormData
        ? { authorization }
        : { authorization, 'content-type': 'application/json' },
    body: body instanceof FormData ? body : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string; capture?: { status: string } };
};
const form = (field: string, data: Buffer, name: string) => {
  const body = new FormData();
  body.append(field, new Blob([new Uint8Array(data)]), name);
  return body;
};
/** Makes a note and waits until its capture is done; fails on anything but ready. */
const finished = async (make: () => Promise<{ id: string }>) => {
  const { id } = await make();
  for (;;) {
    const note = (await (
      await fetch(`${url}/api/notes/${id}`, { headers: { authorization } })
    ).json()) as {
      capture?: { status: string; error?: { message: string } };
    };
    if (note.capture?.status === 'ready' || !note.capture) return;
    if (note.capture.status !== 'processing')
      throw new Error(`capture ${note.capture.status}: ${note.capture.error?.message}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const paths: [string, keyof typeof baseline | 'direct', () => Promise<{ id: string }>][] = [
  [
    'typed note (direct)',
    'direct',
    () => post('/api/note/create/direct', { title: 'Typed', note: paragraph(1) }),
  ],
  [
    'image (local OCR)',
    'image',
    () => post('/api/note/create/byimage', form('image', image, 'board.png')),
  ],
  ['PDF, 10 pages', 'pdf', () => post('/api/note/create/bypdf', form('pdf', pdf, 'birds.pdf'))],
  [
    'PDF, 10 pages, through an upload address',
    'pdf',
    async () => {
      const target = (await post('/api/config/s3credentials', {
        kind: 'pdf',
        name: 'birds.pdf',
        bytes: pdf.length,
      })) as unknown as { uploadId: string; url: string };
      const sent = await fetch(`${url}${target.url}`, {
        method: 'POST',
        body: form('file', pdf, 'birds.pdf'),
      });
      if (sent.status !== 204) throw new Error(`upload: ${sent.status}`);
      return post('/api/note/create/byupload', { uploadId: target.uploadId });
    },
  ],
  ['web page', 'link', () => post('/api/note/create/bylink', { url: `${siteUrl}/article` })],
  [
    'audio file, 20 s',
    'audio',
    () => post('/api/note/create/byaudiofile', form('audio', audio, 'memo.wav')),
  ],
  [
    'audio URL, 20 s',
    'audio',
    () => post('/api/note/create/byaudioUrl', { audioUrl: `${siteUrl}/memo.wav` }),
  ],
];

const idle = statusKb(pid, 'VmRSS') ?? 0;
const rows = [];
for (const [name, base, make] of paths) {
  await finished(make); // warm: the first capture of a kind starts its workers
  resetHighWater(pid);
  const before = statusKb(pid, 'VmRSS') ?? 0;
  const ms = await timed(() => finished(make));
  rows.push({
    path: name,
    'median ms to a finished note': Math.round(ms),
    'baseline ms (the reading alone)': base === 'direct' ? '–' : Math.round(baseline[base]),
    'peak RSS MB': mb(statusKb(pid, 'VmHWM') ?? 0),
    'RSS before MB': mb(before),
  });
}
// The reading pools end their threads when idle (OCR after two minutes, the PDF and article
// readers after one): what the program holds once they have.
await new Promise((resolve) => setTimeout(resolve, OCR_IDLE_MS + 5_000));
const rested = statusKb(pid, 'VmRSS') ?? 0;
console.log(
  `\ncapture: ${runs} notes per path, medians; the program idled at ${mb(idle)} MB RSS before ` +
    `any capture and at ${mb(rested)} MB once its reading threads had ended\n`,
);
console.table(rows);

child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
rmSync(dataDir, { recursive: true, force: true });
rmSync(`${dataDir}.log`, { force: true });
await openai.close();
site.close();
