#!/usr/bin/env bash
# Runs Noted as the Helm chart deploys it: one `noted --target=<service>` process per service
# (users, notes, ai, billing, realtime, export, and the gateway with the development identity
# provider in front), each with only its own settings and data dir, its own Postgres database
# (realtime owns none), events through NATS JetStream, note images in MinIO, and the
# others' addresses from its environment. Waits for every /readyz, opens a live connection
# through the gateway and sees a note created through the notes process pushed to it by the
# realtime process, exports a note with an image (stored in MinIO) and everything through the
# export process, runs the browser test through the gateway, then a short load run whose traffic
# reaches every service, and checks each process's /metrics with `promtool check metrics`.
# Needs the build (services and frontends). Starts PostgreSQL, NATS and MinIO with the scripts
# beside this one unless they run already (they are safe to run again).
#
#   bash deploy/local/split.sh              # ports SPLIT_PORT_BASE (18100) to +20
#   SPLIT_SKIP_BROWSER=1 SPLIT_KEEP=1 bash deploy/local/split.sh   # leave it running to poke at
#
# SPLIT_LOAD_SECONDS sets the load per script (3); PROMTOOL a promtool to use instead of
# building one; NOTED_INTERNAL_SECRET the secret (random otherwise), e.g. to run
# `AI_GRPC_ADDR=127.0.0.1:18107 noted reindex` against the ai process, which needs no
# endpoints file.
set -euo pipefail
cd "$(dirname "$0")/../.."
source deploy/local/common.sh

main_js=services/noted/dist/main.js
[ -f "$main_js" ] || fail "$main_js is missing: build first (npx nx run @noted/noted:build)"
[ -d frontends/shell/dist ] || fail "frontends/shell/dist is missing: build the frontends first"

for script in postgres nats minio; do
  exports="$(bash "deploy/local/$script.sh")" || fail "deploy/local/$script.sh failed"
  eval "$exports"
done
promtool="${PROMTOOL:-$(bash deploy/local/promtool.sh)}" || fail "deploy/local/promtool.sh failed"

base="${SPLIT_PORT_BASE:-18100}"
gateway_port=$base
identity_port=$((base + 1))
users_http=$((base + 2)) users_grpc=$((base + 3))
notes_http=$((base + 4)) notes_grpc=$((base + 5))
ai_http=$((base + 6)) ai_grpc=$((base + 7))
billing_http=$((base + 8)) billing_grpc=$((base + 9))
# base + 10 to + 14: the metrics ports of gateway, users, notes, ai and billing.
realtime_http=$((base + 15)) realtime_grpc=$((base + 16))
# base + 17: realtime's metrics port; base + 20: export's.
export_http=$((base + 18)) export_grpc=$((base + 19))
for port in $(seq "$base" $((base + 20))); do
  port_open "$port" && fail "port $port is taken; set SPLIT_PORT_BASE to a free range of 21 ports"
done

# One database per service that owns data (realtime owns none); made anew for every run.
admin_url="$TEST_DATABASE_URL"
db_url() { echo "${admin_url%/*}/$1"; }
psql_bin="$(command -v psql || true)"
[ -n "$psql_bin" ] || psql_bin="$( (ls -d /usr/lib/postgresql/*/bin/psql 2>/dev/null || true) | sort -V | tail -n 1)"
[ -n "$psql_bin" ] || fail "psql not found (on PATH or under /usr/lib/postgresql)"
for service in users notes ai billing export; do
  "$psql_bin" "$admin_url" -v ON_ERROR_STOP=1 -qc "drop database if exists noted_split_$service with (force)" \
    -c "create database noted_split_$service" >/dev/null || fail "could not create database noted_split_$service"
done

