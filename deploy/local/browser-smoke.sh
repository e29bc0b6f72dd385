#!/usr/bin/env bash
# Starts the built app on embedded defaults in a fresh data dir and runs the browser test
# against it, then the first-render JavaScript size and Lighthouse reports (figures for the
# log; they fail only when they cannot measure). Needs `npm run build` first.
set -euo pipefail
cd "$(dirname "$0")/../.."
port="${SMOKE_PORT:-18080}"
data_dir="$(mktemp -d /tmp/noted-smoke.XXXXXX)"
log="$data_dir/noted.log"
PORT="$port" NOTED_DATA_DIR="$data_dir" node services/noted/dist/main.js >"$log" 2>&1 &
app=$!
trap 'kill $app 2>/dev/null || true; wait $app 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  curl -fsS "http://localhost:$port/readyz" >/dev/null 2>&1 && break
  kill -0 $app 2>/dev/null || { echo "noted exited:"; tail -50 "$log"; exit 1; }
  sleep 0.5
done
curl -fsS "http://localhost:$port/readyz" >/dev/null || { echo "noted never became ready:"; tail -50 "$log"; exit 1; }
export BASE_URL="http://localhost:$port"
npm run test:browser || { echo "--- noted log"; tail -80 "$log"; exit 1; }
npm run report:size || { echo "--- noted log"; tail -80 "$log"; exit 1; }
npm run report:lighthouse || { echo "--- noted log"; tail -80 "$log"; exit 1; }
