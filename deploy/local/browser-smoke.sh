#!/usr/bin/env bash
# Starts the built app on embedded defaults in a fresh data dir and runs the browser test
# against it, then the first-render JavaScript size and Lighthouse reports (figures for the
# log; they fail only when they cannot measure). Needs `npm run build` first.
set -euo pipefail
cd "$(dirname "$0")/../.."
source deploy/local/common.sh
port="${SMOKE_PORT:-18080}"
start_noted "$port" smoke
export BASE_URL="http://localhost:$port"
npm run test:browser || { echo "--- noted log"; tail -80 "$log"; exit 1; }
npm run report:size || { echo "--- noted log"; tail -80 "$log"; exit 1; }
npm run report:lighthouse || { echo "--- noted log"; tail -80 "$log"; exit 1; }
