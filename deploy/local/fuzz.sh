#!/usr/bin/env bash
# Fuzzes the whole public API from its own OpenAPI document with Schemathesis: starts the built
# app on embedded defaults in a fresh data dir, signs a user in through the development
# provider, and runs every check (all are on by default; deploy/local/schemathesis.toml lists
# the documented exceptions) over every operation with that bearer token. The gateway's
# rate limits and feedback's are off for the run (the fuzzer sends thousands of requests as one
# user; the limits are tested on their own), the user is an operator (it reads the feedback it
# sends, IDENTITY_ADMIN_EMAILS), and no text holds NUL (U+0000): the document says every
# service refuses it with 400, and services/noted/src/refusals.integration.test.ts proves it
# for each. One worker: with two, Hypothesis parses lambda sources in two threads at once and
# CPython 3.11's ast module can raise "AST constructor recursion depth mismatch" (a race in the
# interpreter, python/cpython#106905), failing the run on no fault of the API. Needs
# `npm run build` first. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
source deploy/local/common.sh
st="$(bash deploy/local/schemathesis.sh)"
port="${FUZZ_PORT:-18090}"
# Payments through the local Stripe (test/stripe/serve.ts), so the payment routes answer as they
# do with Stripe rather than PAYMENTS_DISABLED.
stripe_port="${FUZZ_STRIPE_PORT:-12210}"
stripe_env="$NOTED_INFRA_DIR/fuzz-stripe-$stripe_port.env"
rm -f "$stripe_env"
node --conditions=@noted/source --import tsx test/stripe/serve.ts --port="$stripe_port" \
  --webhook-url="http://localhost:$port/api/stripe/webhook" >"$stripe_env" &
stripe=$!
# It prints its settings once it listens, the last one a price.
for _ in $(seq 1 60); do grep -q '^export STRIPE_PRICE_PREMIUM_YEARLY=' "$stripe_env" && break; sleep 0.5; done
grep -q '^export STRIPE_PRICE_PREMIUM_YEARLY=' "$stripe_env" || fail "the local Stripe did not start"
# Notion through the local server speaking its API that the export service is tested against
# (services/export/src/import/test/notion-server.ts). It takes one token, which the fuzzer does
# not make up: connecting answers 422 NOTION_TOKEN_INVALID, as Notion does, and nothing leaves
# this machine.
notion_url="$NOTED_INFRA_DIR/fuzz-notion-$port.url"
rm -f "$notion_url"
node --conditions=@noted/source --import tsx --input-type=module -e "
  const { startNotionServer } = await import('./services/export/src/import/test/notion-server.ts');
  const notion = await startNotionServer({ token: 'secret_noted_fuzz_only' });
  console.log(notion.baseUrl);
  process.on('SIGTERM', () => void notion.close().then(() => process.exit(0)));
" >"$notion_url" &
notion=$!
for _ in $(seq 1 60); do grep -q '^http' "$notion_url" && break; sleep 0.5; done
grep -q '^http' "$notion_url" || fail "the local Notion did not start"
# shellcheck disable=SC2046 # its NAME=value settings, one word each
start_noted "$port" fuzz NOTED_METRICS_PORT=0 GATEWAY_RATE_LIMIT_PER_IP=0 GATEWAY_RATE_LIMIT_PER_USER=0 \
  FEEDBACK_PER_USER_PER_HOUR=0 FEEDBACK_PER_IP_PER_HOUR=0 IDENTITY_ADMIN_EMAILS=fuzz@example.com \
  NOTION_API_URL="$(cat "$notion_url")" $(sed -n 's/^export //p' "$stripe_env")
trap 'kill $app $stripe $notion 2>/dev/null || true; wait $app $stripe $notion 2>/dev/null || true; rm -rf "$noted_data_dir"' EXIT
base="http://localhost:$port"
token="$(curl -fsS "$base/realms/noted/protocol/openid-connect/token" \
  -d grant_type=password -d client_id=noted-cli -d username=fuzz@example.com \
  -d password=noted -d scope=openid | node -e 'process.stdin.on("data",(d)=>process.stdout.write(JSON.parse(d).access_token))')"
# One note, so that list and search answers have items to check against their schemas.
curl -fsS -X POST "$base/api/note/create/direct" -H "authorization: Bearer $token" \
  -H 'content-type: application/json' \
  -d '{"title":"Fuzzed","note":"A note for the fuzzer [[Fuzzed]] - [ ] a todo","tags":["fuzz"]}' >/dev/null
"$st" --config-file deploy/local/schemathesis.toml run "$base/api/openapi.json" \
  --header "Authorization: Bearer $token" \
  --max-examples "${FUZZ_EXAMPLES:-40}" \
  --workers 1 \
  --seed "${FUZZ_SEED:-1}" \
  --generation-allow-x00 false \
  --request-timeout 30 \
  --no-color \
  "$@" || { status=$?; echo "--- noted log (errors)"; grep -i '"level":50' "$log" | tail -20; exit $status; }
