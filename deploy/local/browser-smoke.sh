#!/usr/bin/env bash
# Starts the built app on embedded defaults in a fresh data dir and runs the browser test
# against it, then the first-render JavaScript size and Lighthouse reports (figures for the
# log; they fail only when they cannot measure). Needs `npm run build` first.
set -euo pipefail
cd "$(dirname "$0")/../.."
source deploy/local/common.sh
port="${SMOKE_PORT:-18080}"
# Notes fall due for review 2 s after they are written and the review scheduler looks every
# second, so the browser test sees a due note announced to the other device (test/browser/live.ts).
# The site's drafts show with the preview token, and the operator lists the feedback the test
# sends (test/browser/marketing.ts); the test is told both.
export CONTENT_PREVIEW_TOKEN="${CONTENT_PREVIEW_TOKEN:-smoke-preview-$(head -c 12 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')}"
export NOTED_ADMIN_EMAIL="${NOTED_ADMIN_EMAIL:-ops@example.com}"
start_noted "$port" smoke NOTES_REVIEW_FIRST_DUE_SECONDS=2 NOTES_REVIEW_INTERVAL_SECONDS=1 \
  CONTENT_PREVIEW_TOKEN="$CONTENT_PREVIEW_TOKEN" IDENTITY_ADMIN_EMAILS="$NOTED_ADMIN_EMAIL"
export BASE_URL="http://localhost:$port"
npm run test:browser || { echo "--- noted log"; tail -80 "$log"; exit 1; }
npm run report:size || { echo "--- noted log"; tail -80 "$log"; exit 1; }
npm run report:lighthouse || { echo "--- noted log"; tail -80 "$log"; exit 1; }