run_dir="$(mktemp -d /tmp/noted-split.XXXXXX)"
loopback=127.0.0.1
# Each process starts as the noted binary (the image's entrypoint) does: by its #! line, whose
# malloc settings and node flags `npm start` shares (the build does not make main.js executable).
launcher="$(head -n 1 "$main_js")"
[[ "$launcher" == '#!'* ]] || fail "$main_js does not start with a #! line"
launcher="${launcher#\#!}"
# The site's preview token and the development provider's operator, which the browser test
# (test/browser/marketing.ts) is told too: drafts in preview mode, the operators' feedback list.
export CONTENT_PREVIEW_TOKEN="${CONTENT_PREVIEW_TOKEN:-split-preview-$(head -c 12 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')}"
export NOTED_ADMIN_EMAIL="${NOTED_ADMIN_EMAIL:-ops@example.com}"
# What every process is told alike: the secret that signs identities from the gateway, the bind
# address (loopback here; 0.0.0.0 in a pod), quiet logs.
common=(
  "PATH=$PATH" "HOME=$HOME"
  "NOTED_INTERNAL_SECRET=${NOTED_INTERNAL_SECRET:-$(head -c 32 /dev/urandom | base64 | tr -d '\n=')}"
  "NOTED_BIND_HOST=$loopback"
  "LOG_LEVEL=warn"
)
declare -A service_env=(
  # IDENTITY_URL: the development provider in the gateway's process, where a deleted account's
  # account is deleted (DELETE /admin/realms/noted/users/{sub}, as Keycloak's admin API).
  [users]="USERS_HTTP_PORT=$users_http USERS_GRPC_ADDR=$loopback:$users_grpc DATABASE_URL=$(db_url noted_split_users) NATS_URL=$TEST_NATS_URL IDENTITY_URL=http://$loopback:$identity_port FREE_NOTES_PER_MONTH=-1 NOTED_METRICS_PORT=$((base + 11))"
  # Notes fall due for review 2 s after they are written, the scheduler looking every second:
  # the browser test watches a due note announced to the other device (test/browser/live.ts).
  [notes]="NOTES_HTTP_PORT=$notes_http NOTES_GRPC_ADDR=$loopback:$notes_grpc DATABASE_URL=$(db_url noted_split_notes) NATS_URL=$TEST_NATS_URL USERS_GRPC_ADDR=$loopback:$users_grpc PUBLIC_URL=http://localhost:$gateway_port S3_ENDPOINT=$TEST_S3_ENDPOINT S3_ACCESS_KEY=$TEST_S3_ACCESS_KEY S3_SECRET_KEY=$TEST_S3_SECRET_KEY S3_BUCKET=noted-split NOTES_REVIEW_FIRST_DUE_SECONDS=2 NOTES_REVIEW_INTERVAL_SECONDS=1 NOTED_METRICS_PORT=$((base + 12))"
  [ai]="AI_HTTP_PORT=$ai_http AI_GRPC_ADDR=$loopback:$ai_grpc DATABASE_URL=$(db_url noted_split_ai) NATS_URL=$TEST_NATS_URL NOTES_GRPC_ADDR=$loopback:$notes_grpc NOTED_METRICS_PORT=$((base + 13))"
  [billing]="BILLING_HTTP_PORT=$billing_http BILLING_GRPC_ADDR=$loopback:$billing_grpc DATABASE_URL=$(db_url noted_split_billing) NATS_URL=$TEST_NATS_URL NOTED_METRICS_PORT=$((base + 14))"
  # No database; PUBLIC_URL is the gateway's: WebSocket upgrades must come from that origin.
  [realtime]="REALTIME_HTTP_PORT=$realtime_http REALTIME_GRPC_ADDR=$loopback:$realtime_grpc NATS_URL=$TEST_NATS_URL PUBLIC_URL=http://localhost:$gateway_port NOTED_METRICS_PORT=$((base + 17))"
  # No bus: it reads notes and images from the notes process over gRPC; its links and front
  # matter point at the gateway's PUBLIC_URL; its database keeps the Notion connections.
  [export]="EXPORT_HTTP_PORT=$export_http EXPORT_GRPC_ADDR=$loopback:$export_grpc DATABASE_URL=$(db_url noted_split_export) NATS_URL=$TEST_NATS_URL NOTES_GRPC_ADDR=$loopback:$notes_grpc NOTES_URL=http://$loopback:$notes_http USERS_URL=http://$loopback:$users_http AI_URL=http://$loopback:$ai_http BILLING_URL=http://$loopback:$billing_http PUBLIC_URL=http://localhost:$gateway_port NOTED_METRICS_PORT=$((base + 20))"
  [gateway]="PORT=$gateway_port PUBLIC_URL=http://localhost:$gateway_port IDENTITY_PORT=$identity_port IDENTITY_URL=http://$loopback:$identity_port USERS_URL=http://$loopback:$users_http USERS_GRPC_ADDR=$loopback:$users_grpc NOTES_URL=http://$loopback:$notes_http AI_URL=http://$loopback:$ai_http BILLING_URL=http://$loopback:$billing_http REALTIME_URL=http://$loopback:$realtime_http EXPORT_URL=http://$loopback:$export_http GATEWAY_RATE_LIMIT_PER_USER=0 GATEWAY_RATE_LIMIT_PER_IP=0 CONTENT_PREVIEW_TOKEN=$CONTENT_PREVIEW_TOKEN IDENTITY_ADMIN_EMAILS=$NOTED_ADMIN_EMAIL NOTED_METRICS_PORT=$((base + 10))"
)
declare -A ready_url=(
  [users]="http://$loopback:$users_http/readyz"
  [notes]="http://$loopback:$notes_http/readyz"
  [ai]="http://$loopback:$ai_http/readyz"
  [billing]="http://$loopback:$billing_http/readyz"
  [realtime]="http://$loopback:$realtime_http/readyz"
  [export]="http://$loopback:$export_http/readyz"
  [gateway]="http://$loopback:$gateway_port/readyz"
)
declare -A metrics_port=([gateway]=$((base + 10)) [users]=$((base + 11)) [notes]=$((base + 12)) [ai]=$((base + 13)) [billing]=$((base + 14)) [realtime]=$((base + 17)) [export]=$((base + 20)))
services=(users notes ai billing realtime export gateway)
declare -A pid=()

