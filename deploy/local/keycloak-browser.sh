#!/usr/bin/env bash
# Starts the built app with KEYCLOAK_URL pointing at the Keycloak of deploy/local/keycloak.sh,
# in a fresh data dir, and drives it in Chromium through Keycloak's own login and registration
# pages (test/browser/keycloak.ts). Needs `npm run build` and TEST_KEYCLOAK_* in the environment.
set -euo pipefail
cd "$(dirname "$0")/../.."
source deploy/local/common.sh
: "${TEST_KEYCLOAK_URL:?run eval \"\$(deploy/local/keycloak.sh)\" first}"
# The realm's noted-web client lists this port among its web origins (Keycloak has no port
# wildcard for CORS): keep them in step.
port="${KEYCLOAK_BROWSER_PORT:-18080}"
start_noted "$port" keycloak-browser KEYCLOAK_URL="$TEST_KEYCLOAK_URL"
BASE_URL="http://localhost:$port" node --conditions=@noted/source --import tsx test/browser/keycloak.ts ||
  { echo "--- noted log"; tail -80 "$log"; exit 1; }
