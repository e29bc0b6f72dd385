/**
 * Load on the live connection: holds N WebSockets (Node `ws` clients in worker threads; k6 is
 * not available here) against the built all-in-one on embedded defaults, spread over a number
 * of users, then creates notes for those users one after another and times each push from the
 * moment its request was sent (and from its answer) to its arrival on every socket of the
 * user. Prints, per N: how the sockets connect, the program's RSS before and with them open and
 * the memory per connection, and push latency p50/p95/max over all deliveries.
 *
 *   npm run load:live                                  # 1,000 and 10,000 connections
 *   npm run load:live -- --connections=500 --pushes=50 # a short run
 *
 * This machine allows a process 20,000 open files. Through the gateway an all-in-one holds
 * three per connection (browser to gateway, gateway to realtime, realtime's end), so up to
 * 5,000 connections go through the gateway and more go straight to the realtime module's own
 * port (its tokens still come from the gateway).
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { freePort } from '../../services/noted/src/test/app.js';
import { statusKb } from '../bench/proc.js';
import { call, signIn, type Target } from './load.js';
import { startNoted } from './noted.js';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '1000,10000' },
    users: { type: 'string', default: '100' },
    pushes: { type: 'string', default: '200' },
    workers: { type: 'string', default: '2' },
  },
});

const log = (line: string) => process.stdout.write(`${line}\n`);
const GATEWAY_LIMIT = 5_000;

const rssMb = (pid: number) => (statusKb(pid, 'VmRSS') ?? 0) / 1024;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** A worker's sockets: opens its share, answers pings, reports each push's arrival time. */
const workerCode = `
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const { WebSocket } = createRequire(workerData.root)('ws');
const sockets = [];
let open = 0, failed = 0;
const started = performance.timeOrigin + performance.now();
const next = (i) => {
  if (i >= workerData.urls.length) return;
  const socket = new WebSocket(workerData.urls[i], { origin: workerData.origin, perMessageDeflate: false });
  sockets.push(socket);
  socket.on('open', () => { open += 1; report(); next(i + workerData.parallel); });
  socket.on('error', () => { failed += 1; report(); next(i + workerData.parallel); });
  socket.on('message', (data) => {
    const text = String(data);
    const seq = /"title":"load-push-(\\d+)"/.exec(text);
    if (seq) parentPort.postMessage({ kind: 'push', seq: Number(seq[1]), at: performance.timeOrigin + performance.now() });
  });
};
const report = () => {
  if (open + failed === workerData.urls.length) {
    parentPort.postMessage({ kind: 'connected', open, failed, ms: performance.timeOrigin + performance.now() - started });
  }
};
for (let i = 0; i < workerData.parallel; i += 1) next(i);
parentPort.on('message', (message) => {
  if (message === 'close') { for (const socket of sockets) socket.terminate(); parentPort.postMessage({ kind: 'closed' }); }
});
`;