stop_all() {
  local service
  for service in "${services[@]}"; do
    [ -n "${pid[$service]:-}" ] && kill "${pid[$service]}" 2>/dev/null || true
  done
  for service in "${services[@]}"; do
    [ -n "${pid[$service]:-}" ] && wait "${pid[$service]}" 2>/dev/null || true
  done
  # The logs were shown on a failure; the data (a database per service) is not kept.
  rm -rf "$run_dir"
}
show_logs() {
  local service
  for service in "${services[@]}"; do
    echo "--- $service log (last 30 lines of $run_dir/$service.log)"
    tail -30 "$run_dir/$service.log" 2>/dev/null || true
  done
}
[ -n "${SPLIT_KEEP:-}" ] || trap stop_all EXIT

started=$(date +%s%N)
for service in "${services[@]}"; do
  # shellcheck disable=SC2086 # each service's settings are words of NAME=value; $launcher is words
  env -i "${common[@]}" NOTED_DATA_DIR="$run_dir/$service-data" ${service_env[$service]} \
    $launcher "$main_js" --target="$service" \
    >"$run_dir/$service.log" 2>&1 &
  pid[$service]=$!
  echo "split: started --target=$service (pid ${pid[$service]}): ${service_env[$service]}" |
    sed -E 's/(SECRET[A-Z_]*)=[^ ]+/\1=***/g'
done

for service in "${services[@]}"; do
  for _ in $(seq 1 240); do
    curl -fsS "${ready_url[$service]}" >/dev/null 2>&1 && break
    kill -0 "${pid[$service]}" 2>/dev/null || { echo "split: --target=$service exited"; show_logs; exit 1; }
    sleep 0.25
  done
  curl -fsS "${ready_url[$service]}" >/dev/null 2>&1 || { echo "split: $service not ready in 60 s"; show_logs; exit 1; }
  echo "split: $service ready at ${ready_url[$service]} ($(( ($(date +%s%N) - started) / 1000000 )) ms after start)"
done

export BASE_URL="http://localhost:$gateway_port"

# The live connection across the processes: a token from POST /ws/token and a WebSocket on /ws,
# both through the gateway (REALTIME_URL) to --target=realtime; a note created through the notes
# process reaches the socket by NATS; a page of another origin is refused (realtime's PUBLIC_URL).
echo "split: live connection through the gateway to --target=realtime"
node --input-type=module - <<'LIVE' || { show_logs; exit 1; }
import WebSocket from 'ws';
const base = process.env.BASE_URL;
const fail = (why) => {
  console.error(`split: live: ${why}`);
  process.exit(1);
};
const grant = await fetch(`${base}/realms/noted/protocol/openid-connect/token`, {
  method: 'POST',
  body: new URLSearchParams({
    grant_type: 'password',
    client_id: 'noted-cli',
    username: `live-${Date.now()}@example.com`,
    password: 'noted',
  }),
});
if (!grant.ok) fail(`password grant answered ${grant.status}`);
const { access_token: token } = await grant.json();
const api = async (method, path, body) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!response.ok) fail(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
};
const connect = async (origin) => {
  const { url } = await api('POST', '/ws/token');
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}${url}`, { origin });
  const messages = [];
  socket.on('message', (data) => messages.push(JSON.parse(String(data))));
  const status = await new Promise((resolve) => {
    socket.once('open', () => resolve(101));
    socket.once('unexpected-response', (_req, res) => resolve(res.statusCode));
    socket.once('error', (error) => resolve(error.message));
  });
  return { socket, messages, status };
};
const waitFor = async (condition, what) => {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) fail(`no ${what} in 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
const live = await connect(base);
if (live.status !== 101) fail(`the upgrade from ${base} answered ${live.status}`);
await waitFor(() => live.messages.length >= 2, 'connection and welcome');
const hello = live.messages.map((message) => message.type).join(', ');
if (hello !== 'connection, welcome') fail(`first messages: ${hello}`);
const started = Date.now();
const note = await api('POST', '/api/note/create/direct', { title: 'Live', note: 'split' });
const pushed = (m) => m.type === 'noteUpdated' && m.change === 'created' && m.note?.id === note.id;
await waitFor(() => live.messages.some(pushed), 'noteUpdated for the new note');
const pushedMs = Date.now() - started;
const stranger = await connect('https://evil.example');
if (stranger.status !== 403) fail(`an upgrade from another origin answered ${stranger.status}`);
console.log(
  `split: live: connection and welcome, the created note pushed ${pushedMs} ms after the request, another origin refused (403)`,
);
// A refused upgrade's request stays open when answered through 'unexpected-response'.
live.socket.terminate();
stranger.socket.terminate();
process.exit(0);
LIVE

