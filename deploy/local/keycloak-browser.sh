#!/usr/bin/env bash
# Starts the built app with KEYCLOAK_URL pointing at the Keycloak of deploy/local/keycloak.sh,
# in a fresh data dir, and drives it in Chromium through Keycloak's own login and registration
# pages (test/browser/keycloak.ts). Needs `npm run build` and TEST_KEYCLOAK_* in the environment.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${TEST_KEYCLOAK_URL:?run eval \"\$(deploy/local/keycloak.sh)\" first}"
# The realm's noted-web client lists this port among its web origins (Keycloak has no port
# wildcard for CORS): keep them in step.
port="${KEYCLOAK_BROWSER_PORT:-18080}"
data_dir="$(mktemp -d /tmp/noted-keycloak-browser.XXXXXX)"
log="$data_dir/noted.log"
PORT="$port" NOTED_DATA_DIR="$data_dir" KEYCLOAK_URL="$TEST_KEYCLOAK_URL" \
  node services/noted/dist/main.js >"$log" 2>&1 &
app=$!
trap 'kill $app 2>/dev/null || true; wait $app 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  curl -fsS "http://localhost:$port/readyz" >/dev/null 2>&1 && break
  kill -0 $app 2>/dev/null || { echo "noted exited:"; tail -50 "$log"; exit 1; }
  sleep 0.5
done
curl -fsS "http://localhost:$port/readyz" >/dev/null || { echo "noted never became ready:"; tail -50 "$log"; exit 1; }
BASE_URL="http://localhost:$port" node --conditions=@noted/source --import tsx test/browser/keycloak.ts ||
  { echo "--- noted log"; tail -80 "$log"; exit 1; }