const run = async (connections: number, users: number, pushes: number, workers: number) => {
  const realtimePort = await freePort();
  const noted = await startNoted(log, {
    REALTIME_HTTP_PORT: String(realtimePort),
    REALTIME_MAX_CONNECTIONS: String(connections + 100),
    REALTIME_MAX_CONNECTIONS_PER_USER: String(Math.ceil(connections / users) + 10),
    // Tokens are made before the thousands of connects that use them.
    REALTIME_TOKEN_TTL_SECONDS: '3600',
    // The notes pushed are indexed too: with the hashed vectors, not the model's arithmetic.
    AI_LOCAL_EMBEDDINGS: 'hashed',
  });
  const target: Target = {
    baseUrl: noted.baseUrl,
    realmUrl: `${noted.baseUrl}/realms/noted`,
    password: 'noted',
    duration: 0,
    connections: 0,
  };
  const closers: Worker[] = [];
  try {
    const viaGateway = connections <= GATEWAY_LIMIT;
    const socketBase = viaGateway
      ? noted.baseUrl.replace('http', 'ws')
      : `ws://127.0.0.1:${realtimePort}`;
    const signedIn = await Promise.all(
      Array.from({ length: users }, () => signIn(target, `live-${randomUUID()}@example.com`)),
    );
    const tokens = await Promise.all(
      signedIn.map((user) => call<{ url: string }>(target, user, 'POST', '/ws/token')),
    );
    const owner = Array.from({ length: connections }, (_, n) => n % users);
    const urls = owner.map((user) => `${socketBase}${tokens[user]!.url}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const rssBefore = rssMb(noted.pid);

    const arrivals = new Map<number, number[]>();
    const connected: { open: number; failed: number; ms: number }[] = [];
    await Promise.all(
      Array.from({ length: workers }, (_, w) => {
        const worker = new Worker(workerCode, {
          eval: true,
          workerData: {
            urls: urls.filter((_, n) => n % workers === w),
            origin: noted.baseUrl,
            parallel: 50,
            root: `${process.cwd()}/`,
          },
        });
        closers.push(worker);
        worker.on('message', (message: { kind: string; seq?: number; at?: number }) => {
          if (message.kind === 'push') {
            const list = arrivals.get(message.seq!) ?? [];
            list.push(message.at!);
            arrivals.set(message.seq!, list);
          }
        });
        return new Promise<void>((resolve) => {
          const onConnected = (message: {
            kind: string;
            open: number;
            failed: number;
            ms: number;
          }) => {
            if (message.kind !== 'connected') return;
            connected.push(message);
            worker.off('message', onConnected);
            resolve();
          };
          worker.on('message', onConnected);
        });
      }),
    );
    const open = connected.reduce((sum, part) => sum + part.open, 0);
    const failed = connected.reduce((sum, part) => sum + part.failed, 0);
    const connectMs = Math.max(...connected.map((part) => part.ms));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const rssOpen = rssMb(noted.pid);

    // Pushes: a note created for one user at a time; each arrives on that user's sockets.
    const sent = new Map<number, { start: number; answered: number; user: number }>();
    for (let seq = 0; seq < pushes; seq += 1) {
      const user = seq % users;
      const start = performance.timeOrigin + performance.now();
      await call(target, signedIn[user]!, 'POST', '/api/note/create/direct', {
        title: `load-push-${seq}`,
        note: 'A note made by the live load script.',
      });
      sent.set(seq, { start, answered: performance.timeOrigin + performance.now(), user });
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const fromRequest: number[] = [];
    const fromAnswer: number[] = [];
    let expected = 0;
    for (const [seq, { start, answered, user }] of sent) {
      expected += owner.filter((each) => each === user).length;
      for (const at of arrivals.get(seq) ?? []) {
        fromRequest.push(at - start);
        fromAnswer.push(Math.max(0, at - answered));
      }
    }
    fromRequest.sort((a, b) => a - b);
    fromAnswer.sort((a, b) => a - b);
    const kbPerConnection = ((rssOpen - rssBefore) * 1024) / Math.max(1, open);
    return {
      connections,
      via: viaGateway ? 'gateway' : 'realtime port',
      open,
      failed,
      'connect s': (connectMs / 1000).toFixed(1),
      'RSS before MB': rssBefore.toFixed(0),
      'RSS open MB': rssOpen.toFixed(0),
      'KB / conn': kbPerConnection.toFixed(1),
      deliveries: `${fromRequest.length}/${expected}`,
      'push p50 ms': percentile(fromRequest, 50).toFixed(1),
      'push p95 ms': percentile(fromRequest, 95).toFixed(1),
      'push max ms': (fromRequest.at(-1) ?? 0).toFixed(1),
      'after answer p50 ms': percentile(fromAnswer, 50).toFixed(1),
      'after answer p95 ms': percentile(fromAnswer, 95).toFixed(1),
    };
  } finally {
    await Promise.all(closers.map((worker) => worker.terminate()));
    await noted.stop();
  }
};

const main = async () => {
  const counts = values.connections.split(',').map(Number);
  const users = Number(values.users);
  const pushes = Number(values.pushes);
  const workers = Number(values.workers);
  const rows = [];
  for (const connections of counts) {
    log(`\n${connections} live connections over ${users} users, ${pushes} pushes`);
    const row = await run(connections, users, pushes, workers);
    log(JSON.stringify(row));
    rows.push(row);
  }
  console.table(rows);
  const short = rows.filter((row) => row.open < row.connections || row.failed > 0);
  if (short.length > 0) {
    log(`FAILED: not every connection opened: ${JSON.stringify(short)}`);
    process.exit(1);
  }
};

main().catch((error: unknown) => {
  process.stderr.write(`load:live: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