# Export across the processes: a note with an image (stored in MinIO by the notes process) as a
# bundled Markdown zip and in the zip of everything, both through the gateway (EXPORT_URL) to
# --target=export, which reads them from the notes process over gRPC.
echo "split: export through the gateway to --target=export"
node --input-type=module - <<'EXPORT' || { show_logs; exit 1; }
import sharp from 'sharp';
import yauzl from 'yauzl';
const base = process.env.BASE_URL;
const fail = (why) => {
  console.error(`split: export: ${why}`);
  process.exit(1);
};
const grant = await fetch(`${base}/realms/noted/protocol/openid-connect/token`, {
  method: 'POST',
  body: new URLSearchParams({
    grant_type: 'password',
    client_id: 'noted-cli',
    username: `export-${Date.now()}@example.com`,
    password: 'noted',
  }),
});
if (!grant.ok) fail(`password grant answered ${grant.status}`);
const { access_token: token } = await grant.json();
const call = async (method, path, body) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(body ? { body } : {}),
  });
  if (!response.ok) fail(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response;
};
const note = await (
  await fetch(`${base}/api/note/create/direct`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Split export 导出', note: 'from the notes process', tags: ['split'] }),
  })
).json();
const form = new FormData();
const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#16a34a' } })
  .png()
  .toBuffer();
form.append('image', new Blob([png], { type: 'image/png' }), 'dot.png');
const { image } = await (await call('POST', `/api/notes/${note.id}/images`, form)).json();
const stored = Buffer.from(await (await call('GET', image.url)).arrayBuffer());
const entries = (zip) =>
  new Promise((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error) return reject(error);
      const found = new Map();
      file.on('end', () => resolve(found));
      file.on('error', reject);
      file.on('entry', (entry) =>
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const parts = [];
          stream.on('data', (part) => parts.push(part));
          stream.on('end', () => {
            found.set(entry.fileName, Buffer.concat(parts));
            file.readEntry();
          });
        }),
      );
      file.readEntry();
    }),
  );
const imagePath = `images/${image.url.split('/').at(-1)}`;
const bundle = await entries(
  Buffer.from(
    await (await call('GET', `/export/note/markdown?id=${note.id}&images=bundle`)).arrayBuffer(),
  ),
);
if (!bundle.get(imagePath)?.equals(stored)) fail(`the bundle's ${imagePath} is not the stored image`);
const markdown = bundle.get('Split export 导出.md')?.toString() ?? '';
if (!markdown.includes(`title: Split export 导出`) || !markdown.endsWith('from the notes process')) {
  fail(`the bundle's Markdown is ${JSON.stringify(markdown)}`);
}
const all = await call('GET', '/export/all');
if (all.headers.get('x-noted-notes-total') !== '1') fail('X-Noted-Notes-Total is not 1');
const everything = await entries(Buffer.from(await all.arrayBuffer()));
const names = [...everything.keys()].sort().join(', ');
if (names !== `Split export 导出.md, ${imagePath}, manifest.json`) fail(`everything holds ${names}`);
console.log('split: export: a note and its image from MinIO, bundled and in the zip of everything');
process.exit(0);
EXPORT

if [ -z "${SPLIT_SKIP_BROWSER:-}" ]; then
  echo "split: browser test through the gateway at $BASE_URL"
  npm run --silent test:browser || { show_logs; exit 1; }
fi

metrics=""
for service in "${services[@]}"; do
  metrics+="${metrics:+,}$service=http://$loopback:${metrics_port[$service]}/metrics"
done
echo "split: short load through the gateway, then promtool check metrics on every process"
npm run --silent load -- --duration="${SPLIT_LOAD_SECONDS:-3}" --metrics="$metrics" --promtool="$promtool" ||
  { show_logs; exit 1; }

if [ -n "${SPLIT_KEEP:-}" ]; then
  echo "split: left running (SPLIT_KEEP): gateway $BASE_URL, pids ${pid[*]}, logs in $run_dir"
fi
